import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users, type UserRow } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import { AppError } from '../../errors/app-error.js';

export interface Extension {
  user: UserRow;
  previousExpiresAt: Date | null;
  expiresAt: Date;
}

/** Refuses accounts that renewals do not apply to (admins, never-expiring members). */
export function assertRenewable(row: Pick<UserRow, 'role' | 'expiresAt'>): void {
  if (row.role !== 'user') {
    throw new AppError(
      'ACCOUNT_NOT_RENEWABLE',
      'Administrator accounts have no membership to renew',
    );
  }
  if (row.expiresAt === null) {
    throw new AppError('ACCOUNT_NEVER_EXPIRES', 'This membership never expires');
  }
}

/** new end = max(now, current end) + days */
export function extendedEnd(current: Date | null, days: number, now: Date): Date {
  const base = current && current.getTime() > now.getTime() ? current : now;
  return new Date(base.getTime() + days * 86_400_000);
}

/**
 * Locks the user row for a renewal (redeem, admin extend, payments — 20-api.md §8.2) and
 * refuses what cannot be renewed. Call inside the transaction that writes the extension.
 */
export async function lockForRenewal(tx: Tx, userId: string): Promise<UserRow> {
  const locked = await queryRows(tx, sql`select id from users where id = ${userId} for update`);
  if (locked.length === 0) throw new AppError('USER_NOT_FOUND', 'No such user');
  const [row] = await tx.select().from(users).where(eq(users.id, userId));
  assertRenewable(row!);
  return row!;
}

/** Moves the locked user's end by `days`; access sync follows after the commit. */
export async function writeExtension(
  tx: Tx,
  row: UserRow,
  days: number,
  now: Date,
): Promise<Extension> {
  const expiresAt = extendedEnd(row.expiresAt, days, now);
  const [updated] = await tx
    .update(users)
    .set({ expiresAt, updatedAt: now })
    .where(eq(users.id, row.id))
    .returning();
  return { user: updated!, previousExpiresAt: row.expiresAt, expiresAt };
}
