// The `/v1` REST surface: Bearer (or Basic) secret-key auth, form parameters, Idempotency-Key
// replay, and the three checkout-session routes Usher uses (plus a list for debugging).
import type http from 'node:http';
import { readRawBody } from '../fake-server/body.js';
import { sendJson, type RecordedRequest } from '../fake-server/reply.js';
import { invalid, invalidApiKey, noApiKey, StripeApiError } from './errors.js';
import { canonical, parseStripeForm, type FormObject } from './form.js';
import { buildSession, expireSession, stripeId, type CheckoutSession } from './sessions.js';
import { validateCreate } from './validate.js';

export interface ApiDeps {
  secretKey: string;
  defaultVersion: string;
  sessions: Map<string, CheckoutSession>;
  /** Stripe-Version each session was created with (its events use it). */
  versions: Map<string, string>;
  requests: RecordedRequest[];
  seconds(): number;
  now(): number;
  baseUrl(): string;
  session(id: string): CheckoutSession;
  /** Emits checkout.session.expired after an API expiry, without delaying the reply. */
  onExpired(session: CheckoutSession, request: { id: string; key?: string }): void;
}

interface Reply {
  status: number;
  body: unknown;
  /** Whether an Idempotency-Key may replay this result (Stripe saves executed requests only). */
  save: boolean;
}

interface Stored {
  path: string;
  params: string;
  status: number;
  body: unknown;
  requestId: string;
}

const idempotencyError = (what: string, key: string) =>
  new StripeApiError(
    400,
    'idempotency_error',
    `Keys for idempotent requests can only be used ${what}. Try using a key other than ` +
      `'${key}' if you meant to execute a different request.`,
  );

export function createApiHandler(deps: ApiDeps) {
  const stored = new Map<string, Stored>();

  function authenticate(req: http.IncomingMessage) {
    const [scheme, value] = (req.headers.authorization ?? '').split(' ');
    let key: string | undefined;
    if (scheme?.toLowerCase() === 'bearer') key = value;
    if (scheme?.toLowerCase() === 'basic' && value) {
      key = Buffer.from(value, 'base64').toString().split(':')[0];
    }
    if (!key) throw noApiKey();
    if (key !== deps.secretKey) throw invalidApiKey(key);
  }

  function route(
    method: string,
    path: string,
    params: FormObject,
    request: { id: string; key?: string; version: string },
  ): Reply {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      let checked;
      try {
        checked = validateCreate(params, deps.seconds());
      } catch (error) {
        // Parameter errors stop the request before it executes: nothing is saved for replay.
        if (!(error instanceof StripeApiError)) throw error;
        return { status: error.status, body: error.toBody(request.id), save: false };
      }
      const created = buildSession(params, checked, deps.seconds(), deps.baseUrl());
      deps.sessions.set(created.id, created);
      deps.versions.set(created.id, request.version);
      return { status: 200, body: created, save: true };
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (match && method === 'GET' && !match[2]) {
      return { status: 200, body: deps.session(match[1]!), save: false };
    }
    if (match && method === 'POST' && match[2]) {
      const target = deps.session(match[1]!);
      expireSession(target);
      deps.onExpired(target, request);
      return { status: 200, body: target, save: true };
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const data = [...deps.sessions.values()].reverse().slice(0, Number(params.limit ?? 10));
      return {
        status: 200,
        body: { object: 'list', data, has_more: false, url: path },
        save: false,
      };
    }
    throw invalid(
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or ` +
        'we can help at https://support.stripe.com/.',
    );
  }

  return async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const method = req.method ?? 'GET';
    const requestId = stripeId('req_', 14);
    const key = req.headers['idempotency-key'] as string | undefined;
    const version = (req.headers['stripe-version'] as string | undefined) ?? deps.defaultVersion;
    const headers: Record<string, string> = { 'request-id': requestId, 'stripe-version': version };
    if (key) headers['idempotency-key'] = key;
    const raw = (await readRawBody(req)).toString('utf8');
    const params = parseStripeForm(method === 'GET' ? url.search.slice(1) : raw);
    const fail = (error: unknown, save: boolean): Reply => {
      if (!(error instanceof StripeApiError)) throw error;
      return { status: error.status, body: error.toBody(requestId), save };
    };

    const previous = method === 'POST' && key ? stored.get(key) : undefined;
    const decide = (): Reply => {
      try {
        authenticate(req);
        if (previous && previous.path !== url.pathname) {
          throw idempotencyError('for the same endpoint they were first used for', key!);
        }
        if (previous && previous.params !== canonical(params)) {
          throw idempotencyError('with the same parameters they were first used with', key!);
        }
      } catch (error) {
        return fail(error, false);
      }
      if (previous) {
        headers['idempotent-replayed'] = 'true';
        headers['original-request'] = previous.requestId;
        return { status: previous.status, body: previous.body, save: false };
      }
      try {
        return route(method, url.pathname, params, { id: requestId, key, version });
      } catch (error) {
        // Errors raised while executing (not found, not expirable) are saved like successes.
        return fail(error, true);
      }
    };
    const reply = decide();
    // Snapshot the body: a replay must show the object as it was, not as it is now.
    const body = structuredClone(reply.body);
    if (method === 'POST' && key && reply.save) {
      stored.set(key, {
        path: url.pathname,
        params: canonical(params),
        status: reply.status,
        body,
        requestId,
      });
    }
    deps.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: params,
      status: reply.status,
      at: new Date(deps.now()),
    });
    sendJson(res, reply.status, body, headers);
  };
}
