// Admin self-binding (20-api.md §6 "Self and media server"): an administrator links their Usher
// account to an existing media-server user found by name. Usher never manages a bound account.
import type { AdminUser } from '@usher/contracts';
import { recordAudit } from '../../audit-log/audit.js';
import { isGuid, normaliseId } from '../../integrations/media-server/port.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import { toAdminUser } from './dto.js';
import { findUser, ownersOfMediaUsers, updateUserRow } from './queries.js';
import { isUniqueViolation } from '../../db/errors.js';
import { withTransaction } from '../../db/transaction.js';

/** Live search of the media server's users by name (contains, any case); not paginated. */
export async function searchMediaUsers(
  ctx: ModuleContext,
  query: { query: string; limit: number },
) {
  const all = await (await ctx.integrations.mediaServer.get()).listUsers();
  const wanted = query.query.toLowerCase();
  const hits = all
    .filter((u) => u.name.toLowerCase().includes(wanted))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, query.limit);
  const ids = hits.map((u) => normaliseId(u.id));
  const bound = ids.length ? await ownersOfMediaUsers(ctx.db, ids) : [];
  const byMedia = new Map(bound.map((b) => [b.mediaUserId, b]));
  return {
    data: hits.map((u) => {
      const owner = byMedia.get(normaliseId(u.id));
      return {
        mediaUserId: normaliseId(u.id),
        name: u.name,
        isAdministrator: u.isAdministrator,
        isDisabled: u.disabled,
        ...(owner ? { boundTo: { userId: owner.id, username: owner.username } } : {}),
        available: !owner,
      };
    }),
  };
}

/** Libraries members can be given (boxsets and playlists dropped); live, not paginated. */
export async function listLibraries(ctx: ModuleContext) {
  const libraries = await (await ctx.integrations.mediaServer.get()).libraries();
  return {
    data: libraries
      .filter((l) => l.grantable)
      .map((l) => ({ id: l.id, name: l.name, collectionType: l.collectionType ?? null })),
  };
}

const alreadyBound = (username: string) =>
  new AppError('MEDIA_USER_ALREADY_BOUND', `This media-server user is linked to ${username}`, {
    details: { username },
  });

/** `PUT /admin/current/media-binding`: link the signed-in admin to a media-server user. */
export async function bindCurrentAdmin(
  ctx: ModuleContext,
  rawId: string,
  caller: Caller,
): Promise<AdminUser> {
  const { auth, meta } = caller;
  // Both servers' user ids are GUIDs (Emby 32-hex, Jellyfin with or without dashes).
  const mediaUser = isGuid(rawId)
    ? await (await ctx.integrations.mediaServer.get()).getUser(normaliseId(rawId))
    : null;
  if (!mediaUser) {
    throw new AppError('MEDIA_USER_NOT_FOUND', 'The media server has no such user');
  }
  const mediaUserId = normaliseId(mediaUser.id);
  const row = await withTransaction(ctx, async (tx) => {
    const [owner] = await ownersOfMediaUsers(tx, [mediaUserId]);
    if (owner && owner.id !== auth.userId) throw alreadyBound(owner.username);
    const current = await findUser(tx, auth.userId);
    const updated = await updateUserRow(
      tx,
      auth.userId,
      { mediaUserId, mediaDisabled: false },
      { now: ctx.now() },
    ).catch((err: unknown) => {
      // Two admins binding the same media user at once: the unique index decides.
      throw isUniqueViolation(err, 'users_media_user_id_uq')
        ? alreadyBound('another account')
        : err;
    });
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'admin.media_bind',
      target: { type: 'user', id: auth.userId },
      details: { before: current.mediaUserId, after: mediaUserId, name: mediaUser.name },
      ...meta,
    });
    return updated;
  });
  return toAdminUser(row, ctx.now());
}

/** `DELETE /admin/current/media-binding`: clears the local link only. */
export async function unbindCurrentAdmin(ctx: ModuleContext, caller: Caller): Promise<void> {
  const { auth, meta } = caller;
  await withTransaction(ctx, async (tx) => {
    const current = await findUser(tx, auth.userId);
    if (!current.mediaUserId) return;
    await updateUserRow(
      tx,
      auth.userId,
      { mediaUserId: null, mediaDisabled: false },
      { now: ctx.now() },
    );
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'admin.media_unbind',
      target: { type: 'user', id: auth.userId },
      details: { before: current.mediaUserId },
      ...meta,
    });
  });
}
