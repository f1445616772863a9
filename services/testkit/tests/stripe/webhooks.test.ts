import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import {
  startFakeStripe,
  stripeSignatureHeader,
  type FakeStripe,
  type StripeEvent,
} from '../../src/stripe/index.js';

interface Received {
  raw: string;
  signature: string;
  contentType: string;
}

/** A webhook endpoint that keeps the raw body, as Usher's route must (spec 50 §5). */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
        contentType: String(req.headers['content-type']),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/webhooks/stripe`;
  return { url, received, close: () => new Promise((r) => server.close(r)) };
}

describe('fake Stripe webhooks and hosted page', () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeEach(async () => {
    receiver = await startReceiver();
    fake = await startFakeStripe({ webhookUrl: receiver.url });
    stripe = new Stripe(fake.secretKey, fake.sdkConfig);
  });
  afterEach(async () => {
    await fake.close();
    await receiver.close();
  });

  const createSession = () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'eur', unit_amount: 900, product_data: { name: 'Plan' } },
          quantity: 1,
        },
      ],
      success_url: 'https://usher.example/ok?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://usher.example/cancelled',
      metadata: { paymentId: 'pay_9' },
    });

  const verify = (r: Received, tolerance = 300) =>
    stripe.webhooks.constructEvent(r.raw, r.signature, fake.webhookSecret, tolerance);

  it('should sign a paid completed event that constructEvent accepts', async () => {
    const session = await createSession();

    const { delivery } = await fake.pay(session.id);
    const event = verify(receiver.received[0]!);

    expect(delivery?.status).toBe(200);
    expect(receiver.received[0]!.contentType).toBe('application/json; charset=utf-8');
    expect(receiver.received[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(event).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^evt_/),
        object: 'event',
        type: 'checkout.session.completed',
        livemode: false,
        api_version: Stripe.API_VERSION,
      }),
    );
    const object = event.data.object as Stripe.Checkout.Session;
    expect(object).toEqual(
      expect.objectContaining({
        id: session.id,
        status: 'complete',
        payment_status: 'paid',
        payment_intent: expect.stringMatching(/^pi_/),
        metadata: { paymentId: 'pay_9' },
      }),
    );
  });

  it('should produce the same header as the SDK test helper', () => {
    const payload = '{"id":"evt_1"}';
    const timestamp = 1_700_000_000;

    const ours = stripeSignatureHeader(payload, [fake.webhookSecret], timestamp);
    const sdk = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: fake.webhookSecret,
      timestamp,
    });

    expect(ours).toBe(sdk);
  });

  it('should be rejected by constructEvent when one byte of the body changes', async () => {
    const session = await createSession();
    await fake.pay(session.id);
    const original = receiver.received[0]!;

    const tampered = { ...original, raw: original.raw.replace('"paid"', '"Paid"') };

    expect(() => verify(tampered)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => verify(original)).not.toThrow();
  });

  it('should send pretty-printed JSON, so re-serialised bodies fail verification', async () => {
    const session = await createSession();
    await fake.pay(session.id);
    const original = receiver.received[0]!;

    const reserialised = { ...original, raw: JSON.stringify(JSON.parse(original.raw)) };

    expect(original.raw).toContain('\n  "object": "event"');
    expect(() => verify(reserialised)).toThrow(
      /No signatures found matching the expected signature/,
    );
  });

  it('should be rejected as too old when signed 301 seconds ago', async () => {
    const session = await createSession();
    fake.markPaid(session.id);
    const event = fake.createEvent('checkout.session.completed', session.id);

    await fake.sendEvent(event, Math.floor(Date.now() / 1000) - 301);

    expect(() => verify(receiver.received[0]!)).toThrow(/Timestamp outside the tolerance zone/);
  });

  it('should leave a delayed payment unpaid, then send async success or failure', async () => {
    const a = await createSession();
    const b = await createSession();

    await fake.payLater(a.id);
    await fake.settleAsync(a.id, 'succeeded');
    await fake.payLater(b.id);
    await fake.settleAsync(b.id, 'failed');
    const events = receiver.received.map((r) => verify(r) as unknown as StripeEvent);

    expect(events.map((e) => [e.type, e.data.object.id, e.data.object.payment_status])).toEqual([
      ['checkout.session.completed', a.id, 'unpaid'],
      ['checkout.session.async_payment_succeeded', a.id, 'paid'],
      ['checkout.session.completed', b.id, 'unpaid'],
      ['checkout.session.async_payment_failed', b.id, 'unpaid'],
    ]);
  });

  it('should send checkout.session.expired after an API expire, with the request key', async () => {
    const session = await createSession();

    await stripe.checkout.sessions.expire(
      session.id,
      {},
      { idempotencyKey: `expire:${session.id}` },
    );
    await fake.settled();
    const event = verify(receiver.received[0]!) as unknown as StripeEvent;

    expect(event.type).toBe('checkout.session.expired');
    expect(event.request).toEqual({
      id: expect.stringMatching(/^req_/),
      idempotency_key: `expire:${session.id}`,
    });
    expect(event.data.object.status).toBe('expired');
  });

  it('should redeliver the same event id and payload', async () => {
    const session = await createSession();
    const { event } = await fake.pay(session.id);

    await fake.redeliver(event.id);
    const [first, second] = receiver.received.map((r) => verify(r));

    expect(receiver.received).toHaveLength(2);
    expect(second!.id).toBe(first!.id);
    expect(receiver.received[1]!.raw).toBe(receiver.received[0]!.raw);
  });

  it('should sign with every active secret while one is rolled', async () => {
    const rolled = await startFakeStripe({
      webhookUrl: receiver.url,
      extraWebhookSecrets: ['whsec_old'],
    });
    const client = new Stripe(rolled.secretKey, rolled.sdkConfig);
    const session = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: 1, product_data: { name: 'x' } },
          quantity: 1,
        },
      ],
    });

    await rolled.pay(session.id);
    await rolled.close();
    const r = receiver.received[0]!;

    expect(r.signature.match(/v1=/g)).toHaveLength(2);
    expect(() => stripe.webhooks.constructEvent(r.raw, r.signature, 'whsec_old')).not.toThrow();
  });

  it('should expire sessions whose expires_at passed on the fake clock', async () => {
    let clock = Date.now();
    const timed = await startFakeStripe({ webhookUrl: receiver.url, now: () => clock });
    const client = new Stripe(timed.secretKey, timed.sdkConfig);
    const session = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: 1, product_data: { name: 'x' } },
          quantity: 1,
        },
      ],
      expires_at: Math.floor(clock / 1000) + 31 * 60,
    });

    const early = await timed.expireDue();
    clock += 32 * 60 * 1000;
    const due = await timed.expireDue();
    await timed.close();

    expect(early).toEqual([]);
    expect(due.map((d) => [d.session.id, d.event.type])).toEqual([
      [session.id, 'checkout.session.expired'],
    ]);
  });

  it('should serve a hosted page whose Pay button completes, signs and redirects', async () => {
    const session = await createSession();

    const page = await fetch(session.url!);
    const html = await page.text();
    const pay = await fetch(`${fake.url}/c/pay/${session.id}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });

    expect(html).toContain(`action="/c/pay/${session.id}/pay"`);
    expect(html).toContain('9.00 EUR');
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(`https://usher.example/ok?session_id=${session.id}`);
    expect(verify(receiver.received[0]!).type).toBe('checkout.session.completed');
  });

  it('should send the customer to cancel_url on Cancel and keep the session open', async () => {
    const session = await createSession();

    const cancel = await fetch(`${fake.url}/c/pay/${session.id}/cancel`, {
      method: 'POST',
      redirect: 'manual',
    });

    expect(cancel.headers.get('location')).toBe('https://usher.example/cancelled');
    expect(fake.session(session.id).status).toBe('open');
    expect(receiver.received).toEqual([]);
  });
});
