import {
  checkoutResponseSchema,
  memberPlansSchema,
  publicSiteSchema,
  type CheckoutResponse,
} from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { payments } from '../../src/db/schema/index.js';
import { runPaymentsExpire } from '../../src/modules/payments/index.js';
import { ENGINE } from '../support/database.js';
import { DAY, WEB, errorOf, startHarness, type Harness } from './harness.js';

// Long enough that a loaded two-core CI machine opens a healthy session well within it (600 ms
// answered 502 there); the faults below are set relative to it.
const DEADLINE_MS = 2_000;
const SLOWER_THAN_DEADLINE_MS = DEADLINE_MS * 2;

describe(`checkout (${ENGINE})`, () => {
  let h: Harness;
  let admin: Awaited<ReturnType<Harness['admin']>>;

  beforeAll(async () => {
    h = await startHarness({ checkoutDeadlineMs: DEADLINE_MS });
    admin = await h.admin();
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await h.stripe.faults.clear();
    await h.settle();
  });

  const member = () => h.user((b) => b.expiresAt(new Date(Date.now() + 5 * DAY)));
  const start = (token: string, planId: string) =>
    h.t.call('POST', '/api/v1/payments/checkout', { token, body: { planId } });
  const started = async (res: Response): Promise<CheckoutResponse> => {
    expect(res.status).toBe(200);
    return checkoutResponseSchema.parse(await res.json());
  };
  const row = async (id: string) =>
    (await h.t.context.db.select().from(payments).where(eq(payments.id, id)))[0]!;
  const rowsOf = (userId: string) =>
    h.t.context.db.select().from(payments).where(eq(payments.userId, userId));
  const createRequests = (paymentId: string) =>
    h.stripe.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/checkout/sessions' &&
        r.headers['idempotency-key'] === `checkout:${paymentId}`,
    );

  it('should open a session with parameters from the payment row, in whole yen, and reuse it', async () => {
    const plan = await h.plan(admin.token, {
      name: 'Yearly',
      days: 365,
      price: 5000,
      currency: 'jpy',
    });
    const m = await member();
    const first = await started(await start(m.token, plan.id));
    const stored = await row(first.paymentId);
    expect(stored).toMatchObject({
      status: 'pending',
      amount: 5000,
      currency: 'jpy',
      days: 365,
      planName: 'Yearly',
      username: m.username,
      checkoutUrl: first.url,
    });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(30 * 60_000);
    const [sent] = createRequests(first.paymentId);
    expect(sent!.body).toEqual({
      mode: 'payment',
      line_items: [
        {
          price_data: {
            currency: 'jpy',
            unit_amount: '5000',
            product_data: {
              name: 'Yearly',
              description: `365 days of membership for ${m.username}`,
            },
          },
          quantity: '1',
        },
      ],
      success_url: `${WEB}/console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${WEB}/console/renewal?checkout=cancelled`,
      client_reference_id: first.paymentId,
      metadata: { paymentId: first.paymentId, userId: m.id, planId: plan.id, days: '365' },
      payment_intent_data: { metadata: { paymentId: first.paymentId } },
      expires_at: String(Math.floor((stored.expiresAt.getTime() + 60_000) / 1000)),
      locale: 'auto',
    });
    const session = h.stripe.session(stored.providerSessionId!);
    expect(session).toMatchObject({ amount_total: 5000, currency: 'jpy', url: first.url });

    // Again: the same payment and page, without asking Stripe.
    const again = await started(await start(m.token, plan.id));
    expect(again).toEqual(first);
    expect(createRequests(first.paymentId)).toHaveLength(1);
    const plans = memberPlansSchema.parse(
      await (await h.t.call('GET', '/api/v1/plans', { token: m.token })).json(),
    );
    expect(plans.paymentsEnabled).toBe(true);
    expect(plans.pending).toEqual([
      {
        planId: plan.id,
        paymentId: first.paymentId,
        checkoutUrl: first.url,
        expiresAt: first.expiresAt,
      },
    ]);
  });

  it('should charge three-decimal currencies in fils and refuse prices Stripe cannot take', async () => {
    const bad = await h.t.call('POST', '/api/v1/admin/plans', {
      token: admin.token,
      body: { name: 'Dinar', days: 30, price: 12345, currency: 'kwd' },
    });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'price' }],
    });
    const plan = await h.plan(admin.token, { name: 'Dinar', price: 12340, currency: 'kwd' });
    const m = await member();
    const res = await started(await start(m.token, plan.id));
    const [sent] = createRequests(res.paymentId);
    expect(sent!.body).toMatchObject({
      line_items: [{ price_data: { currency: 'kwd', unit_amount: '12340' } }],
    });
    expect(sent!.status).toBe(200);
  });

  it('should answer 404 PLAN_NOT_FOUND for a withdrawn plan and expire its pending payments', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    const open = await started(await start(m.token, plan.id));
    const sessionId = (await row(open.paymentId)).providerSessionId!;

    const withdrawn = await h.t.call('DELETE', `/api/v1/admin/plans/${plan.id}`, {
      token: admin.token,
    });
    expect(withdrawn.status).toBe(200);
    expect(await withdrawn.json()).toMatchObject({ id: plan.id, isActive: false });
    await h.settle();
    expect(await row(open.paymentId)).toMatchObject({
      status: 'expired',
      statusReason: 'plan withdrawn',
    });
    expect(h.stripe.session(sessionId).status).toBe('expired');

    const refused = await start(m.token, plan.id);
    expect(refused.status).toBe(404);
    expect(await errorOf(refused)).toMatchObject({
      code: 'PLAN_NOT_FOUND',
      message: 'No such plan',
    });
    for (const id of ['not-a-uuid', '0190aaaa-0000-7000-8000-000000000000']) {
      expect((await start(m.token, id)).status).toBe(404);
    }
    expect(await rowsOf(m.id)).toHaveLength(1);
  });

  it('should answer 502 when Stripe is down and take the same payment once it is back', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    await h.stripe.faults.down();
    const before = performance.now();
    const down = await start(m.token, plan.id);
    expect(performance.now() - before).toBeLessThan(DEADLINE_MS + 1500);
    expect(down.status).toBe(502);
    expect(await errorOf(down)).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      details: { system: 'stripe' },
    });
    const [waiting] = await rowsOf(m.id);
    expect(waiting).toMatchObject({
      status: 'pending',
      checkoutUrl: null,
      providerSessionId: null,
    });

    await h.stripe.faults.up();
    const back = await started(await start(m.token, plan.id));
    expect(back.paymentId).toBe(waiting!.id);
    expect(h.stripe.session((await row(back.paymentId)).providerSessionId!).status).toBe('open');
  });

  it('should answer 502 within the deadline when Stripe hangs, and a retry sends identical parameters', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    h.stripe.faults.slow(SLOWER_THAN_DEADLINE_MS);
    const before = performance.now();
    const slow = await start(m.token, plan.id);
    const took = performance.now() - before;
    expect(slow.status).toBe(502);
    expect(await errorOf(slow)).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'Stripe did not answer in time',
      details: { system: 'stripe' },
    });
    expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(took).toBeLessThan(DEADLINE_MS + 1500);
    const [pending] = await rowsOf(m.id);

    // Stripe is quick again; the member retries while the first request is still in flight.
    h.stripe.faults.slow(0);
    const retry = await started(await start(m.token, plan.id));
    expect(retry.paymentId).toBe(pending!.id);
    await h.settle(); // the first request lands too, and is replayed under the same key
    const sent = createRequests(pending!.id);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body).toEqual(sent[1]!.body);
    expect(sent.map((r) => r.status)).toEqual([200, 200]);
    const sessions = [...h.stripe.sessions.values()].filter(
      (s) => s.client_reference_id === pending!.id,
    );
    expect(sessions).toHaveLength(1);
    expect(await row(pending!.id)).toMatchObject({
      providerSessionId: sessions[0]!.id,
      checkoutUrl: retry.url,
    });
  });

  it('should store a session that arrives after the deadline, for the next attempt', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    h.stripe.faults.slow(DEADLINE_MS + 1_000);
    expect((await start(m.token, plan.id)).status).toBe(502);
    h.stripe.faults.slow(0);
    const [pending] = await rowsOf(m.id);
    await eventually(async () => expect((await row(pending!.id)).checkoutUrl).not.toBeNull(), {
      timeoutMs: 10_000,
    });
    const next = await started(await start(m.token, plan.id));
    expect(next.paymentId).toBe(pending!.id);
    expect(createRequests(pending!.id)).toHaveLength(1);
  });

  it('should start a new payment when Stripe refuses the old key as used with other parameters', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    await h.stripe.faults.down();
    expect((await start(m.token, plan.id)).status).toBe(502);
    await h.stripe.faults.up();
    const [stuck] = await rowsOf(m.id);
    // An earlier attempt under this key reached Stripe with other parameters (say, before the
    // payment methods were changed) and its answer was lost.
    const sdk = new Stripe(h.stripe.secretKey, h.stripe.sdkConfig);
    await sdk.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            price_data: { currency: 'usd', unit_amount: 1, product_data: { name: 'x' } },
            quantity: 1,
          },
        ],
        success_url: `${WEB}/ok`,
      },
      { idempotencyKey: `checkout:${stuck!.id}` },
    );

    const res = await started(await start(m.token, plan.id));
    expect(res.paymentId).not.toBe(stuck!.id);
    const refused = createRequests(stuck!.id).at(-1)!;
    expect(refused.status).toBe(400);
    expect(await row(stuck!.id)).toMatchObject({ status: 'expired', checkoutUrl: null });
    expect((await row(res.paymentId)).status).toBe('pending');
  });

  it('should expire a stale pending payment and its session, and open a new one', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    const first = await started(await start(m.token, plan.id));
    await h.t.context.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.id, first.paymentId));
    const second = await started(await start(m.token, plan.id));
    expect(second.paymentId).not.toBe(first.paymentId);
    await h.settle();
    expect(await row(first.paymentId)).toMatchObject({
      status: 'expired',
      statusReason: 'checkout window passed',
    });
    expect(h.stripe.session((await row(first.paymentId)).providerSessionId!).status).toBe(
      'expired',
    );
  });

  it('should expire pending payments past their window in the payments_expire job', async () => {
    const plan = await h.plan(admin.token);
    const m = await member();
    const open = await started(await start(m.token, plan.id));
    const sessionId = (await row(open.paymentId)).providerSessionId!;
    expect((await runPaymentsExpire(h.t.context)).summary).toMatchObject({ expired: 0 });
    await h.t.context.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.id, open.paymentId));
    const outcome = await runPaymentsExpire(h.t.context);
    expect(outcome.summary).toMatchObject({ sessionsExpired: 1, sessionsFailed: 0 });
    expect((await row(open.paymentId)).status).toBe('expired');
    expect(h.stripe.session(sessionId).status).toBe('expired');
    expect(h.t.context.scheduler.list().map((j) => j.name)).toContain('payments_expire');
  });

  it('should refuse admins and never-expiring members, and answer 503 while Stripe is not set up', async () => {
    const plan = await h.plan(admin.token);
    const adminRes = await start(admin.token, plan.id);
    expect(adminRes.status).toBe(422);
    expect((await errorOf(adminRes)).code).toBe('ACCOUNT_NOT_RENEWABLE');
    const forever = await h.user((b) => b.neverExpires());
    const foreverRes = await start(forever.token, plan.id);
    expect(foreverRes.status).toBe(422);
    expect((await errorOf(foreverRes)).code).toBe('ACCOUNT_NEVER_EXPIRES');

    const unset = h.appWith({ STRIPE_SECRET_KEY: '' });
    const m = await member();
    const res = await unset.call('POST', '/api/v1/payments/checkout', {
      token: m.token,
      body: { planId: plan.id },
    });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({
      code: 'NOT_CONFIGURED',
      details: { system: 'stripe' },
    });
    expect(await rowsOf(m.id)).toEqual([]);
    for (const id of [admin.id, forever.id]) expect(await rowsOf(id)).toEqual([]);
    const plans = memberPlansSchema.parse(
      await (await unset.call('GET', '/api/v1/plans', { token: m.token })).json(),
    );
    expect(plans.paymentsEnabled).toBe(false);
  });

  it('should count every checkout attempt, 10 per member in 10 minutes, in parallel too', async () => {
    const m = await member();
    const missing = '0190aaaa-0000-7000-8000-00000000abcd';
    const replies = await Promise.all(Array.from({ length: 12 }, () => start(m.token, missing)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(404), 429, 429]);
    const limited = replies.find((r) => r.status === 429)!;
    expect(await errorOf(limited)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('should say paymentsEnabled on the public site only with Stripe ready and a plan on sale', async () => {
    const fresh = await startHarness();
    try {
      const site = async (app = fresh.t) =>
        publicSiteSchema.parse(await (await app.call('GET', '/api/v1/public/site')).json());
      expect((await site()).paymentsEnabled).toBe(false);
      const a = await fresh.admin();
      const plan = await fresh.plan(a.token);
      expect((await site()).paymentsEnabled).toBe(true);
      expect((await site(fresh.appWith({ PUBLIC_WEB_URL: '' }))).paymentsEnabled).toBe(false);
      expect((await site(fresh.appWith({ STRIPE_SECRET_KEY: 'nonsense' }))).paymentsEnabled).toBe(
        false,
      );
      await fresh.t.call('DELETE', `/api/v1/admin/plans/${plan.id}`, { token: a.token });
      expect((await site()).paymentsEnabled).toBe(false);
    } finally {
      await fresh.close();
    }
  });
});
