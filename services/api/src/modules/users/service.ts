// Admin actions on accounts (20-api.md §6 "Users"). Each checks the rules, writes its change and
// its audit row in one transaction, and runs media access sync (§8.2) after the commit.
import type {
  AdminUser,
  AdminUserDetail,
  MediaSyncOutcome,
  UpdateAdminUserRequest,
} from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from '../../audit-log/audit.js';
import { generatePassword, hashPassword } from '../../security/passwords.js';
import { type UserRow } from '../../db/schema/index.js';
import type { AuthContext } from '../../http/context.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Tx } from '../../db/client.js';
import { lockForRenewal, writeExtension } from '../membership/index.js';
import { toAdminUser } from './dto.js';
import { assertManagedMedia, forceMediaSync } from './media.js';
import {
  deleteUserRow,
  emailTaken,
  expirePendingPayments,
  findUser,
  lockAdminSet,
  lockUser,
  otherActiveAdmins,
  queueMediaDelete,
  settleMediaDelete,
  tableExists,
  updateUserRow,
  userCounts,
} from './queries.js';
import { withTransaction } from '../../db/transaction.js';

const audit = (
  tx: Tx,
  { actor, meta }: Caller,
  action: string,
  userId: string,
  details: Record<string, unknown>,
) =>
  recordAudit(tx, {
    actor,
    action,
    target: { type: 'user', id: userId },
    details,
    ...meta,
  });

const iso = (d: Date | null) => d?.toISOString() ?? null;

const emailTakenError = () =>
  new AppError('EMAIL_TAKEN', 'Another account already uses this email');

async function assertNotLastAdmin(tx: Tx, row: UserRow): Promise<void> {
  if (row.role !== 'admin' || !row.isActive) return;
  if ((await otherActiveAdmins(tx, row.id)) === 0) {
    throw new AppError('LAST_ADMIN', 'At least one active administrator must remain');
  }
}

function assertNotSelf(auth: AuthContext, id: string, what: string): void {
  if (auth.userId === id) {
    throw new AppError('CANNOT_MODIFY_SELF', `You cannot ${what} your own account`);
  }
}

async function reload(ctx: ModuleContext, id: string): Promise<AdminUser> {
  return toAdminUser(await findUser(ctx.db, id), ctx.now());
}

export async function userDetail(ctx: ModuleContext, id: string): Promise<AdminUserDetail> {
  const row = await findUser(ctx.db, id);
  return { ...toAdminUser(row, ctx.now()), counts: await userCounts(ctx.db, row.id) };
}

/**
 * `PATCH /admin/users/:id`. A role change revokes the target's tokens; promotion clears the
 * expiry and leaves the media account alone from then on; an expiry change re-syncs media access.
 */
export async function updateUser(
  ctx: ModuleContext,
  id: string,
  patch: UpdateAdminUserRequest,
  caller: Caller,
): Promise<AdminUser> {
  await findUser(ctx.db, id);
  const now = ctx.now();
  const { syncNeeded } = await withTransaction(ctx, async (tx) => {
    if (patch.role !== undefined) await lockAdminSet(tx);
    const row = await lockUser(tx, id);
    const set: Partial<UserRow> = {};
    const role = patch.role ?? row.role;
    if (patch.role !== undefined && patch.role !== row.role) {
      assertNotSelf(caller.auth, id, 'change the role of');
      if (patch.role === 'user') await assertNotLastAdmin(tx, row);
      set.role = patch.role;
    }
    if (patch.email !== undefined && patch.email !== row.email) {
      if (patch.email !== null) {
        if (await emailTaken(tx, patch.email, id)) throw emailTakenError();
      }
      set.email = patch.email;
    }
    if (role === 'admin') {
      if (patch.expiresAt !== undefined) {
        throw new AppError('VALIDATION_FAILED', 'The request is not valid', {
          details: [{ path: 'expiresAt', message: 'Administrators never expire' }],
        });
      }
      if (row.expiresAt !== null) set.expiresAt = null;
    } else if (patch.expiresAt !== undefined || patch.neverExpires) {
      const next = patch.expiresAt ? new Date(patch.expiresAt) : null;
      if (next?.getTime() !== row.expiresAt?.getTime()) set.expiresAt = next;
    }
    if (Object.keys(set).length === 0) return { syncNeeded: false };
    const roleChanged = set.role !== undefined;
    const updated = await updateUserRow(tx, id, set, { now, revokeTokens: roleChanged }).catch(
      (err: unknown) => {
        // The pre-check above can lose a race with a concurrent write of the same address.
        throw isUniqueViolation(err, 'users_email_uq') ? emailTakenError() : err;
      },
    );
    const before = Object.fromEntries(
      Object.keys(set).map((k) => [k, (row as Record<string, unknown>)[k]]),
    );
    await audit(tx, caller, 'user.update', id, { before, after: set });
    // Demotion hands the media account to Usher; an expiry change moves the desired state.
    return { syncNeeded: updated!.role === 'user' && (roleChanged || 'expiresAt' in set) };
  });
  if (syncNeeded) await ctx.accessSync(id, 'admin_access');
  return reload(ctx, id);
}

/** `POST /admin/users/:id/extend`: the shared renewal routine (§8.2). */
export async function extendUser(ctx: ModuleContext, id: string, days: number, caller: Caller) {
  await findUser(ctx.db, id);
  const extension = await withTransaction(ctx, async (tx) => {
    const row = await lockForRenewal(tx, id);
    const result = await writeExtension(tx, row, days, ctx.now());
    await audit(tx, caller, 'user.extend', id, {
      days,
      previousExpiresAt: iso(result.previousExpiresAt),
      expiresAt: result.expiresAt.toISOString(),
    });
    return result;
  });
  const mediaSync = await ctx.accessSync(id, 'renewal');
  return {
    user: await reload(ctx, id),
    previousExpiresAt: iso(extension.previousExpiresAt),
    expiresAt: extension.expiresAt.toISOString(),
    mediaSync,
  };
}

/** `PUT /admin/users/:id/active`: the web-login switch; switching off revokes every token. */
export async function setActive(
  ctx: ModuleContext,
  id: string,
  isActive: boolean,
  caller: Caller,
): Promise<AdminUser> {
  await findUser(ctx.db, id);
  assertNotSelf(caller.auth, id, isActive ? 'activate' : 'deactivate');
  await withTransaction(ctx, async (tx) => {
    await lockAdminSet(tx);
    const row = await lockUser(tx, id);
    if (!isActive) await assertNotLastAdmin(tx, row);
    await updateUserRow(tx, id, { isActive }, { now: ctx.now(), revokeTokens: !isActive });
    await audit(tx, caller, isActive ? 'user.activate' : 'user.deactivate', id, {
      before: { isActive: row.isActive },
      after: { isActive },
    });
  });
  return reload(ctx, id);
}

/** `PUT /admin/users/:id/media-access`: the admin switch, independent of the expiry. */
export async function setMediaAccess(
  ctx: ModuleContext,
  id: string,
  enabled: boolean,
  caller: Caller,
): Promise<{ user: AdminUser; mediaSync: MediaSyncOutcome }> {
  await findUser(ctx.db, id);
  await withTransaction(ctx, async (tx) => {
    const row = await lockUser(tx, id);
    assertManagedMedia(row);
    await updateUserRow(tx, id, { mediaAccessDisabled: !enabled }, { now: ctx.now() });
    await audit(tx, caller, 'user.media_access', id, {
      before: { mediaAccessDisabled: row.mediaAccessDisabled },
      after: { mediaAccessDisabled: !enabled },
    });
  });
  const mediaSync = await ctx.accessSync(id, 'admin_access');
  return { user: await reload(ctx, id), mediaSync };
}

/** `POST /admin/users/:id/media-sync`: write the state now (and the template with `policy`). */
export async function syncMediaNow(
  ctx: ModuleContext,
  id: string,
  policy: boolean,
  caller: Caller,
): Promise<{ user: AdminUser; mediaSync: MediaSyncOutcome }> {
  // A malformed id is not found (20-api.md §1.1), before the media lock queries by it.
  await findUser(ctx.db, id);
  const { row, mediaSync } = await forceMediaSync(ctx, id, policy, (tx, updated, disabled) =>
    audit(tx, caller, 'user.media_sync', updated.id, { policy, disabled }),
  );
  return { user: toAdminUser(row, ctx.now()), mediaSync };
}

/**
 * `POST /admin/users/:id/reset-password` (§8.3): a member's media-server password is set first,
 * and when that fails nothing local changes; then the hash, token_version+1.
 */
export async function resetPassword(
  ctx: ModuleContext,
  id: string,
  input: { newPassword?: string; requireChange: boolean },
  caller: Caller,
): Promise<{ generatedPassword?: string }> {
  const row = await findUser(ctx.db, id);
  const password = input.newPassword ?? generatePassword();
  const mediaUserId = row.role === 'user' ? row.mediaUserId : null;
  if (mediaUserId) {
    await (await ctx.integrations.mediaServer.get()).setPassword(mediaUserId, password);
  }
  const passwordHash = await hashPassword(password);
  await withTransaction(ctx, async (tx) => {
    await updateUserRow(
      tx,
      id,
      { passwordHash, hasPassword: true, mustChangePassword: input.requireChange },
      { now: ctx.now(), revokeTokens: true },
    );
    await audit(tx, caller, 'user.password_reset', id, {
      generated: input.newPassword === undefined,
      requireChange: input.requireChange,
      mediaServer: mediaUserId !== null,
    });
  });
  return input.newPassword === undefined ? { generatedPassword: password } : {};
}

/**
 * `DELETE /admin/users/:id`. The local delete commits together with a pending `delete` row for
 * the member's media account, so a crash or a media-server failure never leaves an orphan; the
 * immediate call then either completes the row (`deleted`) or leaves it to the worker (`queued`).
 */
export async function deleteUser(
  ctx: ModuleContext,
  id: string,
  caller: Caller,
): Promise<{ mediaCleanup: 'deleted' | 'queued' | 'none' }> {
  await findUser(ctx.db, id);
  assertNotSelf(caller.auth, id, 'delete');
  const now = ctx.now();
  const cleanup = await withTransaction(ctx, async (tx) => {
    await lockAdminSet(tx);
    const row = await lockUser(tx, id);
    await assertNotLastAdmin(tx, row);
    let expiredPayments = 0;
    if (await tableExists(tx, 'payments')) {
      expiredPayments = await expirePendingPayments(tx, id);
    }
    let queued: { id: string; mediaUserId: string } | null = null;
    if (row.role === 'user' && row.mediaUserId) {
      queued = { id: uuidv7(), mediaUserId: row.mediaUserId };
      await queueMediaDelete(tx, { ...queued, userId: null, origin: 'user_delete', now });
    }
    await deleteUserRow(tx, id);
    await audit(tx, caller, 'user.delete', id, {
      username: row.username,
      role: row.role,
      mediaUserId: row.mediaUserId,
      expiredPayments,
    });
    return queued;
  });
  if (!cleanup) return { mediaCleanup: 'none' };
  try {
    await (await ctx.integrations.mediaServer.get()).deleteUser(cleanup.mediaUserId);
  } catch (err) {
    // Any failure (down, not configured, refused) leaves the committed row to the retry worker.
    await settleMediaDelete(
      ctx.db,
      cleanup.id,
      { error: String((err as Error).message) },
      ctx.now(),
    );
    ctx.logger.warn(
      { userId: id, err: (err as Error).message },
      'media-server user delete failed; queued for retry',
    );
    return { mediaCleanup: 'queued' };
  }
  await settleMediaDelete(ctx.db, cleanup.id, { done: true, attempts: 0 }, ctx.now());
  return { mediaCleanup: 'deleted' };
}
