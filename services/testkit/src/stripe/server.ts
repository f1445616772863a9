import type http from 'node:http';
import { readRawBody } from '../fake-server/body.js';
import { startFakeHttpServer, type FaultSwitches } from '../fake-server/http-server.js';
import { sendJson, sendText, type RecordedRequest } from '../fake-server/reply.js';
import { createApiHandler } from './api.js';
import { StripeApiError } from './errors.js';
import {
  buildEvent,
  postEvent,
  type CheckoutEventType,
  type StripeEvent,
  type WebhookDelivery,
} from './events.js';
import { redirectAfter, renderHostedPage, type HostedAction } from './hosted-page.js';
import {
  completeSession,
  expireSession,
  settleSession,
  stripeId,
  type CheckoutSession,
  type Completion,
} from './sessions.js';

export interface FakeStripeOptions {
  secretKey?: string;
  /** The endpoint secret events are signed with (`whsec_…`). */
  webhookSecret?: string;
  /** Older secrets still signed with during a roll: each adds a `v1=` to the header. */
  extraWebhookSecrets?: string[];
  /** Where events are delivered; while unset, events are only recorded. */
  webhookUrl?: string;
  /** `api_version` of events whose session was created without a Stripe-Version header. */
  apiVersion?: string;
  /** Clock in ms (session creation, the expires_at window, event timestamps). */
  now?: () => number;
}

export interface ActionResult {
  session: CheckoutSession;
  event: StripeEvent;
  delivery: WebhookDelivery | null;
}

export interface FakeStripe {
  readonly url: string;
  /** For the SDK: `new Stripe(key, { ...fake.sdkConfig })` (STRIPE_API_BASE in Usher). */
  readonly sdkConfig: { host: string; port: number; protocol: 'http'; maxNetworkRetries: number };
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly sessions: Map<string, CheckoutSession>;
  readonly requests: RecordedRequest[];
  readonly events: StripeEvent[];
  readonly deliveries: WebhookDelivery[];
  readonly faults: FaultSwitches;
  setWebhookUrl(url: string | null): void;
  /** The stored session (live object); throws Stripe's 404 error for an unknown id. */
  session(id: string): CheckoutSession;
  /** The customer pays by card: complete + paid, then `checkout.session.completed`. */
  pay(id: string): Promise<ActionResult>;
  /** The customer picks a delayed method: complete + unpaid, then `completed`. */
  payLater(id: string): Promise<ActionResult>;
  /** The delayed payment settles: `async_payment_succeeded` or `async_payment_failed`. */
  settleAsync(id: string, outcome: 'succeeded' | 'failed'): Promise<ActionResult>;
  /** Stripe expires the session (as at expires_at): `checkout.session.expired`. */
  expire(id: string): Promise<ActionResult>;
  /** Expires every open session whose expires_at has passed on the fake's clock. */
  expireDue(): Promise<ActionResult[]>;
  /** Changes the session as the customer would, sending nothing (send an event yourself). */
  markPaid(id: string, how?: Completion): CheckoutSession;
  /** Builds (and records) an event carrying a snapshot of the session. */
  createEvent(type: CheckoutEventType, id: string): StripeEvent;
  /** Signs and posts an event; `timestampSeconds` lets tests send stale signatures. */
  sendEvent(event: StripeEvent, timestampSeconds?: number): Promise<WebhookDelivery | null>;
  /** Sends a recorded event again: same id, same payload (at-least-once delivery). */
  redeliver(eventId: string): Promise<WebhookDelivery | null>;
  /** Resolves once background deliveries (after an API expire) are done. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_VERSION = '2025-03-31.basil';

/** Starts a fake Stripe API (checkout sessions), its hosted page and a webhook sender. */
export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? 'sk_test_51UsherFakeKey0000000000000000';
  const webhookSecret = options.webhookSecret ?? 'whsec_usherFakeEndpointSecret000000000000';
  const secrets = [webhookSecret, ...(options.extraWebhookSecrets ?? [])];
  const now = options.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  let webhookUrl: string | null = options.webhookUrl ?? null;
  const sessions = new Map<string, CheckoutSession>();
  const versions = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const events: StripeEvent[] = [];
  const deliveries: WebhookDelivery[] = [];
  const background = new Set<Promise<unknown>>();
  let baseUrl = '';

  function session(id: string): CheckoutSession {
    const found = sessions.get(id);
    if (found) return found;
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `No such checkout.session: '${id}'`,
      'session',
      'resource_missing',
    );
  }

  function createEvent(
    type: CheckoutEventType,
    id: string,
    request?: { id: string; key?: string },
  ) {
    const event = buildEvent(type, session(id), {
      apiVersion: versions.get(id) ?? options.apiVersion ?? DEFAULT_VERSION,
      createdSeconds: seconds(),
      requestId: request?.id,
      idempotencyKey: request?.key,
    });
    events.push(event);
    return event;
  }

  async function sendEvent(event: StripeEvent, timestampSeconds = seconds()) {
    if (!webhookUrl) return null;
    const delivery = await postEvent(webhookUrl, event, secrets, timestampSeconds);
    deliveries.push(delivery);
    return delivery;
  }

  async function act(id: string, type: CheckoutEventType, change: (s: CheckoutSession) => void) {
    const target = session(id);
    change(target);
    const event = createEvent(type, id);
    return { session: target, event, delivery: await sendEvent(event) };
  }

  const actions = {
    pay: (id: string) => act(id, 'checkout.session.completed', (s) => completeSession(s, 'paid')),
    payLater: (id: string) =>
      act(id, 'checkout.session.completed', (s) => completeSession(s, 'async_pending')),
    settleAsync: (id: string, outcome: 'succeeded' | 'failed') =>
      act(id, `checkout.session.async_payment_${outcome}`, (s) => settleSession(s, outcome)),
    expire: (id: string) => act(id, 'checkout.session.expired', expireSession),
  };

  const handleApi = createApiHandler({
    secretKey,
    defaultVersion: options.apiVersion ?? DEFAULT_VERSION,
    sessions,
    versions,
    requests,
    seconds,
    now,
    baseUrl: () => baseUrl,
    session,
    onExpired(target, request) {
      // Stripe also sends checkout.session.expired for API expiries, after answering.
      const sending = sendEvent(createEvent('checkout.session.expired', target.id, request));
      background.add(sending);
      void sending.finally(() => background.delete(sending));
    },
  });

  async function handleHosted(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const match = /^\/c\/pay\/([^/]+)(?:\/([a-z-]+))?$/.exec(url.pathname);
    const found = match ? sessions.get(match[1]!) : undefined;
    if (!match || !found) return sendText(res, 404, 'This checkout session does not exist.');
    if (req.method === 'GET' && !match[2]) {
      return sendText(res, 200, renderHostedPage(found), 'text/html; charset=utf-8');
    }
    await readRawBody(req);
    const action = match[2] as HostedAction;
    const run: Partial<Record<HostedAction, () => Promise<unknown>>> = {
      pay: () => actions.pay(found.id),
      'pay-later': () => actions.payLater(found.id),
      'async-succeed': () => actions.settleAsync(found.id, 'succeeded'),
      'async-fail': () => actions.settleAsync(found.id, 'failed'),
      expire: () => actions.expire(found.id),
      // Cancelling only sends the customer back: the session stays open until it expires.
      cancel: async () => undefined,
    };
    const step = run[action];
    if (!step || req.method !== 'POST') return sendText(res, 404, 'Unknown action');
    // A refused step (paying an expired session) leaves the customer on the page.
    const done = await step().then(
      () => true,
      () => false,
    );
    const location = done ? redirectAfter(found, action) : `/c/pay/${found.id}`;
    res.writeHead(303, { location, 'content-length': '0' });
    res.end();
  }

  const server = await startFakeHttpServer(
    async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname.startsWith('/c/pay/')) return handleHosted(req, res, url);
      return handleApi(req, res, url);
    },
    {
      failReply: (res, status) =>
        sendJson(
          res,
          status,
          new StripeApiError(status, 'api_error', 'An unknown error occurred').toBody(
            stripeId('req_', 14),
          ),
        ),
    },
  );
  baseUrl = server.url;

  return {
    url: server.url,
    sdkConfig: { host: '127.0.0.1', port: server.port, protocol: 'http', maxNetworkRetries: 0 },
    secretKey,
    webhookSecret,
    sessions,
    requests,
    events,
    deliveries,
    faults: server.faults,
    setWebhookUrl: (url) => void (webhookUrl = url),
    session,
    ...actions,
    async expireDue() {
      const due = [...sessions.values()].filter(
        (s) => s.status === 'open' && s.expires_at <= seconds(),
      );
      const results: ActionResult[] = [];
      for (const s of due) results.push(await actions.expire(s.id));
      return results;
    },
    markPaid(id, how = 'paid') {
      const target = session(id);
      completeSession(target, how);
      return target;
    },
    createEvent: (type, id) => createEvent(type, id),
    sendEvent,
    async redeliver(eventId) {
      const event = events.find((e) => e.id === eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      return sendEvent(event);
    },
    async settled() {
      await Promise.all([...background]);
    },
    close: () => server.close(),
  };
}
