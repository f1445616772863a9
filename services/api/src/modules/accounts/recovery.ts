// Forgot / reset password by email code (20-api.md §4, §8.3).
import type { Locale, ResetPasswordRequest } from '@usher/contracts';
import { accountActor } from '../../audit-log/audit.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { checkEmailCode, codeInvalid, consumeEmailCode, issueEmailCode } from './email-codes.js';
import { applyNewPassword } from './passwords.js';
import { findUserByEmail, markCodeUnsent } from './queries.js';
import { sendInBackground } from './send.js';
import { assertEmailConfigured } from './settings.js';

/**
 * `POST /auth/password/forgot`: the same 202 whether or not the address belongs to an account.
 * Unknown addresses still get an `email_codes` row (`sent=false`), so they spend the same limits;
 * the mail goes out in the background, so the reply time does not tell either.
 */
export async function forgotPassword(
  ctx: ModuleContext,
  emailInput: string,
  meta: RequestMeta & { locale: Locale },
): Promise<{ ok: true }> {
  await assertEmailConfigured(ctx.settings.store);
  const email = emailInput.toLowerCase();
  const user = await findUserByEmail(ctx.db, email);
  const issued = await issueEmailCode(
    ctx,
    {
      purpose: 'reset',
      email,
      userId: user?.id ?? null,
      ip: meta.ip,
      locale: (user?.locale as Locale | null) ?? meta.locale,
    },
    user !== undefined,
  );
  if (issued.send) {
    sendInBackground(ctx, 'password reset code', issued.send, async () => {
      await markCodeUnsent(ctx.db, issued.row.id);
    });
  }
  return { ok: true };
}

/**
 * `POST /auth/password/reset`: the emailed code authorises a new password; §8.3 order (media
 * server first for members, 502 and no local change when it fails). Every token dies and a
 * forced change is lifted. A code issued for an unknown address never authorises anything.
 */
export async function resetPassword(
  ctx: ModuleContext,
  input: ResetPasswordRequest,
  meta: RequestMeta,
): Promise<{ ok: true }> {
  const email = input.email.toLowerCase();
  const now = ctx.now();
  const code = await checkEmailCode(ctx.db, { purpose: 'reset', email, code: input.code, now });
  const user = code.sent && code.userId ? await findUserByEmail(ctx.db, email) : undefined;
  if (!user || user.id !== code.userId) throw codeInvalid();
  await applyNewPassword(ctx, user, input.newPassword, {
    mustChangePassword: false,
    before: (tx) => consumeEmailCode(tx, code, now),
    audit: {
      actor: accountActor(user),
      action: 'user.password_reset',
      target: { type: 'user', id: user.id },
      details: { via: 'email' },
      ip: meta.ip,
      requestId: meta.requestId,
    },
  });
  return { ok: true };
}
