import {
  adminPaymentDetailSchema,
  checkoutResponseSchema,
  NotifyPayment,
  stripeWebhookReplySchema,
} from '@usher/contracts';
import { stripeSignatureHeader } from '@usher/testkit';
import { eq } from 'drizzle-orm';
import { auditLog, paymentWebhookEvents, payments, users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { DAY, errorOf, startHarness, type Harness } from './harness.js';

describe(`Stripe webhook (${ENGINE})`, () => {
  let h: Harness;
  let admin: Awaited<ReturnType<Harness['admin']>>;

  beforeAll(async () => {
    h = await startHarness();
    admin = await h.admin();
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.settle();
    h.bot.calls.length = 0;
    h.writes.length = 0;
  });

  /** A member (linked, expiring in `days`) with an open checkout of a fresh plan. */
  async function checkedOut(options: { days?: number; price?: number; currency?: string } = {}) {
    const plan = await h.plan(admin.token, {
      days: 30,
      price: options.price ?? 700,
      currency: options.currency ?? 'usd',
    });
    const member = await h.user((b) =>
      b
        .expiresAt(new Date(Date.now() + (options.days ?? 10) * DAY))
        .linkedTo(`ms-${Math.random().toString(16).slice(2, 10)}`, { mediaDisabled: true }),
    );
    const res = await h.t.call('POST', '/api/v1/payments/checkout', {
      token: member.token,
      body: { planId: plan.id },
    });
    expect(res.status).toBe(200);
    const started = checkoutResponseSchema.parse(await res.json());
    const [row] = await h.t.context.db
      .select()
      .from(payments)
      .where(eq(payments.id, started.paymentId));
    return { plan, member, payment: row!, sessionId: row!.providerSessionId! };
  }
  const paymentRow = async (id: string) =>
    (await h.t.context.db.select().from(payments).where(eq(payments.id, id)))[0]!;
  const userRow = async (id: string) =>
    (await h.t.context.db.select().from(users).where(eq(users.id, id)))[0]!;
  const paymentPushes = () => h.bot.calls.filter((c) => c.path === '/notify/payment');

  it('should fulfil once for 100 concurrent deliveries of one completed event and shuffled async events', async () => {
    const { member, payment, sessionId } = await checkedOut({ days: 10 });
    const before = (await userRow(member.id)).expiresAt!;
    h.stripe.markPaid(sessionId, 'paid');
    const completed = h.stripe.createEvent('checkout.session.completed', sessionId);
    const succeeded = h.stripe.createEvent('checkout.session.async_payment_succeeded', sessionId);
    const expired = h.stripe.createEvent('checkout.session.expired', sessionId);
    const failed = h.stripe.createEvent('checkout.session.async_payment_failed', sessionId);
    const deliveries = [
      ...Array.from({ length: 100 }, () => completed),
      ...[succeeded, expired, failed, succeeded, expired],
    ].sort(() => Math.random() - 0.5);

    const replies = await Promise.all(deliveries.map((e) => h.deliver(e)));
    await h.settle();

    for (const res of replies) {
      expect(res.status).toBe(200);
      expect(stripeWebhookReplySchema.parse(await res.json())).toEqual({ received: true });
    }
    const done = await paymentRow(payment.id);
    expect(done.status).toBe('completed');
    expect(done.paymentIntent).toMatch(/^pi_/);
    // Extended once, from the later of now and the current end.
    const after = (await userRow(member.id)).expiresAt!;
    expect(after.getTime() - before.getTime()).toBe(30 * DAY);
    expect(done.previousExpiresAt).toEqual(before);
    expect(done.newExpiresAt).toEqual(after);
    const pushes = paymentPushes();
    expect(pushes).toHaveLength(1);
    expect(NotifyPayment.parse(pushes[0]!.body)).toMatchObject({
      paymentId: payment.id,
      userId: member.id,
      amount: 700,
      currency: 'usd',
      days: 30,
      newExpiresAt: after.toISOString(),
    });
    expect(JSON.stringify(pushes[0]!.body)).not.toMatch(/cs_test|pi_|evt_/);
    // The disabled media account was re-enabled by the access sync.
    expect(h.writes.filter(([, disabled]) => !disabled)).toHaveLength(1);
    const audits = await h.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, payment.id));
    expect(audits.map((a) => [a.action, a.actorType, a.actorLabel])).toEqual([
      ['payment.completed', 'webhook', 'stripe'],
    ]);
    // Who paid for what, so the audit log reads "lila paid $7.00 for Monthly" (issue 36).
    expect(audits[0]!.details).toMatchObject({
      username: payment.username,
      planName: payment.planName,
      amount: 700,
      currency: 'usd',
      days: 30,
    });
    // Every event is on record once, with its deliveries counted.
    const events = await h.t.context.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.paymentId, payment.id));
    const byId = Object.fromEntries(events.map((e) => [e.eventId, e]));
    // Which event fulfilled depends on the order they landed in (an `expired` or `failed`
    // handled first moves the pending payment, and the paid event then completes it anyway).
    expect(events.map((e) => [e.eventId, e.attempts]).sort()).toEqual(
      [
        [completed.id, 100],
        [succeeded.id, 2],
        [expired.id, 2],
        [failed.id, 1],
      ].sort(),
    );
    for (const e of events) expect(['processed', 'skipped']).toContain(e.status);
    expect(byId[completed.id]!.processedAt).not.toBeNull();

    const detail = await h.t.call('GET', `/api/v1/admin/payments/${payment.id}`, {
      token: admin.token,
    });
    const parsed = adminPaymentDetailSchema.parse(await detail.json());
    expect(parsed.webhookEvents.map((e) => e.eventId).sort()).toEqual(
      [completed.id, succeeded.id, expired.id, failed.id].sort(),
    );
  });

  it('should refuse a bad, stale or altered signature with 400 and change nothing', async () => {
    const { payment, sessionId } = await checkedOut();
    h.stripe.markPaid(sessionId, 'paid');
    const event = h.stripe.createEvent('checkout.session.completed', sessionId);
    const now = Math.floor(Date.now() / 1000);

    const stale = await h.deliver(event, { timestampSeconds: now - 301 });
    const wrongSecret = await h.deliver(event, { secret: 'whsec_notTheEndpointSecret' });
    const payload = JSON.stringify(event, null, 2);
    const altered = await h.t.call('POST', '/api/v1/webhooks/stripe', {
      body: payload.replace('"livemode": false', '"livemode": true '),
      headers: {
        'stripe-signature': stripeSignatureHeader(payload, [h.stripe.webhookSecret], now),
      },
    });
    const missing = await h.t.call('POST', '/api/v1/webhooks/stripe', { body: payload });
    // Re-serialised JSON (parsed and stringified again) no longer matches the signed bytes.
    const reserialised = await h.t.call('POST', '/api/v1/webhooks/stripe', {
      body: JSON.stringify(event),
      headers: {
        'stripe-signature': stripeSignatureHeader(payload, [h.stripe.webhookSecret], now),
      },
    });
    for (const res of [stale, wrongSecret, altered, missing, reserialised]) {
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({
        code: 'WEBHOOK_SIGNATURE_INVALID',
        message: 'The Stripe signature is missing, wrong or too old',
      });
    }
    await h.settle();
    expect((await paymentRow(payment.id)).status).toBe('pending');
    const events = await h.t.context.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.eventId, event.id));
    expect(events).toEqual([]);
    expect(paymentPushes()).toEqual([]);

    // 299 s old is still inside the tolerance.
    expect((await h.deliver(event, { timestampSeconds: now - 299 })).status).toBe(200);
    expect((await paymentRow(payment.id)).status).toBe('completed');
  });

  it('should answer 503 without a webhook secret', async () => {
    const app = h.appWith({ STRIPE_WEBHOOK_SECRET: '' });
    const res = await h.deliver('{}', { app });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({
      code: 'NOT_CONFIGURED',
      details: { system: 'stripe' },
    });
  });

  it('should wait on an unpaid completion and fulfil on async success, delivered out of order', async () => {
    const { member, payment, sessionId } = await checkedOut({ days: -5 });
    await h.stripe.payLater(sessionId); // no webhook URL: only recorded
    const completedUnpaid = h.stripe.events.at(-1)!;
    await h.stripe.settleAsync(sessionId, 'succeeded');
    const succeeded = h.stripe.events.at(-1)!;
    expect(succeeded.type).toBe('checkout.session.async_payment_succeeded');

    // The success arrives first; the older unpaid completion afterwards changes nothing.
    expect((await h.deliver(succeeded)).status).toBe(200);
    expect((await h.deliver(completedUnpaid)).status).toBe(200);
    await h.settle();
    const done = await paymentRow(payment.id);
    expect(done.status).toBe('completed');
    // Expired member: the new end counts from now.
    const end = (await userRow(member.id)).expiresAt!.getTime();
    expect(Math.abs(end - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    expect(paymentPushes()).toHaveLength(1);
  });

  it('should fail a payment on async failure, and still fulfil a paid event that arrives after expiry', async () => {
    const a = await checkedOut();
    await h.stripe.payLater(a.sessionId);
    await h.stripe.settleAsync(a.sessionId, 'failed');
    expect((await h.deliver(h.stripe.events.at(-1)!)).status).toBe(200);
    expect(await paymentRow(a.payment.id)).toMatchObject({
      status: 'failed',
      statusReason: 'The delayed payment failed',
    });

    const b = await checkedOut();
    const expiredEvent = await h.stripe.expire(b.sessionId).then((r) => r.event);
    expect((await h.deliver(expiredEvent)).status).toBe(200);
    expect((await paymentRow(b.payment.id)).status).toBe('expired');
    // Stripe took the money anyway (a session paid just before it closed): fulfilled.
    const session = h.stripe.session(b.sessionId);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: 'pi_late',
    });
    const late = h.stripe.createEvent('checkout.session.completed', b.sessionId);
    expect((await h.deliver(late)).status).toBe(200);
    await h.settle();
    expect(await paymentRow(b.payment.id)).toMatchObject({
      status: 'completed',
      paymentIntent: 'pi_late',
    });
    // A late `expired` never moves it back.
    expect((await h.deliver(expiredEvent)).status).toBe(200);
    const redelivered = h.stripe.createEvent('checkout.session.expired', b.sessionId);
    expect((await h.deliver(redelivered)).status).toBe(200);
    expect((await paymentRow(b.payment.id)).status).toBe('completed');
  });

  it('should not fulfil a session whose amount or currency differs, and skip unknown events', async () => {
    const { member, payment, sessionId } = await checkedOut();
    const before = (await userRow(member.id)).expiresAt;
    h.stripe.markPaid(sessionId, 'paid');
    Object.assign(h.stripe.session(sessionId), { amount_total: 1 });
    const event = h.stripe.createEvent('checkout.session.completed', sessionId);
    expect((await h.deliver(event)).status).toBe(200);
    expect(await paymentRow(payment.id)).toMatchObject({
      status: 'failed',
      statusReason: 'The amount or currency paid differs from the payment',
    });
    expect((await userRow(member.id)).expiresAt).toEqual(before);
    expect(h.t.logs.lines().some((l) => l.level === 'error' && /differs/.test(String(l.msg)))).toBe(
      true,
    );

    const other = { ...event, id: 'evt_1OtherTypeOfEvent', type: 'customer.created' };
    expect((await h.deliver(JSON.stringify(other, null, 2))).status).toBe(200);
    const [row] = await h.t.context.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.eventId, other.id));
    expect(row).toMatchObject({ status: 'skipped', type: 'customer.created', paymentId: null });
  });
});
