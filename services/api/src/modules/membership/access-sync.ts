import type { MediaSyncOutcome } from '@usher/contracts';
import type { Logger } from 'pino';
import type { Database, Tx } from '../../db/client.js';
import type { UserRow } from '../../db/schema/index.js';
import { findUser, queueAccessRetry, setMediaDisabled, takeMediaLock } from './queries.js';
import { isExpired } from './state.js';
import { inTransaction, withTransaction } from '../../db/transaction.js';

// Defined below the modules (the adapter's port, the table's constants) so `modules/context.ts`
// can name them without importing a module.
import type { MediaAccessWriter } from '../../integrations/media-server/port.js';
import type { RetryOrigin } from '../../db/schema/retry-queue/constants.js';
export type { MediaAccessWriter, RetryOrigin };

/**
 * Media-server writes one sync makes at most before it hands the member to the retry queue: a
 * new round is needed only when the membership changed during the previous call.
 */
export const MAX_WRITE_ROUNDS = 5;

/**
 * Runs `fn` in a short transaction holding the per-user media lock (10-data.md §10). Never call
 * the media server inside `fn`: the lock and a pool connection would be held for as long as the
 * server takes to answer.
 *
 * Refuses an open transaction as `db`: joining it would keep the lock (and the caller's
 * transaction) until that transaction ends — across the media-server call its caller makes
 * between two of these — so the caller must pass the database itself.
 */
export async function withMediaLock<T>(
  db: Database,
  userId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (inTransaction(db)) {
    throw new Error(
      'withMediaLock was handed an open transaction: media-server writes run between short ' +
        'transactions of their own, so call it with the database, outside any transaction ' +
        '(docs/architecture.md, "Media access sync")',
    );
  }
  return withTransaction(db, async (tx) => {
    await takeMediaLock(tx, userId);
    return fn(tx);
  });
}

/**
 * The state the member's media account must have: off when expired, switched off by an admin, or
 * suspended for account sharing until a time still ahead (docs/sharing.md).
 */
export function desiredDisabled(row: UserRow, now: Date): boolean {
  const suspended =
    row.sharingSuspendedUntil !== null && row.sharingSuspendedUntil.getTime() > now.getTime();
  return isExpired(row, now) || row.mediaAccessDisabled || suspended;
}

/** Usher manages the media accounts of linked members only (never an admin's). */
export function managed(row: UserRow | undefined, mediaUserId?: string): row is UserRow {
  return (
    !!row &&
    row.role === 'user' &&
    row.mediaUserId !== null &&
    (mediaUserId === undefined || row.mediaUserId === mediaUserId)
  );
}

/** One media-server write: whose, which state, and `media_disabled` before it was declared. */
export interface MediaWrite {
  userId: string;
  mediaUserId: string;
  disabled: boolean;
  before: boolean;
}

/**
 * Under the lock: declares the write about to be made by storing its state in `media_disabled`
 * before the call, so a concurrent sync (another replica's expiry run) finds nothing to do
 * instead of repeating it, and one wanting the other state sees that it must write.
 */
export async function declareWrite(
  tx: Tx,
  row: UserRow,
  disabled: boolean,
  now: Date,
): Promise<MediaWrite> {
  if (row.mediaDisabled !== disabled) {
    await setMediaDisabled(tx, row.id, disabled, now);
  }
  return { userId: row.id, mediaUserId: row.mediaUserId!, disabled, before: row.mediaDisabled };
}

/**
 * The `failed` reason when the membership changed during every one of `MAX_WRITE_ROUNDS` calls
 * (no call failed): the retry queue takes the state desired now.
 */
export class MembershipKeptChanging extends Error {
  constructor() {
    super('the membership kept changing during media-server calls');
    this.name = 'MembershipKeptChanging';
  }
}

/** What the caller does, under the lock, once the writes end. */
export interface SettleHooks<T> {
  /** The last write stands: the media account matches the membership as committed now. */
  settled(tx: Tx): Promise<T>;
  /** The member is gone, unlinked, relinked or promoted meanwhile: nothing left to manage. */
  gone(tx: Tx): Promise<T>;
  /**
   * The call failed (`err` is its error), or the membership kept changing (`err` is a
   * `MembershipKeptChanging`): `desired` is the state to retry.
   */
  failed(tx: Tx, desired: boolean, err: Error): Promise<T>;
}

/**
 * Writes a declared state to the media server with no transaction open, then re-checks under
 * the lock: the write stands only when `media_disabled` still holds its state (no other write
 * was declared while it travelled) and the membership still wants it. Otherwise another write
 * may have reached the server first, or the member was renewed or expired meanwhile, so the
 * current desired state is declared and written again — the last committed membership wins.
 * A failed call undoes its own declaration (unless another was made since) and goes to `failed`.
 */
export async function writeUntilSettled<T>(
  db: Database,
  writer: () => Promise<MediaAccessWriter>,
  first: MediaWrite,
  deps: { now: () => Date },
  hooks: SettleHooks<T>,
): Promise<T> {
  let write = first;
  for (let round = 1; ; round += 1) {
    let error: Error | null = null;
    try {
      await (await writer()).setDisabled(write.mediaUserId, write.disabled);
    } catch (err) {
      // Any failure of the outbound call (not configured, down, refused, timed out) is handed
      // to the caller's bookkeeping below; the member's own change has already committed.
      error = err instanceof Error ? err : new Error(String(err));
    }
    const current = write;
    const next = await withMediaLock(
      db,
      current.userId,
      async (tx): Promise<{ done: T } | { write: MediaWrite }> => {
        const row = await findUser(tx, current.userId);
        // A failed call withdraws its declaration (unless another write was declared since):
        // `media_disabled` keeps meaning what Usher last wrote, and the retry queue takes over.
        if (
          error &&
          row &&
          row.mediaDisabled === current.disabled &&
          current.before !== current.disabled
        ) {
          await setMediaDisabled(tx, row.id, current.before, deps.now());
        }
        if (!managed(row, current.mediaUserId)) return { done: await hooks.gone(tx) };
        const desired = desiredDisabled(row, deps.now());
        if (error) return { done: await hooks.failed(tx, desired, error) };
        if (row.mediaDisabled === current.disabled && desired === current.disabled) {
          return { done: await hooks.settled(tx) };
        }
        if (round >= MAX_WRITE_ROUNDS) {
          return { done: await hooks.failed(tx, desired, new MembershipKeptChanging()) };
        }
        return { write: await declareWrite(tx, row, desired, deps.now()) };
      },
    );
    if ('done' in next) return next.done;
    write = next.write;
  }
}

/**
 * Makes the media account follow the membership (20-api.md §8.2) without holding a database
 * connection while the media server answers (docs/architecture.md, "Media access sync"):
 *
 * 1. under the per-user advisory lock, re-read the row, compute desired = expired or switched off
 *    by an admin; when it equals `media_disabled` answer `none`, else declare the write (store it
 *    in `media_disabled`) and commit;
 * 2. call the media server with no transaction open;
 * 3. under the lock again, re-check (`writeUntilSettled`): the write stands only if no other
 *    write was declared meanwhile and the membership still wants it; otherwise write the current
 *    desired state again. So a stale disable from an expiry run that lands after a renewal is
 *    followed by an enable: the last committed membership state wins.
 *
 * A failed call restores `media_disabled` and queues a retry of the state desired at that point.
 * Admins' media accounts are never touched.
 */
export async function syncMediaAccess(
  db: Database,
  writer: () => Promise<MediaAccessWriter>,
  userId: string,
  origin: RetryOrigin,
  deps: { logger: Logger; now: () => Date },
): Promise<MediaSyncOutcome> {
  const first = await withMediaLock(db, userId, async (tx) => {
    const row = await findUser(tx, userId);
    if (!managed(row)) return null;
    const desired = desiredDisabled(row, deps.now());
    if (desired === row.mediaDisabled) return null;
    return declareWrite(tx, row, desired, deps.now());
  });
  if (!first) return 'none';
  return writeUntilSettled<MediaSyncOutcome>(db, writer, first, deps, {
    settled: async () => 'applied',
    gone: async () => 'none',
    failed: async (tx, desired, err) => {
      deps.logger.warn(
        { err: err.message, userId, desired },
        'media access change failed; queued for retry',
      );
      await queueAccessRetry(
        tx,
        { userId, mediaUserId: first.mediaUserId, disabled: desired, origin },
        err.message,
      );
      return 'queued';
    },
  });
}
