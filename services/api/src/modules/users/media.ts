// Media-server helpers shared by the admin user actions: error mapping, the member policy
// template, and the forced sync behind `POST /admin/users/:id/media-sync`.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { mediaServerRetryQueue, users, type UserRow } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { ModuleContext } from '../context.js';
import type { Tx } from '../../db/client.js';
import { isExpired, readMemberPolicy } from '../membership/index.js';
import { findUser, userNotFound } from './queries.js';
import { withTransaction } from '../../db/transaction.js';

/** Whether the member's media account is managed by Usher; refuses the others. */
export function assertManagedMedia(row: UserRow): string {
  if (row.role !== 'user') {
    throw new AppError(
      'ACCOUNT_NOT_RENEWABLE',
      "An administrator's media-server account is never managed by Usher",
    );
  }
  if (!row.mediaUserId) {
    throw new AppError('MEDIA_ACCOUNT_UNLINKED', 'This account has no media-server account');
  }
  return row.mediaUserId;
}

/** Takes the per-user media lock (10-data.md §10) for the rest of the transaction. */
export async function lockMediaAccess(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`media-access:${userId}`}))`);
}

/**
 * Access sync now, bypassing the retry queue (20-api.md §6 media-sync): under the per-user media
 * lock, write the desired state (and with `policy`, the whole member template) to the media
 * server even when the cache says it is already there — the server may have drifted (a Jellyfin
 * lockout, a manual edit). A failed call answers 502 and changes nothing here; success stores
 * `media_disabled` and retires the pending access row of the queue, which it supersedes.
 * `within` runs in the same transaction (the audit row).
 */
export async function forceMediaSync(
  ctx: ModuleContext,
  userId: string,
  policy: boolean,
  within: (tx: Tx, row: UserRow, disabled: boolean) => Promise<void>,
): Promise<UserRow> {
  return withTransaction(ctx, async (tx) => {
    // Same order as access sync (advisory lock, then the row), so the two never deadlock.
    await findUser(tx, userId);
    await lockMediaAccess(tx, userId);
    const [row] = await tx.select().from(users).where(eq(users.id, userId));
    if (!row) throw userNotFound();
    const mediaUserId = assertManagedMedia(row);
    const disabled = isExpired(row, ctx.now()) || row.mediaAccessDisabled;
    if (policy) {
      const server = await ctx.integrations.mediaServer.get();
      const template = await readMemberPolicy(ctx.settings.store);
      await server.updatePolicy(mediaUserId, { ...template, disabled });
    } else {
      await (await ctx.mediaAccess()).setDisabled(mediaUserId, disabled);
    }
    const [updated] = await tx
      .update(users)
      .set({ mediaDisabled: disabled, updatedAt: ctx.now() })
      .where(eq(users.id, userId))
      .returning();
    await tx
      .update(mediaServerRetryQueue)
      .set({ status: 'done', lastError: 'superseded by a manual sync', updatedAt: ctx.now() })
      .where(
        and(
          eq(mediaServerRetryQueue.mediaUserId, mediaUserId),
          eq(mediaServerRetryQueue.status, 'pending'),
          inArray(mediaServerRetryQueue.operation, ['enable', 'disable']),
        ),
      );
    await within(tx, updated!, disabled);
    return updated!;
  });
}
