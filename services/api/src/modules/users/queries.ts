import type { AdminUserListQuery, MediaState } from '@usher/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { mediaServerRetryQueue, users, type UserRow } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import { AppError } from '../../errors/app-error.js';
import { nextDay, startOfZonedDay } from '../../time/zoned-day.js';

type Reader = Pick<Database, 'select' | 'execute'>;

export const userNotFound = () => new AppError('USER_NOT_FOUND', 'No such user');

/** A malformed or unknown id is simply not found (20-api.md §1.1). */
export async function findUser(db: Reader, id: string): Promise<UserRow> {
  if (!z.uuid().safeParse(id).success) throw userNotFound();
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw userNotFound();
  return row;
}

/** Locks the user row for the rest of the transaction. */
export async function lockUser(db: Reader, id: string): Promise<UserRow> {
  if (!z.uuid().safeParse(id).success) throw userNotFound();
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  if (!row) throw userNotFound();
  return row;
}

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The derived media state (membership/state.ts `mediaState`) as a SQL condition. */
function mediaStateFilter(state: MediaState, now: Date): SQL {
  const at = now.toISOString();
  const expired = sql`(${users.expiresAt} is not null and ${users.expiresAt} <= ${at})`;
  const linked = sql`${users.mediaUserId} is not null`;
  switch (state) {
    case 'unlinked':
      return sql`${users.mediaUserId} is null`;
    case 'disabled_by_admin':
      return sql`${linked} and ${users.role} = 'user' and ${users.mediaAccessDisabled}`;
    case 'disabled_expired':
      return sql`${linked} and ${users.role} = 'user' and not ${users.mediaAccessDisabled}
        and ${expired}`;
    case 'enabled':
      return sql`${linked} and (${users.role} = 'admin'
        or (not ${users.mediaAccessDisabled} and not ${expired}))`;
  }
}

const SORT_COLUMNS = {
  createdAt: users.createdAt,
  expiresAt: users.expiresAt,
  username: sql`lower(${users.username})`,
  lastLoginAt: users.lastLoginAt,
} as const;

/** `GET /admin/users`: filters, sort (nulls last either way, ties by id) and one page. */
export async function listUsers(
  db: Reader,
  query: AdminUserListQuery,
  now: Date,
  timeZone: string,
): Promise<{ rows: UserRow[]; total: number }> {
  const at = now.toISOString();
  const filters: SQL[] = [];
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    filters.push(or(ilike(users.username, pattern), ilike(users.email, pattern))!);
  }
  if (query.role) filters.push(eq(users.role, query.role));
  if (query.isActive !== undefined) filters.push(eq(users.isActive, query.isActive));
  if (query.status === 'never') filters.push(sql`${users.expiresAt} is null`);
  if (query.status === 'active') filters.push(sql`${users.expiresAt} > ${at}`);
  if (query.status === 'expired') filters.push(sql`${users.expiresAt} <= ${at}`);
  if (query.mediaState) filters.push(mediaStateFilter(query.mediaState, now));
  if (query.expiresBefore) {
    const v = query.expiresBefore;
    const bound = isDay(v) ? startOfZonedDay(nextDay(v), timeZone) : new Date(v);
    filters.push(sql`${users.expiresAt} < ${bound.toISOString()}`);
  }
  if (query.expiresAfter) {
    const v = query.expiresAfter;
    const bound = isDay(v) ? startOfZonedDay(v, timeZone) : new Date(v);
    filters.push(
      isDay(v)
        ? sql`${users.expiresAt} >= ${bound.toISOString()}`
        : sql`${users.expiresAt} > ${bound.toISOString()}`,
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const column = SORT_COLUMNS[query.sort];
  const direction = query.order === 'asc' ? sql`asc` : sql`desc`;
  const order = [
    sql`${column} ${direction} nulls last`,
    query.order === 'asc' ? asc(users.id) : desc(users.id),
  ];
  // A deferred join (issue 33): the offset skips ids along the sort's index, and only the page's
  // rows are read whole.
  const page = db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(...order)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .as('page');
  const rows = await db
    .select(getTableColumns(users))
    .from(users)
    .innerJoin(page, eq(users.id, page.id))
    .orderBy(...order);
  return { rows, total: total?.n ?? 0 };
}

/** Whether a table exists yet (payments and media requests arrive with later capabilities). */
export async function tableExists(db: Reader, name: string): Promise<boolean> {
  const [row] = await queryRows<{ t: string | null }>(
    db,
    sql`select to_regclass(${`public.${name}`})::text as t`,
  );
  return Boolean(row?.t);
}

/** The counts on the admin detail page; tables not created yet count 0. */
export async function userCounts(
  db: Reader,
  userId: string,
): Promise<{ redemptions: number; payments: number; activeRequests: number }> {
  const countIn = async (table: string, extra: SQL = sql``) => {
    if (!(await tableExists(db, table))) return 0;
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from ${sql.identifier(table)} where user_id = ${userId} ${extra}`,
    );
    return Number(row?.n ?? 0);
  };
  return {
    redemptions: await countIn('redemptions'),
    payments: await countIn('payments'),
    // "Active" as 10-data.md §4 uses the word: every status but REJECTED.
    activeRequests: await countIn(
      'media_requests',
      sql`and status in ('PENDING', 'APPROVED', 'INGESTED')`,
    ),
  };
}

/** Active administrators other than `exceptId` (the LAST_ADMIN rule). */
export async function otherActiveAdmins(db: Reader, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true), sql`${users.id} <> ${exceptId}`));
  return row?.n ?? 0;
}

// --- writes -------------------------------------------------------------------------------------

type Writer = Pick<Database, 'select' | 'execute' | 'update' | 'insert' | 'delete'>;

/** Serialises the LAST_ADMIN checks, so two admins cannot demote each other at once. */
export async function lockAdminSet(tx: Writer): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('usher:admins'))`);
}

/** Whether an account other than `exceptId` (none: any account) has this e-mail address. */
export async function emailTaken(
  db: Reader,
  email: string,
  exceptId: string | null = null,
): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      exceptId === null
        ? sql`${users.email} = ${email}`
        : sql`${users.email} = ${email} and ${users.id} <> ${exceptId}`,
    );
  return rows.length > 0;
}

/**
 * Writes `set` on the account (and `updatedAt`); `revokeTokens` also bumps `token_version`, so
 * every token issued before stops working. The row as written.
 */
export async function updateUserRow(
  tx: Writer,
  id: string,
  set: Partial<UserRow>,
  options: { now: Date; revokeTokens?: boolean },
): Promise<UserRow> {
  const [updated] = await tx
    .update(users)
    .set({
      ...set,
      ...(options.revokeTokens ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      updatedAt: options.now,
    })
    .where(eq(users.id, id))
    .returning();
  return updated!;
}

export async function insertUser(tx: Writer, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await tx.insert(users).values(row).returning();
  return created!;
}

export async function deleteUserRow(tx: Writer, id: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, id));
}

/** The accounts linked to any of these media users. */
export function ownersOfMediaUsers(
  db: Reader,
  mediaUserIds: string[],
): Promise<{ id: string; username: string; mediaUserId: string | null }[]> {
  return db
    .select({ id: users.id, username: users.username, mediaUserId: users.mediaUserId })
    .from(users)
    .where(inArray(users.mediaUserId, mediaUserIds));
}

/** A deleted member's pending payments expire with them; how many did. */
export async function expirePendingPayments(tx: Writer, userId: string): Promise<number> {
  const result = (await tx.execute(sql`
    update payments set status = 'expired', status_reason = 'user deleted', updated_at = now()
    where user_id = ${userId} and status = 'pending'`)) as unknown as {
    rowCount?: number;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
}

/** Completes the media user's pending access rows (and template rows with `policy`). */
export async function supersedeMediaRetries(
  tx: Writer,
  mediaUserId: string,
  policy: boolean,
  now: Date,
): Promise<void> {
  await tx
    .update(mediaServerRetryQueue)
    .set({ status: 'done', lastError: 'superseded by a manual sync', updatedAt: now })
    .where(
      and(
        eq(mediaServerRetryQueue.mediaUserId, mediaUserId),
        eq(mediaServerRetryQueue.status, 'pending'),
        // With `policy` the whole template was written too: a pending template retry is done.
        inArray(
          mediaServerRetryQueue.operation,
          policy ? ['enable', 'disable', 'policy'] : ['enable', 'disable'],
        ),
      ),
    );
}

/** The account's row by id without the not-found check, or undefined. */
export { userRow } from '../../db/users.js';
export { queueMediaDelete, settleMediaDelete } from '../../db/retry-queue.js';
