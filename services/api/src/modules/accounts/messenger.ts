// Messenger (Telegram) binding (20-api.md §5, §7): the member asks the web for a 6-digit code and
// sends it to the bot, which calls the internal bind route; lookup, redeem and password reset
// then work by the Telegram user id.
import type { BindCode, Locale, MessengerAccount } from '@usher/contracts';
import { accountActor, recordAudit } from '../../audit-log/audit.js';
import { generatePassword } from '../../security/passwords.js';
import type { UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { StoredLimiter } from '../../http/rate-limit.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { redeem } from '../redeem/index.js';
import { isExpired, mediaState } from '../membership/index.js';
import { uniqueViolation } from '../../db/errors.js';
import { randomDigits } from './email-codes.js';
import { applyNewPassword } from './passwords.js';
import {
  adoptLocaleRow,
  claimBindCode,
  findBindCode,
  findUser,
  findUserByMessenger,
  lockUser,
  messengerOwner,
  sweepDeadBindCode,
  updateUser,
  upsertBindCode,
} from './queries.js';
import { withTransaction } from '../../db/transaction.js';

const BIND_CODE_TTL_MS = 5 * 60_000;
const BIND_CODE_TRIES = 8;

const messengerLabel = (messengerId: number) => `messenger:${messengerId}`;

export function notBound(): AppError {
  return new AppError('MESSENGER_NOT_BOUND', 'No account is bound to this Telegram account');
}

/** `POST /me/messenger/bind-code`: a fresh code (5 min) replacing any earlier one. */
export async function issueBindCode(ctx: ModuleContext, userId: string): Promise<BindCode> {
  const row = await findUser(ctx.db, userId);
  if (!row) throw new AppError('TOKEN_REVOKED', 'Your session has ended; sign in again');
  if (row.messengerId !== null) {
    throw new AppError(
      'MESSENGER_ALREADY_BOUND',
      'A Telegram account is already bound; unbind it first',
    );
  }
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + BIND_CODE_TTL_MS);
  for (let attempt = 0; attempt < BIND_CODE_TRIES; attempt++) {
    const code = randomDigits();
    // A dead code of someone else may still hold the value until the cleanup job runs.
    await sweepDeadBindCode(ctx.db, code, now);
    try {
      await upsertBindCode(ctx.db, { userId, code, expiresAt, createdAt: now });
      return { code, expiresAt: expiresAt.toISOString() };
    } catch (err) {
      // The value belongs to another member's live code: draw again (≤ 8 tries, 10-data.md).
      if (uniqueViolation(err) === null) throw err;
    }
  }
  throw new AppError('SERVICE_UNAVAILABLE', 'Could not draw a free code; try again');
}

/** `DELETE /me/messenger`. */
export async function unbindMessenger(
  ctx: ModuleContext,
  userId: string,
  meta: RequestMeta,
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const row = await lockUser(tx, userId);
    if (!row || row.messengerId === null) {
      throw new AppError('MESSENGER_NOT_BOUND', 'No Telegram account is bound', { status: 422 });
    }
    await updateUser(tx, userId, { messengerId: null, messengerBoundAt: null }, ctx.now());
    await recordAudit(tx, {
      actor: accountActor(row),
      action: 'user.messenger_unbind',
      target: { type: 'user', id: row.id },
      details: { messengerId: row.messengerId },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}

/** Telegram's `language_code` → a locale Usher knows, or null. */
export function localeFromLanguageCode(code: string | undefined): Locale | null {
  const v = (code ?? '').toLowerCase();
  if (v.startsWith('zh')) return 'zh-CN';
  if (v.startsWith('en')) return 'en';
  return null;
}

/** Stores the bot's language as the member's locale while none is set (20-api.md §7). */
async function adoptLocale(ctx: ModuleContext, row: UserRow, languageCode?: string) {
  const locale = localeFromLanguageCode(languageCode);
  if (!locale || row.locale !== null) return row;
  return (await adoptLocaleRow(ctx.db, row.id, locale, ctx.now())) ?? row;
}

/** The account bound to a Telegram id; 404 `MESSENGER_NOT_BOUND` when none is. */
export async function userByMessenger(
  ctx: ModuleContext,
  messengerId: number,
  languageCode?: string,
): Promise<UserRow> {
  const row = await findUserByMessenger(ctx.db, messengerId);
  if (!row) throw notBound();
  return adoptLocale(ctx, row, languageCode);
}

/**
 * `POST /internal/messenger/bind`: the code names the account; the account row is locked while
 * the Telegram id is checked and stored, and the code is deleted. Wrong codes count toward the
 * per-Telegram-id limit (5 / 10 min).
 */
export async function bindMessenger(
  ctx: ModuleContext,
  limiter: StoredLimiter,
  input: { messengerId: number; code: string; languageCode?: string },
  meta: RequestMeta,
): Promise<{ userId: string; username: string }> {
  // A wrong or expired code is a failed guess; the attempt is reserved before the code is looked
  // up, so parallel guesses cannot pass the limit together.
  return limiter.countingFailures(
    String(input.messengerId),
    (err) => err instanceof AppError && err.code === 'BIND_CODE_INVALID',
    () => bindWithCode(ctx, input, meta),
  );
}

async function bindWithCode(
  ctx: ModuleContext,
  input: { messengerId: number; code: string; languageCode?: string },
  meta: RequestMeta,
): Promise<{ userId: string; username: string }> {
  const now = ctx.now();
  const label = messengerLabel(input.messengerId);
  const code = await findBindCode(ctx.db, input.code);
  if (!code || code.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('BIND_CODE_INVALID', 'The code is wrong or has expired');
  }
  let bound: UserRow;
  try {
    bound = await withTransaction(ctx, async (tx) => {
      // Claiming the code by deleting it makes a second bind with the same code find nothing.
      if (!(await claimBindCode(tx, code.userId, code.code))) {
        throw new AppError('BIND_CODE_INVALID', 'The code is wrong or has expired');
      }
      const row = await lockUser(tx, code.userId);
      if (!row) throw new AppError('BIND_CODE_INVALID', 'The code is wrong or has expired');
      const other = await messengerOwner(tx, input.messengerId);
      if (other && other !== row.id) {
        throw new AppError(
          'MESSENGER_ID_IN_USE',
          'This Telegram account is already bound to another account',
        );
      }
      if (row.messengerId !== null && row.messengerId !== input.messengerId) {
        throw new AppError(
          'MESSENGER_ALREADY_BOUND',
          'This account is already bound to another Telegram account',
        );
      }
      const locale = row.locale ?? localeFromLanguageCode(input.languageCode);
      const updated = await updateUser(
        tx,
        row.id,
        {
          messengerId: input.messengerId,
          messengerBoundAt: row.messengerId === input.messengerId ? row.messengerBoundAt : now,
          locale,
        },
        now,
      );
      await recordAudit(tx, {
        actor: { type: 'bot', id: null, label },
        action: 'user.messenger_bind',
        target: { type: 'user', id: row.id },
        details: { messengerId: input.messengerId },
        ip: meta.ip,
        requestId: meta.requestId,
      });
      return updated!;
    });
  } catch (err) {
    // Two binds of one Telegram id raced: the unique index decided.
    if (uniqueViolation(err) !== null) {
      throw new AppError(
        'MESSENGER_ID_IN_USE',
        'This Telegram account is already bound to another account',
      );
    }
    throw err;
  }
  return { userId: bound.id, username: bound.username };
}

/** `POST /internal/messenger/lookup`. */
export async function lookupMessenger(
  ctx: ModuleContext,
  input: { messengerId: number; languageCode?: string },
): Promise<MessengerAccount> {
  const row = await userByMessenger(ctx, input.messengerId, input.languageCode);
  const now = ctx.now();
  return {
    userId: row.id,
    username: row.username,
    email: row.email,
    role: row.role as MessengerAccount['role'],
    isActive: row.isActive,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    isExpired: isExpired(row, now),
    media: { linked: row.mediaUserId !== null, state: mediaState(row, now) },
  };
}

/** `POST /internal/messenger/redeem`: the web's redeem, for the bound account (actor bot). */
export async function redeemForMessenger(
  ctx: ModuleContext,
  input: { messengerId: number; code: string; languageCode?: string },
  meta: RequestMeta,
) {
  const row = await userByMessenger(ctx, input.messengerId, input.languageCode);
  return redeem(ctx, row.id, input.code, {
    ...meta,
    actor: 'bot',
    actorLabel: messengerLabel(input.messengerId),
  });
}

/**
 * `POST /internal/messenger/reset-password`: a generated 20-character password (no look-alikes),
 * set the §8.3 way, with a forced change at the next sign-in. Every attempt counts toward the
 * per-Telegram-id limit (3 / h). The password is returned once and never logged.
 */
export async function resetPasswordForMessenger(
  ctx: ModuleContext,
  limiter: StoredLimiter,
  input: { messengerId: number; languageCode?: string },
  meta: RequestMeta,
): Promise<{ username: string; password: string }> {
  const key = String(input.messengerId);
  await limiter.reserve(key);
  const row = await userByMessenger(ctx, input.messengerId, input.languageCode);
  const password = generatePassword(20);
  await applyNewPassword(ctx, row, password, {
    mustChangePassword: true,
    audit: {
      actor: { type: 'bot', id: null, label: messengerLabel(input.messengerId) },
      action: 'user.password_reset',
      target: { type: 'user', id: row.id },
      details: { via: 'messenger' },
      ip: meta.ip,
      requestId: meta.requestId,
    },
  });
  return { username: row.username, password };
}
