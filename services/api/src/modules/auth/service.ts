import type { LoginRequest, LoginResponse, TokenResponse } from '@usher/contracts';
import { accountActor, recordAudit } from '../../audit-log/audit.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../security/passwords.js';
import { applyNewPassword, mediaServerAcceptsPassword } from '../accounts/index.js';
import type { UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { toUser } from '../users/index.js';
import { withTransaction } from '../../db/transaction.js';
import { passwordLoginAllowed, readSsoSettings } from '../../integrations/oidc/index.js';
import { findByLogin, findUser, recordLogin, revokeTokens } from './queries.js';

/**
 * Password login (20-api.md §4, §8.3). Every attempt is reserved from the per-account+IP lock
 * and the per-IP progressive delay before anything else and given back on success;
 * ACCOUNT_DISABLED is only revealed after a correct password.
 */
export async function login(
  ctx: ModuleContext,
  input: LoginRequest,
  meta: RequestMeta,
): Promise<LoginResponse> {
  const ip = meta.ip ?? 'unknown';
  const accountKey = `${input.username.toLowerCase()}_${ip}`;
  // Each attempt is taken from both limiters before the password is looked at (one atomic
  // upsert each), so a burst of parallel attempts cannot all pass a check made before any of
  // them was recorded (issue 16). A success gives the attempts back.
  await ctx.limiters.loginAccount.reserve(accountKey);
  try {
    await ctx.limiters.loginIp.reserve(ip);
  } catch (err) {
    await ctx.limiters.loginAccount.refund(accountKey);
    throw err;
  }

  const row = await findByLogin(ctx.db, input.username);
  // Verify against a dummy hash for unknown names, and consult the media server after every
  // failed check (a stand-in round trip when there is no linked account), so the failure costs
  // the same whether or not the name exists or has a media account.
  const ok = await verifyPassword(row?.passwordHash ?? (await dummyPasswordHash()), input.password);
  let newHash: string | null = null;
  if (!ok && (await mediaServerAcceptsPassword(ctx, row, input.password)) && row) {
    // The member changed the password on the media server: adopt it.
    newHash = await hashPassword(input.password);
  } else if (!row || !ok) {
    await recordAudit(ctx.db, {
      actor: row
        ? accountActor(row)
        : { type: 'user', id: null, label: input.username.slice(0, 64) },
      action: 'auth.login_failed',
      target: row ? { type: 'user', id: row.id } : undefined,
      ip: meta.ip,
      requestId: meta.requestId,
    });
    throw new AppError('INVALID_CREDENTIALS', 'Wrong username or password');
  }
  // The password was right: neither limiter counts this attempt as a failure.
  await ctx.limiters.loginIp.refund(ip);
  await ctx.limiters.loginAccount.reset(accountKey);
  if (!row.isActive) {
    throw new AppError('ACCOUNT_DISABLED', 'This account is disabled; contact the operator');
  }
  // Single sign-on only (`OIDC_PASSWORD_LOGIN=false`): told after a correct password, like a
  // disabled account, so the answer reveals nothing to someone guessing.
  if (!passwordLoginAllowed(await readSsoSettings(ctx.settings.store), row)) {
    throw new AppError(
      'PASSWORD_LOGIN_DISABLED',
      'Sign in with single sign-on; passwords are switched off here',
    );
  }

  const now = ctx.now();
  const updated = await withTransaction(ctx, async (tx) => {
    const result = await recordLogin(tx, row.id, now, newHash);
    await recordAudit(tx, {
      actor: accountActor(row),
      action: 'auth.login',
      target: { type: 'user', id: row.id },
      ...(newHash ? { details: { via: 'media_server' } } : {}),
      ip: meta.ip,
      requestId: meta.requestId,
    });
    return result;
  });
  const fresh = updated ?? row;
  return { ...(await ctx.tokens.session(fresh, now)), user: toUser(fresh, now) };
}

/** Logout; with `allDevices`, every token of the account stops working (token_version + 1). */
export async function logout(
  ctx: ModuleContext,
  userId: string,
  allDevices: boolean,
): Promise<void> {
  if (!allDevices) return; // Tokens are stateless: the client forgets this one.
  await revokeTokens(ctx.db, userId, ctx.now());
}

/**
 * Own password change (20-api.md §5, §8.3). Members with a linked media account get the
 * media-server password set first; then every earlier token is revoked and a fresh one returned.
 */
export async function changePassword(
  ctx: ModuleContext,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
): Promise<TokenResponse> {
  const limiterKey = userId;
  // Reserved before the check (parallel guesses cannot pass the limit together), given back
  // unless the current password was wrong.
  const row = await ctx.limiters.currentPassword.countingFailures(
    limiterKey,
    (err) => err instanceof AppError && err.code === 'CURRENT_PASSWORD_INVALID',
    async () => {
      const found = await findUser(ctx.db, userId);
      if (!found) throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
      if (!(await verifyPassword(found.passwordHash, input.currentPassword))) {
        throw new AppError('CURRENT_PASSWORD_INVALID', 'The current password is wrong');
      }
      return found;
    },
  );
  if (input.newPassword === input.currentPassword) {
    throw new AppError('PASSWORD_UNCHANGED', 'The new password must differ from the current one');
  }
  await ctx.limiters.currentPassword.reset(limiterKey);
  // §8.3: a linked member's media-server password is set first; if that fails (502), nothing
  // local changes and the old password keeps working on both sides.
  const updated = await applyNewPassword(ctx, row, input.newPassword, {
    mustChangePassword: false,
    audit: {
      actor: accountActor(row),
      action: 'user.password_change',
      target: { type: 'user', id: userId },
      details: { forced: row.mustChangePassword },
      ip: meta.ip,
      requestId: meta.requestId,
    },
  });
  return ctx.tokens.session(updated, ctx.now());
}

/**
 * The signed-in account's row. The guard has just loaded it; a row gone since then means the
 * session ended in between.
 */
export async function signedInUser(ctx: ModuleContext, userId: string): Promise<UserRow> {
  const row = await findUser(ctx.db, userId);
  if (!row) throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
  return row;
}
