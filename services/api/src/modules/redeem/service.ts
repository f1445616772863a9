import type { MediaSyncOutcome } from '@usher/contracts';
import { recordAudit } from '../../audit-log/audit.js';
import type { RedeemCodeRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import {
  lockForRenewal,
  extendedEnd,
  writeExtension,
  assertRenewable,
} from '../membership/index.js';
import { codeStatus } from './codes.js';
import type { Tx } from '../../db/client.js';
import { withTransaction } from '../../db/transaction.js';
import {
  findCodeById,
  findCodeByText,
  findMember,
  hasRedeemed,
  insertRedemption,
  takeCodeUse,
} from './queries.js';

export type InvalidReason = 'not_found' | 'expired' | 'exhausted';

const REASON_TEXT: Record<InvalidReason, string> = {
  not_found: 'This code does not exist',
  expired: 'This code has expired',
  exhausted: 'This code has been used up',
};

export function invalidCode(reason: InvalidReason): AppError {
  return new AppError('REDEEM_CODE_INVALID', REASON_TEXT[reason], { details: { reason } });
}

const alreadyUsed = () =>
  new AppError('REDEEM_CODE_ALREADY_USED', 'You have already used this code');

const CODE_SHAPE = /^[0-9A-F]{16}$/;

/** Looks a code up (any case) and says why it cannot be used, if it cannot. */
export async function findUsableCode(
  db: Pick<ModuleContext['db'], 'select'>,
  text: string,
  now: Date,
): Promise<RedeemCodeRow> {
  const code = text.trim().toUpperCase();
  if (!CODE_SHAPE.test(code)) throw invalidCode('not_found');
  const row = await findCodeByText(db, code);
  if (!row) throw invalidCode('not_found');
  const status = codeStatus(row, now);
  if (status !== 'active') throw invalidCode(status);
  return row;
}

/**
 * Takes one use of a code inside the caller's transaction, with a guarded UPDATE so concurrent
 * uses never pass `max_uses` or use an expired code; refuses with the reason otherwise
 * (`REDEEM_CODE_INVALID`, details.reason). Used by redemption and by registration with a code.
 */
export async function consumeCode(tx: Tx, codeId: string, now: Date): Promise<void> {
  if (await takeCodeUse(tx, codeId, now)) return;
  // Refused: say why, from the row as it is now (deleted, used up or expired meanwhile).
  const row = await findCodeById(tx, codeId);
  if (!row) throw invalidCode('not_found');
  const status = codeStatus(row, now);
  throw invalidCode(status === 'expired' ? 'expired' : 'exhausted');
}

/**
 * `POST /auth/register/validate-code`: whether an invite code could be used, before registering
 * (no writes). Every attempt counts toward the per-address limit (20-api.md §1.6).
 */
export async function validateInviteCode(ctx: ModuleContext, text: string, meta: RequestMeta) {
  await ctx.limiters.inviteValidate.reserve(meta.ip ?? 'unknown');
  const code = await findUsableCode(ctx.db, text, ctx.now());
  return {
    valid: true as const,
    days: code.days,
    expiresAt: code.expiresAt?.toISOString() ?? null,
    remainingUses: code.maxUses - code.usedCount,
  };
}

/** A failed attempt counts toward the member's redeem limit (10 / h, 20-api.md §1.6). */
async function countingFailures<T>(ctx: ModuleContext, userId: string, work: () => Promise<T>) {
  // Only wrong or used codes are guesses worth limiting; other refusals pass through as is.
  // The attempt is reserved first, so parallel guesses cannot pass the limit together.
  return ctx.limiters.redeemUser.countingFailures(
    userId,
    (err) =>
      err instanceof AppError &&
      ['REDEEM_CODE_INVALID', 'REDEEM_CODE_ALREADY_USED'].includes(err.code),
    work,
  );
}

/** `POST /me/redeem/validate`: what redeeming would do, without writing anything. */
export async function previewRedeem(ctx: ModuleContext, userId: string, text: string) {
  return countingFailures(ctx, userId, async () => {
    const now = ctx.now();
    const user = await findMember(ctx.db, userId);
    if (!user) throw new AppError('USER_NOT_FOUND', 'No such user');
    assertRenewable(user);
    const code = await findUsableCode(ctx.db, text, now);
    if (await hasRedeemed(ctx.db, userId, code.code)) throw alreadyUsed();
    return {
      valid: true as const,
      days: code.days,
      codeExpiresAt: code.expiresAt?.toISOString() ?? null,
      newExpiresAt: extendedEnd(user.expiresAt, code.days, now).toISOString(),
    };
  });
}

/**
 * `POST /me/redeem` (and the bot's redeem): in one transaction lock the member, check the code,
 * take one use with a guarded UPDATE (so concurrent redemptions never pass `max_uses`), record
 * the redemption and extend; then sync media access.
 */
export async function redeem(
  ctx: ModuleContext,
  userId: string,
  text: string,
  meta: RequestMeta & { actor: 'user' | 'bot'; actorLabel: string },
): Promise<{
  days: number;
  previousExpiresAt: string | null;
  expiresAt: string;
  mediaSync: MediaSyncOutcome;
}> {
  const result = await countingFailures(ctx, userId, () =>
    withTransaction(ctx, async (tx) => {
      const now = ctx.now();
      const user = await lockForRenewal(tx, userId);
      const code = await findUsableCode(tx, text, now);
      if (await hasRedeemed(tx, userId, code.code)) throw alreadyUsed();
      await consumeCode(tx, code.id, now);
      const extension = await writeExtension(tx, user, code.days, now);
      await insertRedemption(tx, {
        userId,
        codeId: code.id,
        code: code.code,
        kind: 'renew',
        days: code.days,
        previousExpiresAt: extension.previousExpiresAt,
        newExpiresAt: extension.expiresAt,
      });
      await recordAudit(tx, {
        actor: {
          type: meta.actor,
          id: meta.actor === 'user' ? userId : null,
          label: meta.actorLabel,
        },
        action: 'redeem.use',
        target: { type: 'redeem_code', id: code.id },
        details: {
          userId,
          days: code.days,
          previousExpiresAt: extension.previousExpiresAt?.toISOString() ?? null,
          expiresAt: extension.expiresAt.toISOString(),
        },
        ip: meta.ip,
        requestId: meta.requestId,
      });
      return { code, extension };
    }),
  );
  const mediaSync = await ctx.accessSync(userId, 'renewal');
  return {
    days: result.code.days,
    previousExpiresAt: result.extension.previousExpiresAt?.toISOString() ?? null,
    expiresAt: result.extension.expiresAt.toISOString(),
    mediaSync,
  };
}
