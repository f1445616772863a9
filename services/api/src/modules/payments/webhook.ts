// `POST /webhooks/stripe` (20-api.md §8.4, 50-integrations.md §5): signature over the raw body,
// dedupe per event id, and the four checkout events. Each delivery runs in one transaction that
// first upserts its event row — the row lock makes concurrent deliveries of one event wait for
// each other, so the second one sees `processed` and does nothing — then locks the member and
// the payment (the order checkout and user deletion use) before changing anything.
import Stripe from 'stripe';
import { z } from 'zod';
import { recordAudit } from '../../audit-log/audit.js';
import type { Tx } from '../../db/client.js';
import type { PaymentRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { lockForRenewal, writeExtension, type Extension } from '../membership/index.js';
import {
  claimWebhookEvent,
  findPayment,
  finishWebhookEvent,
  lockPayment,
  recordWebhookFailure,
  updatePayment,
} from './queries.js';

/** Stripe's own default: a signature older than five minutes is refused (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const envelope = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  livemode: z.boolean(),
  data: z.object({ object: z.unknown() }),
});
type Envelope = z.infer<typeof envelope>;

const checkoutSession = z.object({
  id: z.string(),
  object: z.literal('checkout.session'),
  payment_status: z.string(),
  amount_total: z.number().nullable(),
  currency: z.string().nullable(),
  client_reference_id: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  payment_intent: z
    .union([z.string(), z.object({ id: z.string() })])
    .nullable()
    .optional(),
});
type Session = z.infer<typeof checkoutSession>;

const HANDLED = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const;

type EventStatus = 'processed' | 'skipped';

interface Fulfilled {
  payment: PaymentRow;
  extension: Extension | null;
}

interface Outcome {
  status: EventStatus;
  paymentId: string | null;
  error: string | null;
  fulfilled?: Fulfilled;
}

const skipped = (paymentId: string | null, error: string | null = null): Outcome => ({
  status: 'skipped',
  paymentId,
  error,
});

/** Verifies the signature (raw bytes, 300 s) and reads the envelope; 400 otherwise. */
function verify(raw: string, signature: string, secret: string, nowMs: number): Envelope {
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(
      raw,
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      nowMs,
    );
  } catch (err) {
    // A missing, wrong or stale signature (or a signed body that is not JSON): refuse it whole.
    throw new AppError(
      'WEBHOOK_SIGNATURE_INVALID',
      'The Stripe signature is missing, wrong or too old',
      { cause: err },
    );
  }
  const parsed = envelope.safeParse(event);
  if (!parsed.success) {
    throw new AppError('WEBHOOK_PAYLOAD_INVALID', 'The event is not a Stripe event');
  }
  return parsed.data;
}

export async function receiveStripeEvent(
  ctx: ModuleContext,
  raw: string,
  signature: string,
  meta: RequestMeta,
): Promise<{ received: true }> {
  const secret = await ctx.settings.store.getString('STRIPE_WEBHOOK_SECRET');
  if (!secret) {
    throw new AppError('NOT_CONFIGURED', 'Stripe webhooks are not configured', {
      details: { system: 'stripe' },
    });
  }
  const receivedAt = ctx.now();
  const event = verify(raw, signature, secret, receivedAt.getTime());
  let outcome: Outcome | null;
  try {
    outcome = await withTransaction(ctx, (tx) => handleEvent(ctx, tx, event, receivedAt));
  } catch (err) {
    // Processing failed and rolled back: keep the attempt on record, answer 500 so Stripe
    // delivers the event again (a `failed` event is processed again on redelivery).
    await recordFailure(ctx, event, err, receivedAt);
    throw err;
  }
  if (outcome?.fulfilled) afterFulfilment(ctx, outcome.fulfilled, meta.requestId);
  return { received: true };
}

/** The delivery's transaction; null when the event was already handled. */
async function handleEvent(
  ctx: ModuleContext,
  tx: Tx,
  event: Envelope,
  receivedAt: Date,
): Promise<Outcome | null> {
  const seen = await claimWebhookEvent(tx, event, receivedAt);
  if (seen === 'processed' || seen === 'skipped') return null;
  const outcome = await applyEvent(ctx, tx, event, receivedAt);
  await finishWebhookEvent(tx, event.id, outcome, receivedAt);
  return outcome;
}

async function applyEvent(
  ctx: ModuleContext,
  tx: Tx,
  event: Envelope,
  now: Date,
): Promise<Outcome> {
  if (!(HANDLED as readonly string[]).includes(event.type)) return skipped(null);
  const parsed = checkoutSession.safeParse(event.data.object);
  if (!parsed.success) return skipped(null, 'The event carries no readable checkout session');
  const session = parsed.data;
  const paymentId = session.metadata?.paymentId ?? session.client_reference_id ?? null;
  if (!paymentId || !z.uuid().safeParse(paymentId).success) {
    return skipped(null, 'The session names no Usher payment');
  }
  const found = await findPayment(tx, paymentId);
  if (!found) return skipped(null, 'No such payment');
  if (found.providerSessionId && found.providerSessionId !== session.id) {
    ctx.logger.error(
      { paymentId, sessionId: session.id },
      'Stripe event names a session that is not the payment’s',
    );
    return skipped(paymentId, 'The session is not this payment’s');
  }
  switch (event.type as (typeof HANDLED)[number]) {
    case 'checkout.session.completed':
      // Unpaid = a delayed method (bank debit, voucher): wait for the async event.
      if (session.payment_status !== 'paid') return { ...skipped(paymentId), status: 'processed' };
      return fulfil(ctx, tx, found, session, now);
    case 'checkout.session.async_payment_succeeded':
      return fulfil(ctx, tx, found, session, now);
    case 'checkout.session.async_payment_failed':
      return close(tx, found, session, 'failed', 'The delayed payment failed', now);
    case 'checkout.session.expired':
      return close(tx, found, session, 'expired', 'The Stripe session expired', now);
  }
}

/** Locks the payment and re-reads it (after the member's lock, when there is one). */
const relock = async (tx: Tx, id: string): Promise<PaymentRow> => (await lockPayment(tx, id))!;

/** `failed` / `expired`: only a pending payment moves; anything later is recorded as skipped. */
async function close(
  tx: Tx,
  found: PaymentRow,
  session: Session,
  status: 'failed' | 'expired',
  reason: string,
  now: Date,
): Promise<Outcome> {
  const current = await relock(tx, found.id);
  if (current.status !== 'pending') {
    return skipped(current.id, `The payment is already ${current.status}`);
  }
  await updatePayment(tx, current.id, {
    status,
    statusReason: reason,
    providerSessionId: current.providerSessionId ?? session.id,
    updatedAt: now,
  });
  return { status: 'processed', paymentId: current.id, error: null };
}

/** Errors of the renewal lock that mean "paid, but there is no membership to extend". */
const NOT_EXTENDABLE = ['USER_NOT_FOUND', 'ACCOUNT_NOT_RENEWABLE', 'ACCOUNT_NEVER_EXPIRES'];

/**
 * Money was taken: the payment completes whatever its local state (pending, expired, failed),
 * unless it already did. The member's end moves from max(now, end) by the paid days.
 */
async function fulfil(
  ctx: ModuleContext,
  tx: Tx,
  found: PaymentRow,
  session: Session,
  now: Date,
): Promise<Outcome> {
  let user = null;
  let reason: string | null = found.userId ? null : 'The user was deleted; nothing was extended';
  if (found.userId) {
    try {
      user = await lockForRenewal(tx, found.userId);
    } catch (err) {
      // The account was deleted, promoted or made permanent after paying: record the money,
      // extend nothing, and leave the refund decision to the operator.
      if (!(err instanceof AppError) || !NOT_EXTENDABLE.includes(err.code)) throw err;
      reason = `${err.message}; nothing was extended`;
    }
  }
  const current = await relock(tx, found.id);
  if (current.status === 'completed')
    return skipped(current.id, 'The payment is already completed');
  if (session.amount_total !== current.amount || session.currency !== current.currency) {
    ctx.logger.error(
      {
        paymentId: current.id,
        expected: { amount: current.amount, currency: current.currency },
        got: { amount: session.amount_total, currency: session.currency },
      },
      'Stripe session amount or currency differs from the payment; not fulfilled',
    );
    await updatePayment(tx, current.id, {
      status: 'failed',
      statusReason: 'The amount or currency paid differs from the payment',
      updatedAt: now,
    });
    return { status: 'processed', paymentId: current.id, error: 'amount or currency mismatch' };
  }
  const extension = user ? await writeExtension(tx, user, current.days, now) : null;
  const intent = session.payment_intent;
  const completed = await updatePayment(tx, current.id, {
    status: 'completed',
    statusReason: reason,
    completedAt: now,
    paymentIntent: typeof intent === 'string' ? intent : (intent?.id ?? null),
    providerSessionId: current.providerSessionId ?? session.id,
    previousExpiresAt: extension?.previousExpiresAt ?? null,
    newExpiresAt: extension?.expiresAt ?? null,
    updatedAt: now,
  });
  await recordAudit(tx, {
    actor: { type: 'webhook', id: null, label: 'stripe' },
    action: 'payment.completed',
    target: { type: 'payment', id: current.id },
    details: {
      userId: current.userId,
      // The snapshots, so the audit log can say "lila paid $4.99 for Monthly" (issue 36).
      username: current.username,
      planId: current.planId,
      planName: current.planName,
      amount: current.amount,
      currency: current.currency,
      days: current.days,
      previousExpiresAt: extension?.previousExpiresAt?.toISOString() ?? null,
      newExpiresAt: extension?.expiresAt.toISOString() ?? null,
      ...(reason ? { note: reason } : {}),
    },
  });
  if (reason)
    ctx.logger.warn({ paymentId: current.id, reason }, 'payment completed without extension');
  return {
    status: 'processed',
    paymentId: current.id,
    error: null,
    fulfilled: { payment: completed, extension },
  };
}

/** After the commit: media access follows the new end, and the admin chat hears of the money. */
function afterFulfilment(ctx: ModuleContext, done: Fulfilled, requestId: string | null): void {
  const { payment, extension } = done;
  if (!extension || !payment.userId) return;
  const userId = payment.userId;
  ctx.notify.push(
    'payment',
    {
      paymentId: payment.id,
      userId,
      username: payment.username,
      planId: payment.planId,
      planName: payment.planName,
      amount: payment.amount,
      currency: payment.currency,
      days: payment.days,
      previousExpiresAt: extension.previousExpiresAt?.toISOString() ?? null,
      newExpiresAt: extension.expiresAt.toISOString(),
      completedAt: payment.completedAt!.toISOString(),
    },
    { requestId: requestId ?? undefined },
  );
  ctx.background.run('payments.access_sync', async () => {
    await ctx.accessSync(userId, 'renewal');
  });
}

/** Records a delivery whose processing failed (its own statement, after the rollback). */
async function recordFailure(
  ctx: ModuleContext,
  event: Envelope,
  err: unknown,
  receivedAt: Date,
): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await recordWebhookFailure(ctx.db, event, message, receivedAt);
}
