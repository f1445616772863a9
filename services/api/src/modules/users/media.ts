// Media-server helpers shared by the admin user actions: error mapping, the member policy
// template, and the forced sync behind `POST /admin/users/:id/media-sync`.
import { type UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext } from '../context.js';
import type { Tx } from '../../db/client.js';
import {
  declareWrite,
  desiredDisabled,
  MembershipKeptChanging,
  memberPolicyWriter,
  queueAccessRetry,
  readMemberPolicy,
  withMediaLock,
  writeUntilSettled,
  type MediaAccessWriter,
} from '../membership/index.js';
import { supersedeMediaRetries, userNotFound, userRow } from './queries.js';

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

/** What a forced sync ends with: the row as committed, and whether its write stood. */
export interface ForcedSync {
  row: UserRow;
  /** `queued` only when the membership kept changing during every call (then the retry queue). */
  mediaSync: 'applied' | 'queued';
}

type SyncEnd = ForcedSync | { error: Error } | { gone: UserRow | null };

/**
 * Access sync now, bypassing the retry queue (20-api.md §6 media-sync): writes the desired state
 * (and with `policy`, the whole member template) to the media server even when the cache says it
 * is already there — the server may have drifted (a Jellyfin lockout, a manual edit).
 *
 * Same steps as access sync, so no connection is held while the server answers
 * (docs/architecture.md, "Media access sync"): under the per-user media lock, check the member
 * and declare the state in `media_disabled`, commit; call with no transaction open; then, under
 * the lock again, the write stands or the current desired state is written again
 * (`writeUntilSettled`). A failed call withdraws the declaration and is rethrown (502/503/422
 * by the global error handler), changing nothing here and queueing nothing. When the write
 * stands, the pending access row of the queue, which it supersedes, is retired and `within`
 * runs in that same transaction (the audit row).
 */
export async function forceMediaSync(
  ctx: ModuleContext,
  userId: string,
  policy: boolean,
  within: (tx: Tx, row: UserRow, disabled: boolean) => Promise<void>,
): Promise<ForcedSync> {
  const first = await withMediaLock(ctx.db, userId, async (tx) => {
    const row = await userRow(tx, userId);
    if (!row) throw userNotFound();
    assertManagedMedia(row);
    return declareWrite(tx, row, desiredDisabled(row, ctx.now()), ctx.now());
  });
  const writer: () => Promise<MediaAccessWriter> = policy
    ? async () =>
        memberPolicyWriter(
          await ctx.integrations.mediaServer.get(),
          await readMemberPolicy(ctx.settings.store),
        )
    : ctx.mediaAccess;
  const reread = (tx: Tx) => userRow(tx, userId);
  const end = await writeUntilSettled<SyncEnd>(ctx.db, writer, first, ctx, {
    settled: async (tx) => {
      const row = (await reread(tx))!;
      await supersedeMediaRetries(tx, first.mediaUserId, policy, ctx.now());
      await within(tx, row, row.mediaDisabled);
      return { row, mediaSync: 'applied' };
    },
    gone: async (tx) => ({ gone: (await reread(tx)) ?? null }),
    failed: async (tx, desired, err) => {
      if (!(err instanceof MembershipKeptChanging)) return { error: err };
      // Every call went through but the membership changed during each: as access sync does,
      // the retry queue writes the state desired now.
      await queueAccessRetry(
        tx,
        { userId, mediaUserId: first.mediaUserId, disabled: desired, origin: 'admin_access' },
        err.message,
      );
      const row = (await reread(tx))!;
      await within(tx, row, desired);
      return { row, mediaSync: 'queued' };
    },
  });
  if ('error' in end) throw end.error;
  if ('gone' in end) {
    // Deleted, unlinked or promoted while the call travelled: the reply a new request would get.
    if (!end.gone) throw userNotFound();
    assertManagedMedia(end.gone);
    throw new AppError(
      'CONFLICT',
      'The account was linked to another media-server account during the sync; try again',
    );
  }
  return end;
}
