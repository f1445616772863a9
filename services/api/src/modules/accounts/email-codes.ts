// Emailed 6-digit codes (10-data.md `email_codes`, 20-api.md §1.6): issuing under the per-address
// and per-IP limits, checking with the 5-wrong-guesses rule, consuming in the caller's transaction.
// The limits are counted from the table itself so that a settings change applies at once.
import { DAY_MS } from '../../time/units.js';
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { EmailCodeSent, Locale } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Tx } from '../../db/client.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext } from '../context.js';
import { codeMail, type CodePurpose } from './mail.js';
import {
  codeCounts,
  consumeLiveCode,
  countWrongGuess,
  discardEmailCode,
  insertEmailCode,
  lockCodeAddress,
  newestEmailCode,
  type EmailCodeRow,
} from './queries.js';
import { readEmailCodeSettings } from './settings.js';
import { withTransaction } from '../../db/transaction.js';

/** A code is dead after this many wrong guesses. */
export const MAX_CODE_ATTEMPTS = 5;
/**
 * `email_codes.ip` is not null; requests without a known client address (no trusted proxy and
 * no socket, e.g. in-process calls) are counted together under this address.
 */
export const UNKNOWN_IP = '0.0.0.0';

export type { EmailCodeRow } from './queries.js';

/** Six random digits. */
export function randomDigits(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

function rateLimited(retryAfterMs: number, message: string): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('RATE_LIMITED', message, {
    details: { retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

interface IssueInput {
  purpose: CodePurpose;
  /** Lower-cased address the code is for. */
  email: string;
  userId: string | null;
  ip: string | null;
  locale: Locale;
}

export interface IssuedCode {
  row: EmailCodeRow;
  reply: EmailCodeSent;
  /** The mail to send (null when nothing is to be sent). */
  send: (() => Promise<void>) | null;
}

/**
 * Checks the limits and records a new code (older codes for the address and purpose die with
 * it). Per address and purpose: at most one per `EMAIL_CODE_RESEND_SECONDS` and
 * `EMAIL_CODE_DAILY_LIMIT` per 24 h; per client IP and purpose: `EMAIL_CODE_IP_DAILY_LIMIT`.
 * A transaction-scoped advisory lock per address keeps two concurrent sends from both passing.
 * `deliver` false records the row as not sent (forgot-password for an unknown address), so it
 * counts toward the limits all the same. Returns the mail to send after the commit.
 */
export async function issueEmailCode(
  ctx: Pick<ModuleContext, 'db' | 'now' | 'settings' | 'integrations'>,
  input: IssueInput,
  deliver: boolean,
): Promise<IssuedCode> {
  const s = await readEmailCodeSettings(ctx.settings.store);
  const now = ctx.now();
  const ip = input.ip ?? UNKNOWN_IP;
  const row = await withTransaction(ctx, async (tx) => {
    await lockCodeAddress(tx, input.purpose, input.email);
    const since = new Date(now.getTime() - DAY_MS);
    const stats = await codeCounts(tx, { purpose: input.purpose, email: input.email, ip, since });
    const at = (v: string | Date | null) => (v ? new Date(v).getTime() : 0);
    if (stats && stats.email_last) {
      const wait = at(stats.email_last) + s.resendSeconds * 1000 - now.getTime();
      if (wait > 0) throw rateLimited(wait, 'A code was just sent; wait before asking again');
    }
    if (stats && stats.email_count >= s.dailyLimit) {
      throw rateLimited(
        at(stats.email_first) + DAY_MS - now.getTime(),
        'Too many codes for this address today; try again later',
      );
    }
    if (stats && stats.ip_count >= s.ipDailyLimit) {
      throw rateLimited(
        at(stats.ip_first) + DAY_MS - now.getTime(),
        'Too many codes requested from your network today; try again later',
      );
    }
    return insertEmailCode(tx, {
      id: uuidv7(),
      purpose: input.purpose,
      email: input.email,
      userId: input.userId,
      code: randomDigits(),
      sent: deliver,
      ip,
      expiresAt: new Date(now.getTime() + s.ttlMinutes * 60_000),
      createdAt: now,
    });
  });
  const send = deliver
    ? async () => {
        const mail = await ctx.integrations.mail.get();
        await mail.send(
          codeMail({
            to: input.email,
            code: row.code,
            purpose: input.purpose,
            ttlMinutes: s.ttlMinutes,
            siteName: s.siteName,
            locale: input.locale,
          }),
        );
      }
    : null;
  return {
    row,
    reply: { expiresAt: row.expiresAt.toISOString(), resendAfterSeconds: s.resendSeconds },
    send,
  };
}

/**
 * Issues a code and mails it before answering (registration, e-mail change). A failed mail
 * discards the code: it was never seen, so it must neither count nor block a resend.
 */
export async function sendEmailCode(
  ctx: Pick<ModuleContext, 'db' | 'now' | 'settings' | 'integrations'>,
  input: IssueInput,
) {
  const issued = await issueEmailCode(ctx, input, true);
  try {
    await issued.send!();
  } catch (err) {
    await discardEmailCode(ctx.db, issued.row.id);
    throw err;
  }
  return issued.reply;
}

export function codeInvalid(): AppError {
  return new AppError('EMAIL_CODE_INVALID', 'The code is wrong or has expired; ask for a new one');
}

function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a.padEnd(6));
  const y = Buffer.from(b.padEnd(6));
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks a code against the newest one for the address and purpose (only that one is valid:
 * not consumed, not expired, fewer than 5 wrong guesses). A wrong guess is counted at once, in
 * its own statement, so it sticks even when the caller's request fails afterwards. Returns the
 * matching row; throws `EMAIL_CODE_INVALID` otherwise.
 */
export async function checkEmailCode(
  db: Database,
  input: { purpose: CodePurpose; email: string; code: string; now: Date },
): Promise<EmailCodeRow> {
  const newest = await newestEmailCode(db, input.email, input.purpose);
  if (
    !newest ||
    newest.consumedAt !== null ||
    newest.expiresAt.getTime() <= input.now.getTime() ||
    newest.attempts >= MAX_CODE_ATTEMPTS
  ) {
    throw codeInvalid();
  }
  if (!sameCode(newest.code, input.code)) {
    await countWrongGuess(db, newest.id);
    throw codeInvalid();
  }
  return newest;
}

/**
 * Consumes a checked code inside the transaction of the action it authorises. Re-checks that it
 * is still the live one (not consumed meanwhile, not expired, not superseded by a newer code),
 * so two requests with the same code cannot both succeed.
 */
export async function consumeEmailCode(tx: Tx, row: EmailCodeRow, now: Date): Promise<void> {
  if (!(await consumeLiveCode(tx, row, now, MAX_CODE_ATTEMPTS))) throw codeInvalid();
}
