// Webhook events as Stripe builds, signs and delivers them. The payload is sent pretty-printed
// (two-space JSON, as Stripe does), so a receiver that re-serialises parsed JSON breaks the
// signature exactly as it would in production.
import { createHmac } from 'node:crypto';
import type { CheckoutSession } from './sessions.js';
import { stripeId } from './sessions.js';

export type CheckoutEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: CheckoutSession };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: CheckoutEventType;
}

export interface WebhookDelivery {
  eventId: string;
  type: CheckoutEventType;
  /** The exact bytes posted (and signed). */
  payload: string;
  signature: string;
  /** HTTP status from the receiver; 0 when the connection failed. */
  status: number;
  body: string;
  error?: string;
  at: Date;
}

export function buildEvent(
  type: CheckoutEventType,
  session: CheckoutSession,
  o: { apiVersion: string; createdSeconds: number; requestId?: string; idempotencyKey?: string },
): StripeEvent {
  return {
    id: stripeId('evt_1'),
    object: 'event',
    api_version: o.apiVersion,
    created: o.createdSeconds,
    // A snapshot: later changes to the session must not rewrite an event already sent.
    data: { object: structuredClone(session) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: o.requestId ?? null, idempotency_key: o.idempotencyKey ?? null },
    type,
  };
}

/**
 * The `Stripe-Signature` header: `t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">`, one `v1` per
 * secret (Stripe signs with every active secret while one is being rolled).
 */
export function stripeSignatureHeader(
  payload: string,
  secrets: string[],
  timestampSeconds: number,
): string {
  const signed = `${timestampSeconds}.${payload}`;
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`,
  );
  return [`t=${timestampSeconds}`, ...signatures].join(',');
}

export function serialiseEvent(event: StripeEvent): string {
  return JSON.stringify(event, null, 2);
}

/** Posts one event to a webhook endpoint the way Stripe does. */
export async function postEvent(
  url: string,
  event: StripeEvent,
  secrets: string[],
  timestampSeconds: number,
): Promise<WebhookDelivery> {
  const payload = serialiseEvent(event);
  const signature = stripeSignatureHeader(payload, secrets, timestampSeconds);
  const base = { eventId: event.id, type: event.type, payload, signature, at: new Date() };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        accept: '*/*; q=0.5, application/xml',
        'cache-control': 'no-cache',
      },
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
    return { ...base, status: response.status, body: await response.text() };
  } catch (error) {
    // Stripe records a failed attempt and retries later; the fake reports it to the test.
    return { ...base, status: 0, body: '', error: String(error) };
  }
}
