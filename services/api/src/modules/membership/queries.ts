// The membership module's SQL (docs/architecture.md "Module shape"): the member's row, the
// per-user media lock, the retry queue and the job scans. The rules that use them stay beside.
import { and, asc, eq, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Tx } from '../../db/client.js';
import {
  mediaServerRetryQueue,
  users,
  type RetryRow,
  type UserRow,
} from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import type { RetryOrigin } from '../../db/schema/retry-queue/constants.js';

export { userRow as findUser, lockedUserRow as lockUser } from '../../db/users.js';

/** First retry of a failed media-server write: 30 s later (10-data.md §9). */
export const FIRST_RETRY_MS = 30_000;

// --- users ---------------------------------------------------------------------------------

/** Holds the per-user media lock until the transaction ends (docs/architecture.md). */
export async function takeMediaLock(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`media-access:${userId}`}))`);
}

/** Writes the media state Usher declares for the account. */
export async function setMediaDisabled(
  tx: Tx,
  userId: string,
  disabled: boolean,
  now: Date,
): Promise<void> {
  await tx
    .update(users)
    .set({ mediaDisabled: disabled, updatedAt: now })
    .where(eq(users.id, userId));
}

/** Moves the account's end; the row as written. */
export async function setExpiry(
  tx: Tx,
  userId: string,
  expiresAt: Date,
  now: Date,
): Promise<UserRow> {
  const [updated] = await tx
    .update(users)
    .set({ expiresAt, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  return updated!;
}

/** Whether an Usher account already uses this name, compared case-insensitively. */
export async function isUsernameTakenLocally(
  db: Pick<Database, 'execute'>,
  username: string,
): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from users where lower(username) = ${username.toLowerCase()} limit 1`,
  );
  return rows.length > 0;
}

/** The account linked to a media user, if any. */
export async function ownerOfMediaUser(
  tx: Tx,
  mediaUserId: string,
): Promise<{ id: string } | undefined> {
  const [owner] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.mediaUserId, mediaUserId));
  return owner;
}

/** Sharing suspensions whose time is up, oldest first (at most 500). */
export function dueSuspensions(db: Database, now: Date): Promise<{ id: string }[]> {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.sharingSuspendedUntil), lte(users.sharingSuspendedUntil, now)))
    .orderBy(asc(users.sharingSuspendedUntil))
    .limit(500);
}

/**
 * Clears an ended suspension; false when a replica got there first or a new suspension was
 * written meanwhile (guarded by the time).
 */
export async function clearSuspension(db: Database, userId: string, now: Date): Promise<boolean> {
  const cleared = await db
    .update(users)
    .set({ sharingSuspendedUntil: null, updatedAt: now })
    .where(and(eq(users.id, userId), lte(users.sharingSuspendedUntil, now)))
    .returning({ id: users.id });
  return cleared.length > 0;
}

/**
 * The members `expiry_check` looks at: role user, linked, `expires_at` passed, `media_disabled`
 * false; `waiting` when a pending access row in the retry queue already has them.
 */
export function expiredEnabledMembers(
  db: Database,
  now: Date,
): Promise<{ id: string; waiting: boolean }[]> {
  return queryRows<{ id: string; waiting: boolean }>(
    db,
    sql`
    select u.id, exists (
        select 1 from media_server_retry_queue q
        where q.media_user_id = u.media_user_id and q.status = 'pending'
          and q.operation in ('enable', 'disable')
      ) as waiting
    from users u
    where u.role = 'user' and u.media_disabled = false and u.media_user_id is not null
      and u.expires_at is not null and u.expires_at <= ${now.toISOString()}
    order by u.expires_at, u.id`,
  );
}

/** How many linked members there are (the template apply's total). */
export async function countLinkedMembers(db: Database): Promise<number> {
  const [count] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from users where role = 'user' and media_user_id is not null`,
  );
  return Number(count?.n ?? 0);
}

/** The next `limit` linked members by id after `after` (keyset paging). */
export function linkedMembersAfter(
  db: Database,
  after: string | null,
  limit: number,
): Promise<{ id: string }[]> {
  return queryRows<{ id: string }>(
    db,
    sql`select id from users
        where role = 'user' and media_user_id is not null
          ${after === null ? sql`` : sql`and id > ${after}`}
        order by id limit ${limit}`,
  );
}

// --- media_server_retry_queue ----------------------------------------------------------------

/**
 * `insert into media_server_retry_queue` of one pending row, first attempt `FIRST_RETRY_MS`
 * from now; the caller adds its `on conflict` clause (one pending row per media user and kind).
 */
export function pendingRetryInsert(row: {
  operation: 'enable' | 'disable' | 'policy' | 'delete';
  mediaUserId: string;
  userId: string | null;
  origin: RetryOrigin;
  error: string;
}): SQL {
  return sql`insert into media_server_retry_queue
      (id, operation, media_user_id, user_id, origin, status, attempts, next_attempt_at,
       last_error, created_at, updated_at)
    values (${uuidv7()}, ${row.operation}, ${row.mediaUserId}, ${row.userId}, ${row.origin},
      'pending', 0, now() + make_interval(secs => ${FIRST_RETRY_MS / 1000}),
      ${row.error.slice(0, 500)}, now(), now())`;
}

/** Queues (or replaces) the member's pending access change (one per media user). */
export async function queueAccessRetry(
  tx: Tx,
  write: { userId: string; mediaUserId: string; disabled: boolean; origin: RetryOrigin },
  error: string,
): Promise<void> {
  await tx.execute(sql`
    ${pendingRetryInsert({
      operation: write.disabled ? 'disable' : 'enable',
      mediaUserId: write.mediaUserId,
      userId: write.userId,
      origin: write.origin,
      error,
    })}
    on conflict (media_user_id) where status = 'pending' and operation in ('enable', 'disable')
    do update set operation = excluded.operation, origin = excluded.origin, attempts = 0,
      next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error,
      updated_at = now()`);
}

/** Queues (or re-arms) the member's pending template write (one `policy` row per media user). */
export async function queuePolicyRetry(
  tx: Tx,
  write: { userId: string; mediaUserId: string },
  error: string,
): Promise<void> {
  await tx.execute(sql`
    ${pendingRetryInsert({
      operation: 'policy',
      mediaUserId: write.mediaUserId,
      userId: write.userId,
      origin: 'policy_apply',
      error,
    })}
    on conflict (media_user_id) where status = 'pending' and operation = 'policy'
    do update set user_id = excluded.user_id, attempts = 0,
      next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error,
      updated_at = now()`);
}

/** A pending `delete` row (origin `register_cleanup`): a media user no account should keep. */
export async function insertDeleteRetry(
  db: Database,
  mediaUserId: string,
  reason: string,
): Promise<void> {
  await db.execute(
    pendingRetryInsert({
      operation: 'delete',
      mediaUserId,
      userId: null,
      origin: 'register_cleanup',
      error: reason,
    }),
  );
}

/** Completes the media user's pending access and template rows: `note` says what did it. */
export async function supersedeRetries(tx: Tx, mediaUserId: string, note: string): Promise<void> {
  await tx
    .update(mediaServerRetryQueue)
    .set({ status: 'done', lastError: note, updatedAt: sql`now()` })
    .where(
      and(
        eq(mediaServerRetryQueue.mediaUserId, mediaUserId),
        eq(mediaServerRetryQueue.status, 'pending'),
        inArray(mediaServerRetryQueue.operation, ['enable', 'disable', 'policy']),
      ),
    );
}

/** Marks a row done: with one more attempt when a call was made, else with `note`. */
export async function finishRetry(tx: Tx, row: RetryRow, note: string | null): Promise<void> {
  await tx
    .update(mediaServerRetryQueue)
    .set({
      status: 'done',
      ...(note === null ? { attempts: row.attempts + 1 } : { lastError: note }),
      updatedAt: sql`now()`,
    })
    .where(eq(mediaServerRetryQueue.id, row.id));
}

/** The row's last attempt failed: it gives up. */
export async function giveUpRetry(
  tx: Tx,
  id: string,
  attempts: number,
  message: string,
): Promise<void> {
  await tx
    .update(mediaServerRetryQueue)
    .set({ status: 'gave_up', attempts, lastError: message, updatedAt: sql`now()` })
    .where(eq(mediaServerRetryQueue.id, id));
}

/** A failed attempt: the next one `delaySeconds` from now. */
export async function rescheduleRetry(
  tx: Tx,
  id: string,
  attempts: number,
  message: string,
  delaySeconds: number,
): Promise<void> {
  await tx
    .update(mediaServerRetryQueue)
    .set({
      attempts,
      lastError: message,
      nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})`,
      updatedAt: sql`now()`,
    })
    .where(eq(mediaServerRetryQueue.id, id));
}

/** The row locked, if it is still pending. */
export async function lockPendingRetry(tx: Tx, id: string): Promise<RetryRow | null> {
  const [fresh] = await tx
    .select()
    .from(mediaServerRetryQueue)
    .where(and(eq(mediaServerRetryQueue.id, id), eq(mediaServerRetryQueue.status, 'pending')))
    .for('update');
  return fresh ?? null;
}

/** The ids of up to `limit` pending rows that are due, oldest due first. */
export function dueRetryIds(db: Database, limit: number): Promise<{ id: string }[]> {
  return queryRows<{ id: string }>(
    db,
    sql`select id from media_server_retry_queue
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at, id limit ${limit}`,
  );
}

export async function findRetry(db: Database, id: string): Promise<RetryRow | undefined> {
  const [row] = await db
    .select()
    .from(mediaServerRetryQueue)
    .where(eq(mediaServerRetryQueue.id, id));
  return row;
}
