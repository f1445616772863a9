// Self-registration (20-api.md §4, §8.1): all or nothing across Usher and the media server.
import { DAY_MS } from '../../time/units.js';
import {
  USERNAME_PATTERN,
  type EmailCodeSent,
  type Locale,
  type RegisterMode,
  type RegisterRequest,
  type RegisterResponse,
} from '@usher/contracts';
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from '../../audit-log/audit.js';
import { hashPassword } from '../../security/passwords.js';
import type { RedeemCodeRow, UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { StoredLimiter } from '../../http/rate-limit.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { consumeCode, findUsableCode } from '../redeem/index.js';
import { toUser } from '../users/index.js';
import { driverMessage, uniqueViolation } from '../../db/errors.js';
import {
  checkEmailCode,
  consumeEmailCode,
  sendEmailCode,
  type EmailCodeRow,
} from './email-codes.js';
import {
  assertUsernameAvailable,
  compensate,
  provisionMediaUser,
  usernameTaken,
} from '../membership/index.js';
import {
  assertDomainAllowed,
  assertEmailConfigured,
  readRegistrationSettings,
} from './settings.js';
import { withTransaction } from '../../db/transaction.js';
import type { Tx } from '../../db/client.js';
import { readSsoSettings } from '../../integrations/oidc/index.js';
import { emailInUse, insertRedemption, insertUser } from './queries.js';

/** `GET /auth/register/mode`. */
export async function registrationMode(ctx: ModuleContext): Promise<RegisterMode> {
  const s = await readRegistrationSettings(ctx.settings.store);
  return {
    mode: s.mode,
    defaultTrialDays: s.mode === 'open' ? s.trialDays : null,
    emailVerification: s.emailVerification,
    allowedEmailDomains: s.allowedDomains,
    usernamePattern: USERNAME_PATTERN.source,
    passwordMinLength: 8,
  };
}

export function emailTaken(): AppError {
  return new AppError('EMAIL_TAKEN', 'This email address is already used by another account');
}

async function assertEmailFree(ctx: ModuleContext, email: string): Promise<void> {
  if (await emailInUse(ctx.db, email)) throw emailTaken();
}

/** `POST /auth/register/send-code`: a sign-up code to an address that could register. */
export async function sendRegisterCode(
  ctx: ModuleContext,
  emailInput: string,
  meta: RequestMeta & { locale: Locale },
): Promise<EmailCodeSent> {
  const email = emailInput.toLowerCase();
  const s = await readRegistrationSettings(ctx.settings.store);
  if (!s.emailVerification) {
    // Switched on but the mail settings are incomplete: say what is missing (503 smtp).
    if (await ctx.settings.store.get('EMAIL_VERIFICATION')) {
      await assertEmailConfigured(ctx.settings.store);
    }
    throw new AppError('EMAIL_VERIFICATION_OFF', 'This site does not verify email addresses');
  }
  assertDomainAllowed(email, s.allowedDomains);
  await assertEmailFree(ctx, email);
  return sendEmailCode(ctx, {
    purpose: 'register',
    email,
    userId: null,
    ip: meta.ip,
    locale: meta.locale,
  });
}

interface Plan {
  email: string;
  registeredVia: 'open' | 'invite';
  mode: 'open' | 'invite';
  expiresAt: Date;
  code: RedeemCodeRow | null;
  emailCode: EmailCodeRow | null;
}

/**
 * §8.1 steps 1–3: every check, without writing anything (a wrong email code is counted).
 * `emailVerified`: the address was verified by the identity provider (single sign-on), which
 * stands in for the emailed code.
 */
async function planRegistration(
  ctx: ModuleContext,
  input: RegisterRequest,
  emailVerified = false,
): Promise<Plan> {
  const s = await readRegistrationSettings(ctx.settings.store);
  const email = input.email.toLowerCase();
  const now = ctx.now();
  if (s.mode === 'invite' && !input.code) {
    throw new AppError('REGISTRATION_CODE_REQUIRED', 'An invite code is required to sign up');
  }
  assertDomainAllowed(email, s.allowedDomains);
  const needsEmailCode = s.emailVerification && !emailVerified;
  if (needsEmailCode && !input.emailCode) {
    throw new AppError('EMAIL_CODE_REQUIRED', 'Enter the code we emailed to you');
  }
  await assertUsernameAvailable(ctx, input.username);
  await assertEmailFree(ctx, email);
  // An invalid code is refused, never ignored (open mode included).
  const code = input.code ? await findUsableCode(ctx.db, input.code, now) : null;
  const emailCode = needsEmailCode
    ? await checkEmailCode(ctx.db, { purpose: 'register', email, code: input.emailCode!, now })
    : null;
  const days = code ? code.days : s.trialDays;
  return {
    email,
    mode: s.mode,
    registeredVia: code ? 'invite' : 'open',
    expiresAt: new Date(now.getTime() + days * DAY_MS),
    code,
    emailCode,
  };
}

/** §8.1 step 5: consume the email code, take one use of the redeem code, insert the user. */
async function insertMember(
  ctx: ModuleContext,
  input: RegisterRequest,
  plan: Plan,
  media: { mediaUserId: string; disabled: boolean },
  passwordHash: string,
  meta: RequestMeta,
  identity?: NewIdentity,
): Promise<UserRow> {
  const now = ctx.now();
  const id = uuidv7();
  return withTransaction(ctx, async (tx) => {
    if (plan.emailCode) await consumeEmailCode(tx, plan.emailCode, now);
    if (plan.code) await consumeCode(tx, plan.code.id, now);
    const row = await insertUser(tx, {
      id,
      username: input.username,
      email: plan.email,
      passwordHash,
      hasPassword: !identity,
      role: 'user',
      expiresAt: plan.expiresAt,
      mediaUserId: media.mediaUserId,
      mediaDisabled: media.disabled,
      registeredVia: plan.registeredVia,
      createdAt: now,
      updatedAt: now,
    });
    if (plan.code) {
      await insertRedemption(tx, {
        id: uuidv7(),
        userId: id,
        codeId: plan.code.id,
        code: plan.code.code,
        kind: 'register',
        days: plan.code.days,
        previousExpiresAt: null,
        newExpiresAt: plan.expiresAt,
        createdAt: now,
      });
    }
    await recordAudit(tx, {
      actor: { type: 'user', id, label: input.username },
      action: 'user.register',
      target: { type: 'user', id },
      details: {
        mode: plan.mode,
        registeredVia: plan.registeredVia,
        email: plan.email,
        expiresAt: plan.expiresAt.toISOString(),
        codeId: plan.code?.id ?? null,
        mediaUserId: media.mediaUserId,
        mediaDisabled: media.disabled,
        ...(identity ? { via: 'sso', issuer: identity.issuer } : {}),
      },
      ip: meta.ip,
      requestId: meta.requestId,
    });
    if (identity) await identity.insert(tx, row);
    return row;
  });
}

/**
 * The reply for a failed step-5 transaction (§8.1 step 6): a unique race → 409, a business
 * refusal (code used up, email code consumed meanwhile) as it is, anything else → 500. The
 * database error is logged by its driver message only (never the query with its parameters).
 */
function insertFailure(ctx: ModuleContext, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const constraint = uniqueViolation(err);
  if (constraint?.includes('username')) return usernameTaken();
  if (constraint?.includes('email')) return emailTaken();
  ctx.logger.error(
    { err: driverMessage(err) },
    'registration failed after the media account was created; it was deleted or queued for deletion',
  );
  return new AppError(
    'INTERNAL_ERROR',
    'Something went wrong on our side; the request id helps the operator find out what',
  );
}

/**
 * `POST /auth/register` (§8.1): validate and rate-limit, check without writing, create the media
 * account, then the local rows in one transaction; if that fails, the media account goes again
 * (or into the retry queue). After the commit: token, registration event to the bot.
 */
export async function register(
  ctx: ModuleContext,
  limiter: StoredLimiter,
  input: RegisterRequest,
  meta: RequestMeta,
): Promise<RegisterResponse> {
  const ip = meta.ip ?? 'unknown';
  await limiter.reserve(ip); // every attempt counts (20-api.md §1.6: attempts / h), atomically
  const sso = await readSsoSettings(ctx.settings.store);
  if (sso.active && !sso.passwordLoginSetting) {
    // Accounts come from the identity provider: a password account could never sign in.
    throw new AppError(
      'PASSWORD_LOGIN_DISABLED',
      'Sign up with single sign-on; passwords are switched off here',
    );
  }

  const plan = await planRegistration(ctx, input);
  const now = ctx.now();
  const disabled = plan.expiresAt.getTime() <= now.getTime();
  const passwordHash = await hashPassword(input.password);
  const media = await provisionMediaUser(ctx, {
    username: input.username,
    password: input.password,
    disabled,
  });
  let row: UserRow;
  try {
    row = await insertMember(ctx, input, plan, media, passwordHash, meta);
  } catch (err) {
    // Whatever failed, the media account created above must not outlive the attempt.
    await compensate(ctx, media.mediaUserId);
    throw insertFailure(ctx, err);
  }

  notifyRegistration(ctx, row, plan.registeredVia, meta.requestId);
  return { ...(await ctx.tokens.session(row, now)), user: toUser(row, now) };
}

/** The provider sign-in a single-sign-on registration links, inserted in the same transaction. */
export interface NewIdentity {
  issuer: string;
  insert(tx: Tx, user: UserRow): Promise<void>;
}

/**
 * A member created by a first single sign-on (docs/sso.md): §8.1 as for `register`, with a
 * random password nobody sees (`has_password=false`; the media account needs one) and the
 * provider identity linked in the same transaction. `emailVerified`: the provider verified it.
 */
export async function registerWithIdentity(
  ctx: ModuleContext,
  limiter: StoredLimiter,
  input: { username: string; email: string; code?: string; emailVerified: boolean },
  identity: NewIdentity,
  meta: RequestMeta,
): Promise<UserRow> {
  await limiter.reserve(meta.ip ?? 'unknown');
  const password = randomBytes(24).toString('base64url');
  const request: RegisterRequest = {
    username: input.username,
    password,
    email: input.email,
    ...(input.code ? { code: input.code } : {}),
  };
  const plan = await planRegistration(ctx, request, input.emailVerified);
  const disabled = plan.expiresAt.getTime() <= ctx.now().getTime();
  const passwordHash = await hashPassword(password);
  const media = await provisionMediaUser(ctx, { username: input.username, password, disabled });
  let row: UserRow;
  try {
    row = await insertMember(ctx, request, plan, media, passwordHash, meta, identity);
  } catch (err) {
    await compensate(ctx, media.mediaUserId);
    throw insertFailure(ctx, err);
  }
  notifyRegistration(ctx, row, plan.registeredVia, meta.requestId);
  return row;
}

/** N: registration (20-api.md §1.7) — self-registrations only, fire-and-forget after commit. */
function notifyRegistration(
  ctx: ModuleContext,
  row: UserRow,
  /** How the member joined: open sign-up or with an invite code (40-bot.md §2.4). */
  mode: 'open' | 'invite',
  requestId: string,
): void {
  ctx.notify.push(
    'registration',
    {
      userId: row.id,
      username: row.username,
      email: row.email,
      mediaUserId: row.mediaUserId,
      mode,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    },
    { requestId },
  );
}
