import { startFakeStripe, type FakeStripe } from '@usher/testkit';
import {
  CHECKOUT_LIFETIME_SECONDS,
  StripePayments,
} from '../../../src/integrations/payments/adapter.js';
import { parseStripeApiBase } from '../../../src/integrations/payments/client.js';
import {
  createPayments,
  PaymentsFactory,
  readStripeSettings,
} from '../../../src/integrations/payments/factory.js';
import type { CheckoutInput, StripeSettings } from '../../../src/integrations/payments/types.js';
import { integrationDeps, integrationError, MapSettings } from '../support.js';

const WEB = 'https://media.example.org';

describe('Stripe adapter against the fake', () => {
  let fake: FakeStripe;

  beforeAll(async () => {
    fake = await startFakeStripe();
  });
  afterAll(() => fake.close());
  afterEach(async () => {
    await fake.faults.clear();
    fake.requests.length = 0;
  });

  const settings = (over: Partial<StripeSettings> = {}): StripeSettings => ({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    successUrl: `${WEB}/console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${WEB}/console/renewal?checkout=cancelled`,
    paymentMethods: [],
    apiBase: fake.url,
    ...over,
  });
  let counter = 0;
  const checkout = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
    paymentId: `0190aaaa-0000-7000-8000-${String(++counter).padStart(12, '0')}`,
    userId: '0190bbbb-0000-7000-8000-000000000001',
    planId: '0190cccc-0000-7000-8000-000000000001',
    days: 30,
    amount: 500,
    currency: 'usd',
    productName: 'Monthly',
    productDescription: '30 days of access',
    customerEmail: 'member@example.org',
    locale: 'en',
    ...over,
  });

  it('should probe by listing one session and report test mode', async () => {
    const probe = await new StripePayments(settings()).probe();

    expect(probe).toEqual({
      ok: true,
      message: 'Stripe accepted the key (test mode)',
      details: [],
    });
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/checkout/sessions',
      query: { limit: '1' },
    });
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
  });

  it('should report a refused key (401) as auth without leaking it', async () => {
    const { deps, logs } = integrationDeps();
    const wrong = 'sk_test_wrongwrongwrongwrong9876';
    const payments = new StripePayments(settings({ secretKey: wrong }), deps);

    const probe = await payments.probe();
    const error = await integrationError(payments.retrieveCheckoutSession('cs_test_x'));

    expect(probe).toMatchObject({
      ok: false,
      kind: 'auth',
      message: 'Stripe refused the secret key (401)',
    });
    expect(error).toMatchObject({ kind: 'auth', status: 401, system: 'stripe' });
    expect(error.toAppError().code).toBe('UPSTREAM_AUTH_FAILED');
    expect(JSON.stringify([probe, error, error.upstreamMessage, logs.text()])).not.toContain(wrong);
  });

  it('should create a session with the exact parameters and key checkout:<paymentId>', async () => {
    const now = Date.now();
    const expiresAt = Math.floor(now / 1000) + CHECKOUT_LIFETIME_SECONDS;
    const input = checkout();
    const payments = new StripePayments(settings(), { now: () => new Date(now) });

    const session = await payments.createCheckoutSession(input);

    const request = fake.requests.at(-1)!;
    expect(request.headers['idempotency-key']).toBe(`checkout:${input.paymentId}`);
    expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request.body).toEqual({
      mode: 'payment',
      line_items: [
        {
          price_data: {
            currency: 'usd',
            unit_amount: '500',
            product_data: { name: 'Monthly', description: '30 days of access' },
          },
          quantity: '1',
        },
      ],
      success_url: `${WEB}/console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${WEB}/console/renewal?checkout=cancelled`,
      client_reference_id: input.paymentId,
      customer_email: 'member@example.org',
      metadata: {
        paymentId: input.paymentId,
        userId: input.userId,
        planId: input.planId,
        days: '30',
      },
      payment_intent_data: { metadata: { paymentId: input.paymentId } },
      expires_at: String(expiresAt),
      locale: 'en',
    });
    expect(session).toEqual({
      id: expect.stringMatching(/^cs_test_/),
      url: `${fake.url}/c/pay/${session.id}`,
      status: 'open',
      expiresAt: new Date(expiresAt * 1000),
    });
  });

  it('should replay the same session for the same payment (idempotent create)', async () => {
    const now = Date.now();
    const input = checkout();
    const payments = new StripePayments(settings(), { now: () => new Date(now) });

    const first = await payments.createCheckoutSession(input);
    const sessions = fake.sessions.size;
    const second = await payments.createCheckoutSession(input);
    const changed = await integrationError(
      payments.createCheckoutSession({ ...input, amount: 900 }),
    );

    const later = await new StripePayments(settings(), {
      now: () => new Date(now + 5_000),
    }).createCheckoutSession({ ...input, expiresAt: first.expiresAt });

    expect(second).toEqual(first);
    // A retry seconds later repeats the stored expiry, so it is a replay too.
    expect(later).toEqual(first);
    expect(fake.sessions.size).toBe(sessions);
    // The same key with other parameters is Stripe's idempotency error, never a second session.
    expect(changed).toMatchObject({ kind: 'http_4xx', status: 400 });
    expect(fake.sessions.size).toBe(sessions);
  });

  it('should send the allowed payment methods, with the WeChat Pay client', async () => {
    const payments = new StripePayments(settings({ paymentMethods: ['card', 'wechat_pay'] }));

    await payments.createCheckoutSession(checkout({ productDescription: '', customerEmail: null }));

    const body = fake.requests.at(-1)!.body as Record<string, unknown>;
    expect(body.allowed_payment_method_types).toEqual(['card', 'wechat_pay']);
    expect(body.payment_method_options).toEqual({ wechat_pay: { client: 'web' } });
    expect(body).not.toHaveProperty('payment_method_types');
    expect(body).not.toHaveProperty('customer_email');
    expect(
      (body.line_items as { price_data: { product_data: object } }[])[0]!.price_data.product_data,
    ).toEqual({ name: 'Monthly' });
  });

  it('should read a session back and expire it, counting a closed session as done', async () => {
    const payments = new StripePayments(settings());
    const open = await payments.createCheckoutSession(checkout());
    const paid = await payments.createCheckoutSession(checkout());
    fake.markPaid(paid.id);

    const state = await payments.retrieveCheckoutSession(paid.id);
    const expired = await payments.expireCheckoutSession(open.id);
    const again = await payments.expireCheckoutSession(open.id);
    const complete = await payments.expireCheckoutSession(paid.id);

    expect(state).toMatchObject({
      id: paid.id,
      status: 'complete',
      paymentStatus: 'paid',
      paymentIntent: expect.stringMatching(/^pi_/),
      amountTotal: 500,
      currency: 'usd',
    });
    expect(state.metadata).toMatchObject({ days: '30' });
    expect(expired).toEqual({ status: 'expired' });
    expect(again).toEqual({ status: 'expired' });
    expect(complete).toEqual({ status: 'complete' });
    const expire = fake.requests.find((r) => r.path.endsWith('/expire'))!;
    expect(expire.headers['idempotency-key']).toBe(`expire:${open.id}`);
  });

  it('should report an unknown session as not_found', async () => {
    const error = await integrationError(
      new StripePayments(settings()).retrieveCheckoutSession('cs_test_nope'),
    );

    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('should report Stripe down as network, slow as timeout, 500 as http_5xx', async () => {
    fake.faults.slow(600);
    const slow = await new StripePayments(settings(), {}, { timeoutMs: 200 }).probe();
    await fake.faults.clear();
    await fake.faults.down();
    const down = await new StripePayments(settings()).probe();
    await fake.faults.up();
    fake.faults.fail(500);
    const broken = await new StripePayments(settings()).probe();

    expect(slow).toMatchObject({ ok: false, kind: 'timeout' });
    expect(down).toMatchObject({ ok: false, kind: 'network', message: 'Stripe is unreachable' });
    expect(broken).toMatchObject({ ok: false, kind: 'http_5xx' });
  });

  it('should turn STRIPE_API_BASE into the SDK host, port and protocol', () => {
    expect(parseStripeApiBase('http://127.0.0.1:4242')).toEqual({
      host: '127.0.0.1',
      port: 4242,
      protocol: 'http',
    });
    expect(parseStripeApiBase('https://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
    expect(parseStripeApiBase('')).toBeNull();
    expect(parseStripeApiBase('not a url')).toBeNull();
  });

  it('should default return URLs from PUBLIC_WEB_URL; need key, secret, URLs', async () => {
    const values = new MapSettings({
      PUBLIC_WEB_URL: WEB,
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: '',
      STRIPE_SUCCESS_URL: '',
      STRIPE_CANCEL_URL: '',
      STRIPE_PAYMENT_METHODS: [],
    });
    const factory = new PaymentsFactory(values, fake.url);

    const read = await readStripeSettings(values, fake.url);
    const missing = await integrationError(factory.get());
    values.values.STRIPE_WEBHOOK_SECRET = fake.webhookSecret;
    const ready = await factory.get();

    expect(read.successUrl).toBe(settings().successUrl);
    expect(read.cancelUrl).toBe(settings().cancelUrl);
    expect(missing).toMatchObject({ kind: 'not_configured', system: 'stripe' });
    expect(missing.message).toContain('STRIPE_WEBHOOK_SECRET');
    expect(await factory.get()).toBe(ready);
    expect(() => createPayments({ ...read, successUrl: '', cancelUrl: '' })).toThrow(
      /STRIPE_SUCCESS_URL \(or PUBLIC_WEB_URL\)/,
    );
  });
});
