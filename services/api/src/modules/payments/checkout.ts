// `POST /payments/checkout` (20-api.md §8.4): one pending payment per member and plan, reused
// while it can be paid, and a Stripe Checkout session opened under the idempotency key
// `checkout:<paymentId>` with every parameter derived from the stored row — so a retry after a
// timeout repeats the first request exactly and Stripe replays it instead of refusing it.
import type { CheckoutResponse } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { PaymentRow, PlanRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { StripePayments } from '../../integrations/payments/adapter.js';
import type { CheckoutInput, CheckoutSessionCreated } from '../../integrations/payments/types.js';
import type { ModuleContext } from '../context.js';
import { assertRenewable, lockForRenewal } from '../membership/index.js';
import { planNotFound } from './plans.js';
import {
  abandonPayment,
  expirePending,
  findPendingPayment,
  findPlan,
  findUser,
  insertPendingPayment,
  storeCheckoutSession,
} from './queries.js';
import { expireSessionsLater } from './sessions.js';

/** How long a pending payment can be paid (10-data.md §3; 30-settings.md §4.6). */
export const PENDING_WINDOW_MS = 30 * 60_000;
/** The Stripe session outlives the local window by a minute (Stripe's minimum is 30 min). */
const SESSION_GRACE_MS = 60_000;
/** A checkout answers within this even when Stripe hangs (the SDK alone may retry for 60 s). */
export const CHECKOUT_DEADLINE_MS = 25_000;

/**
 * Every session parameter, from the stored payment only: nothing read from the user, the plan
 * or the clock, so two calls for one payment send identical requests. (Hence no
 * `customer_email` — the member's address may change between the two — and locale `auto`, the
 * browser's language.)
 */
export function sessionParams(row: PaymentRow): CheckoutInput {
  return {
    paymentId: row.id,
    userId: row.userId!,
    planId: row.planId,
    days: row.days,
    amount: row.amount,
    currency: row.currency,
    productName: row.planName,
    productDescription: `${row.days} days of membership for ${row.username}`,
    locale: 'auto',
    expiresAt: new Date(row.expiresAt.getTime() + SESSION_GRACE_MS),
  };
}

/** Stripe refused the request itself (400: parameters, idempotency key): no session came of it. */
const refusedByStripe = (err: unknown): err is IntegrationError =>
  err instanceof IntegrationError && err.system === 'stripe' && err.status === 400;

interface Reserved {
  row: PaymentRow;
  /** Whether this call created the row (false: an earlier pending row is reused). */
  fresh: boolean;
}

/**
 * One transaction under the member's row lock: expire this member's stale pending payment for
 * the plan, then insert a pending payment or reuse the one that is still payable.
 */
async function reservePayment(ctx: ModuleContext, userId: string, plan: PlanRow) {
  const now = ctx.now();
  const { reserved, stale } = await withTransaction(ctx, async (tx) => {
    const user = await lockForRenewal(tx, userId);
    const stale = await expirePending(
      tx,
      { userId, planId: plan.id, before: now },
      'checkout window passed',
      now,
    );
    const inserted = await insertPendingPayment(tx, {
      id: uuidv7(),
      userId,
      planId: plan.id,
      username: user.username,
      planName: plan.name,
      amount: plan.price,
      currency: plan.currency,
      days: plan.days,
      status: 'pending',
      expiresAt: new Date(now.getTime() + PENDING_WINDOW_MS),
      createdAt: now,
      updatedAt: now,
    });
    // Not inserted: the member has a pending payment for the plan already; reuse that row.
    if (inserted) return { reserved: { row: inserted, fresh: true }, stale };
    const existing = await findPendingPayment(tx, userId, plan.id);
    return { reserved: { row: existing!, fresh: false }, stale };
  });
  expireSessionsLater(
    ctx,
    stale.map((s) => s.sessionId),
  );
  return reserved as Reserved;
}

/** Stores the session on the payment, unless the payment stopped being payable meanwhile. */
async function storeSession(
  ctx: ModuleContext,
  row: PaymentRow,
  session: CheckoutSessionCreated,
): Promise<PaymentRow | null> {
  if (!session.url) {
    throw new IntegrationError(
      'stripe',
      'create_checkout',
      'invalid_response',
      'Stripe sent a session without a payment page',
    );
  }
  const stored = await storeCheckoutSession(
    ctx.db,
    row.id,
    { id: session.id, url: session.url },
    ctx.now(),
  );
  if (stored) return stored;
  // Withdrawn or expired while Stripe was preparing it: the new session must not stay payable.
  expireSessionsLater(ctx, [session.id]);
  return null;
}

/**
 * Creates (or, under the same key, replays) the session within the time left. When the deadline
 * passes first, the call is left to finish in the background and its session is stored then, so
 * the member's next attempt finds it.
 */
async function openSession(
  ctx: ModuleContext,
  stripe: StripePayments,
  row: PaymentRow,
  deadline: number,
): Promise<PaymentRow> {
  const call = stripe.createCheckoutSession(sessionParams(row));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = Symbol('timeout');
  const raced = await Promise.race([
    call,
    new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => resolve(timedOut), Math.max(0, deadline - performance.now()));
    }),
  ]).finally(() => clearTimeout(timer));
  if (raced === timedOut) {
    ctx.background.run('payments.late_session', () =>
      call.then(
        async (session) => void (await storeSession(ctx, row, session)),
        (err: unknown) => ctx.logger.warn({ err, paymentId: row.id }, 'late checkout failed'),
      ),
    );
    throw new IntegrationError(
      'stripe',
      'create_checkout',
      'timeout',
      'Stripe did not answer in time',
    );
  }
  const stored = await storeSession(ctx, row, raced);
  if (!stored) throw new AppError('CONFLICT', 'The payment was closed meanwhile; try again');
  return stored;
}

/** Marks a payment whose session Stripe refused as expired, so it is never reused. */
async function abandon(ctx: ModuleContext, row: PaymentRow, err: IntegrationError) {
  await abandonPayment(ctx.db, row.id, err.message.slice(0, 500), ctx.now());
}

const reply = (row: PaymentRow): CheckoutResponse => ({
  paymentId: row.id,
  url: row.checkoutUrl!,
  expiresAt: row.expiresAt.toISOString(),
});

export async function checkout(
  ctx: ModuleContext,
  userId: string,
  planIdText: string,
  options: { deadlineMs?: number } = {},
): Promise<CheckoutResponse> {
  const deadline = performance.now() + (options.deadlineMs ?? CHECKOUT_DEADLINE_MS);
  // Every attempt counts (20-api.md §1.6), taken atomically so parallel requests cannot all pass.
  await ctx.limiters.checkoutUser.reserve(userId);
  const plan = z.uuid().safeParse(planIdText).success
    ? await findPlan(ctx.db, planIdText)
    : undefined;
  if (!plan?.isActive) throw planNotFound();
  const user = await findUser(ctx.db, userId);
  if (!user) throw new AppError('USER_NOT_FOUND', 'No such user');
  assertRenewable(user);
  const stripe = await ctx.integrations.payments.get();

  const first = await reservePayment(ctx, userId, plan);
  if (first.row.checkoutUrl) return reply(first.row);
  try {
    return reply(await openSession(ctx, stripe, first.row, deadline));
  } catch (err) {
    if (!refusedByStripe(err)) throw err;
    await abandon(ctx, first.row, err);
    if (first.fresh) throw err;
  }
  // The reused payment's key can open no session any more (its window is too short for a new
  // one, or the settings changed its parameters): start over once with a new payment.
  const second = await reservePayment(ctx, userId, plan);
  try {
    return reply(await openSession(ctx, stripe, second.row, deadline));
  } catch (err) {
    if (refusedByStripe(err)) await abandon(ctx, second.row, err);
    throw err;
  }
}
