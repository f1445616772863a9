import type { MediaSyncOutcome } from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { isExpired } from './state.js';

/** What access sync needs from the media server: switch an account's `IsDisabled`. */
export interface MediaAccessWriter {
  setDisabled(mediaUserId: string, disabled: boolean): Promise<void>;
}

export type RetryOrigin =
  'register_cleanup' | 'renewal' | 'expiry' | 'admin_access' | 'user_delete';

/** First retry 30 s after the failure (10-data.md §9). */
export const FIRST_RETRY_MS = 30_000;

/**
 * Makes the media account follow the membership (20-api.md §8.2): under the per-user advisory
 * lock, re-read the row, compute desired = expired or switched off by an admin, and when it
 * differs from what Usher last wrote, write it to the media server, then store it. A failed call
 * leaves `media_disabled` unchanged and queues a retry, so a stale disable can never overwrite a
 * fresh renewal. Admins' media accounts are never touched.
 */
export async function syncMediaAccess(
  db: Database,
  writer: () => Promise<MediaAccessWriter>,
  userId: string,
  origin: RetryOrigin,
  deps: { logger: Logger; now: () => Date },
): Promise<MediaSyncOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`media-access:${userId}`}))`);
    const [row] = await tx.select().from(users).where(eq(users.id, userId));
    if (!row || !row.mediaUserId || row.role !== 'user') return 'none';
    const desired = isExpired(row, deps.now()) || row.mediaAccessDisabled;
    if (desired === row.mediaDisabled) return 'none';
    try {
      await (await writer()).setDisabled(row.mediaUserId, desired);
    } catch (err) {
      // Any failure of the outbound call (not configured, down, refused) becomes a queued retry;
      // the member's own operation (renewal, admin switch) has already committed.
      deps.logger.warn(
        { err: (err as Error).message, userId, desired },
        'media access change failed; queued for retry',
      );
      await tx.execute(sql`
        insert into media_server_retry_queue
          (id, operation, media_user_id, user_id, origin, status, attempts, next_attempt_at,
           last_error, created_at, updated_at)
        values (${uuidv7()}, ${desired ? 'disable' : 'enable'}, ${row.mediaUserId}, ${row.id},
          ${origin}, 'pending', 0, now() + make_interval(secs => ${FIRST_RETRY_MS / 1000}),
          ${(err as Error).message.slice(0, 500)}, now(), now())
        on conflict (media_user_id) where status = 'pending' and operation in ('enable', 'disable')
        do update set operation = excluded.operation, origin = excluded.origin, attempts = 0,
          next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error,
          updated_at = now()`);
      return 'queued';
    }
    await tx
      .update(users)
      .set({ mediaDisabled: desired, updatedAt: deps.now() })
      .where(eq(users.id, row.id));
    return 'applied';
  });
}
