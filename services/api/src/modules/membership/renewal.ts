import type { Tx } from '../../db/client.js';
import type { UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { lockUser, setExpiry } from './queries.js';

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
  const row = await lockUser(tx, userId);
  if (!row) throw new AppError('USER_NOT_FOUND', 'No such user');
  assertRenewable(row);
  return row;
}

/** Moves the locked user's end by `days`; access sync follows after the commit. */
export async function writeExtension(
  tx: Tx,
  row: UserRow,
  days: number,
  now: Date,
): Promise<Extension> {
  const expiresAt = extendedEnd(row.expiresAt, days, now);
  const user = await setExpiry(tx, row.id, expiresAt, now);
  return { user, previousExpiresAt: row.expiresAt, expiresAt };
}
