import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '../../src/stripe/index.js';

/** The parameters Usher's adapter sends (spec 50 §5), built as stripe-node receives them. */
function usherParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    mode: 'payment',
    line_items: [
      {
        price_data: {
          currency: 'usd',
          unit_amount: 1500,
          product_data: { name: 'Monthly plan', description: '30 days of access' },
        },
        quantity: 1,
      },
    ],
    success_url:
      'https://usher.example/console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://usher.example/console/renewal?checkout=cancelled',
    client_reference_id: 'pay_123',
    customer_email: 'member@example.org',
    metadata: { paymentId: 'pay_123', userId: 'u_1', planId: 'monthly', days: '30' },
    payment_intent_data: { metadata: { paymentId: 'pay_123' } },
    expires_at: now + 31 * 60,
    locale: 'en',
    ...overrides,
  } as Stripe.Checkout.SessionCreateParams;
}

describe('fake Stripe API driven by the official SDK', () => {
  let fake: FakeStripe;
  let stripe: Stripe;

  beforeEach(async () => {
    fake = await startFakeStripe();
    stripe = new Stripe(fake.secretKey, { ...fake.sdkConfig, appInfo: { name: 'Usher' } });
  });
  afterEach(() => fake.close());

  it('should create a checkout session from nested form params like Stripe', async () => {
    const session = await stripe.checkout.sessions.create(usherParams(), {
      idempotencyKey: 'checkout:pay_123',
    });

    expect(session).toEqual(
      expect.objectContaining({
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: 1500,
        currency: 'usd',
        client_reference_id: 'pay_123',
        metadata: { paymentId: 'pay_123', userId: 'u_1', planId: 'monthly', days: '30' },
        url: `${fake.url}/c/pay/${session.id}`,
      }),
    );
    expect(session.id).toMatch(/^cs_test_/);
    const request = fake.requests.at(-1)!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(request.headers['idempotency-key']).toBe('checkout:pay_123');
    expect(request.headers['stripe-version']).toBe(Stripe.API_VERSION);
    expect(request.body).toEqual(
      expect.objectContaining({
        line_items: [
          {
            price_data: {
              currency: 'usd',
              unit_amount: '1500',
              product_data: { name: 'Monthly plan', description: '30 days of access' },
            },
            quantity: '1',
          },
        ],
        payment_intent_data: { metadata: { paymentId: 'pay_123' } },
      }),
    );
  });

  it('should retrieve a session and answer 404 resource_missing for an unknown id', async () => {
    const created = await stripe.checkout.sessions.create(usherParams());

    const read = await stripe.checkout.sessions.retrieve(created.id);
    const missing = await stripe.checkout.sessions
      .retrieve('cs_test_nope')
      .catch((e: unknown) => e);

    expect(read).toEqual(expect.objectContaining({ id: created.id, status: 'open' }));
    expect(missing).toEqual(
      expect.objectContaining({
        type: 'StripeInvalidRequestError',
        statusCode: 404,
        code: 'resource_missing',
        message: "No such checkout.session: 'cs_test_nope'",
      }),
    );
  });

  it('should expire an open session once and refuse to expire it again', async () => {
    const created = await stripe.checkout.sessions.create(usherParams());

    const expired = await stripe.checkout.sessions.expire(
      created.id,
      {},
      { idempotencyKey: `expire:${created.id}` },
    );
    const again = await stripe.checkout.sessions.expire(created.id).catch((e: unknown) => e);

    expect(expired).toEqual(expect.objectContaining({ status: 'expired', url: null }));
    expect(again).toEqual(
      expect.objectContaining({
        type: 'StripeInvalidRequestError',
        statusCode: 400,
        message:
          "Only Checkout Sessions with a status in ['open'] can be expired. " +
          'This Checkout Session has a status of expired.',
      }),
    );
  });

  it('should replay the same session for a reused key with the same params', async () => {
    const params = usherParams();

    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout:p1' });
    const second = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout:p1' });

    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(fake.sessions.size).toBe(1);
  });

  it('should refuse a reused Idempotency-Key with different params', async () => {
    await stripe.checkout.sessions.create(usherParams(), { idempotencyKey: 'checkout:p2' });

    const error = await stripe.checkout.sessions
      .create(usherParams({ client_reference_id: 'other' }), { idempotencyKey: 'checkout:p2' })
      .catch((e: unknown) => e);

    expect(error).toEqual(
      expect.objectContaining({
        type: 'StripeIdempotencyError',
        statusCode: 400,
        message: expect.stringMatching(
          /^Keys for idempotent requests can only be used with the same parameters/,
        ),
      }),
    );
    expect(fake.sessions.size).toBe(1);
  });

  it('should refuse wrong (masked) and missing keys with 401', async () => {
    const wrong = new Stripe('sk_test_wrongwrongwrong1234', fake.sdkConfig);

    const error = await wrong.checkout.sessions.retrieve('cs_test_x').catch((e: unknown) => e);
    const bare = await fetch(`${fake.url}/v1/checkout/sessions/cs_test_x`);

    expect(error).toEqual(
      expect.objectContaining({
        type: 'StripeAuthenticationError',
        statusCode: 401,
        message: 'Invalid API Key provided: sk_test_***************1234',
      }),
    );
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: { message: string } }).error.message).toMatch(
      /^You did not provide an API key/,
    );
  });

  it.each([
    ['a missing mode', { mode: undefined }, 'mode', 'Missing required param: mode.'],
    ['an unknown parameter', { colour: 'blue' }, 'colour', 'Received unknown parameter: colour'],
    [
      'expires_at under 30 minutes',
      { expires_at: Math.floor(Date.now() / 1000) + 10 * 60 },
      'expires_at',
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
    ],
    [
      'expires_at over 24 hours',
      { expires_at: Math.floor(Date.now() / 1000) + 25 * 3600 },
      'expires_at',
      'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
    ],
    [
      'a missing currency',
      {
        line_items: [{ price_data: { unit_amount: 5, product_data: { name: 'x' } }, quantity: 1 }],
      },
      'line_items[0][price_data][currency]',
      'Missing required param: line_items[0][price_data][currency].',
    ],
    ['a bad email', { customer_email: 'nope' }, 'customer_email', 'Invalid email address: nope'],
    [
      'wechat_pay without a client',
      { payment_method_types: ['card', 'wechat_pay'] },
      'payment_method_options[wechat_pay][client]',
      'Missing required param: payment_method_options[wechat_pay][client].',
    ],
  ])(
    'should refuse %s with a Stripe invalid_request_error',
    async (_what, overrides, param, message) => {
      const error = await stripe.checkout.sessions
        .create(usherParams(overrides as Partial<Stripe.Checkout.SessionCreateParams>))
        .catch((e: unknown) => e);

      expect(error).toEqual(
        expect.objectContaining({
          type: 'StripeInvalidRequestError',
          statusCode: 400,
          param,
          message,
        }),
      );
      expect(fake.sessions.size).toBe(0);
    },
  );

  it('should take zero- and three-decimal currencies as Stripe counts them', async () => {
    const priced = (currency: string, unit_amount: number) =>
      usherParams({
        line_items: [
          { price_data: { currency, unit_amount, product_data: { name: 'Plan' } }, quantity: 1 },
        ],
      });
    const yen = await stripe.checkout.sessions.create(priced('jpy', 500));
    expect(yen).toMatchObject({ amount_total: 500, currency: 'jpy' });
    const dinar = await stripe.checkout.sessions.create(priced('kwd', 12340));
    expect(dinar).toMatchObject({ amount_total: 12340, currency: 'kwd' });
    await expect(stripe.checkout.sessions.create(priced('kwd', 12345))).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      param: 'line_items[0][price_data][unit_amount]',
    });
    const page = async (id: string) => (await fetch(`${fake.url}/c/pay/${id}`)).text();
    expect(await page(yen.id)).toContain('500 JPY');
    expect(await page(dinar.id)).toContain('12.340 KWD');
  });

  it('should not save a validation failure for Idempotency-Key replay', async () => {
    const bad = usherParams({ customer_email: 'nope' });
    await stripe.checkout.sessions
      .create(bad, { idempotencyKey: 'k-retry' })
      .catch(() => undefined);

    const fixed = await stripe.checkout.sessions
      .create(usherParams(), { idempotencyKey: 'k-retry' })
      .catch((e: unknown) => e);

    expect(fixed).toEqual(expect.objectContaining({ object: 'checkout.session' }));
  });

  it('should answer Stripe api_error bodies while failing', async () => {
    fake.faults.fail(500);

    const error = await stripe.checkout.sessions.retrieve('cs_test_x').catch((e: unknown) => e);

    expect(error).toEqual(expect.objectContaining({ type: 'StripeAPIError', statusCode: 500 }));
  });
});
