// The `delete` rows a member's removal queues for the media account (users' delete, the grace
// period): written with the change that removes the link, then settled by the immediate call —
// `done`, or its error left for the retry worker (10-data.md §9).
import { eq } from 'drizzle-orm';
import type { Database } from './client.js';
import { mediaServerRetryQueue } from './schema/index.js';
import type { RetryOrigin } from './schema/retry-queue/constants.js';

type Writer = Pick<Database, 'insert' | 'update'>;

/** A pending `delete` row whose first retry is 30 s after `now`. */
export async function queueMediaDelete(
  tx: Writer,
  row: { id: string; mediaUserId: string; userId: string | null; origin: RetryOrigin; now: Date },
): Promise<void> {
  await tx.insert(mediaServerRetryQueue).values({
    id: row.id,
    operation: 'delete',
    mediaUserId: row.mediaUserId,
    userId: row.userId,
    origin: row.origin,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: new Date(row.now.getTime() + 30_000),
  });
}

/** What the immediate call came to: `done` (with `attempts` when given), or its error. */
export async function settleMediaDelete(
  db: Writer,
  id: string,
  outcome: { done: true; attempts?: number } | { error: string },
  now: Date,
): Promise<void> {
  await db
    .update(mediaServerRetryQueue)
    .set(
      'done' in outcome
        ? {
            status: 'done',
            ...(outcome.attempts === undefined ? {} : { attempts: outcome.attempts }),
            updatedAt: now,
          }
        : { lastError: outcome.error.slice(0, 500), updatedAt: now },
    )
    .where(eq(mediaServerRetryQueue.id, id));
}
