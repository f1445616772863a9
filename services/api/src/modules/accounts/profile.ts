// Own profile (20-api.md §5): language, and the email change confirmed by a code sent to the
// new address.
import type { EmailCodeSent, Locale, User } from '@usher/contracts';
import { accountActor, recordAudit } from '../../audit-log/audit.js';
import type { UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { toUser } from '../users/index.js';
import { uniqueViolation } from '../../db/errors.js';
import { checkEmailCode, codeInvalid, consumeEmailCode, sendEmailCode } from './email-codes.js';
import { emailChangedMail } from './mail.js';
import { emailInUse, findUser, updateUser } from './queries.js';
import { emailTaken } from './register.js';
import { sendInBackground } from './send.js';
import {
  assertDomainAllowed,
  readEmailCodeSettings,
  readRegistrationSettings,
} from './settings.js';
import { withTransaction } from '../../db/transaction.js';

async function currentUser(ctx: ModuleContext, userId: string): Promise<UserRow> {
  const row = await findUser(ctx.db, userId);
  if (!row) throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
  return row;
}

/** `PATCH /me`: the language of the web console and of messenger messages (null = browser). */
export async function updateLocale(
  ctx: ModuleContext,
  userId: string,
  locale: Locale | null,
): Promise<User> {
  const row = await updateUser(ctx.db, userId, { locale }, ctx.now());
  if (!row) throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
  return toUser(row, ctx.now());
}

/** The checks both email-change steps run on the new address. */
async function assertNewEmailUsable(ctx: ModuleContext, row: UserRow, email: string) {
  if (row.email === email) {
    throw new AppError('EMAIL_UNCHANGED', 'This is already your email address');
  }
  assertDomainAllowed(email, (await readRegistrationSettings(ctx.settings.store)).allowedDomains);
  if (await emailInUse(ctx.db, email)) throw emailTaken();
}

/** `POST /me/email/send-code`: a code to the new address (purpose `change_email`). */
export async function sendEmailChangeCode(
  ctx: ModuleContext,
  userId: string,
  newEmail: string,
  meta: RequestMeta & { locale: Locale },
): Promise<EmailCodeSent> {
  const row = await currentUser(ctx, userId);
  const email = newEmail.toLowerCase();
  await assertNewEmailUsable(ctx, row, email);
  return sendEmailCode(ctx, {
    purpose: 'change_email',
    email,
    userId,
    ip: meta.ip,
    locale: (row.locale as Locale | null) ?? meta.locale,
  });
}

/**
 * `PUT /me/email`: the code proves the member reads the new address; then the address changes
 * (audited) and the old address gets a notice, best effort, after the commit.
 */
export async function changeEmail(
  ctx: ModuleContext,
  userId: string,
  input: { newEmail: string; code: string },
  meta: RequestMeta,
): Promise<User> {
  const row = await currentUser(ctx, userId);
  const email = input.newEmail.toLowerCase();
  const now = ctx.now();
  const code = await checkEmailCode(ctx.db, {
    purpose: 'change_email',
    email,
    code: input.code,
    now,
  });
  // A code someone else asked for to this address authorises nothing for this account.
  if (code.userId !== userId) throw codeInvalid();
  await assertNewEmailUsable(ctx, row, email);
  let updated: UserRow;
  try {
    updated = await withTransaction(ctx, async (tx) => {
      await consumeEmailCode(tx, code, now);
      const result = await updateUser(tx, userId, { email }, now);
      await recordAudit(tx, {
        actor: accountActor(row),
        action: 'user.email_change',
        target: { type: 'user', id: userId },
        details: { before: row.email, after: email },
        ip: meta.ip,
        requestId: meta.requestId,
      });
      return result!;
    });
  } catch (err) {
    // Another account took the address between the check and the update.
    if (uniqueViolation(err) !== null) throw emailTaken();
    throw err;
  }
  if (row.email) {
    const s = await readEmailCodeSettings(ctx.settings.store);
    const notice = emailChangedMail({
      to: row.email,
      username: row.username,
      newEmail: email,
      siteName: s.siteName,
      locale: (row.locale as Locale | null) ?? 'en',
    });
    sendInBackground(ctx, 'email change notice', async () => {
      await (await ctx.integrations.mail.get()).send(notice);
    });
  }
  return toUser(updated, now);
}
