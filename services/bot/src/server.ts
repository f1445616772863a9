/**
 * `createServer(deps)`: the bot's Hono app on port 8000 (40-bot.md §2) — health, metrics, the
 * API's notify pushes and Telegram's webhook. Used by main.ts and by every HTTP test.
 */
import { randomUUID } from 'node:crypto';
import {
  NOTIFY_BODY_SCHEMAS,
  NOTIFY_KINDS,
  type Delivery,
  type NotifyKind,
} from '@usher/contracts';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import type { Update } from 'telegraf/types';
import type { ApiClient } from './api-client.js';
import type { Bot } from './bot/context.js';
import type { BotConfig } from './config.js';
import type { BotMetrics } from './metrics.js';
import {
  notifyMember,
  notifyPayment,
  notifyRanking,
  notifyRegistration,
  notifySubscription,
  type NotifyDeps,
} from './notify.js';
import { secretMatches } from './secret.js';

export const BODY_LIMIT = 1024 * 1024;
export const WEBHOOK_ANSWER_AFTER_MS = 25_000;

/** Mutable state behind `/health`, written by the update mode (webhook registration, lease). */
export interface HealthState {
  updateMode: 'webhook' | 'polling';
  webhookRegistered: boolean;
  degraded: boolean;
  lastError?: string;
  attempts?: number;
  lease?: { held: boolean; expiresAt?: string };
}

export function initialHealth(mode: 'webhook' | 'polling'): HealthState {
  return { updateMode: mode, webhookRegistered: false, degraded: false };
}

/** Work still running (updates, notifies), so shutdown can wait for it. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    void promise.finally(() => this.running.delete(promise)).catch(() => undefined);
    return promise;
  }

  get size() {
    return this.running.size;
  }

  /** Resolves when everything finished or `ms` passed. */
  async drain(ms: number): Promise<void> {
    const deadline = new Promise((r) => setTimeout(r, ms).unref());
    await Promise.race([Promise.allSettled([...this.running]), deadline]);
  }
}

export interface ServerDeps {
  config: BotConfig;
  logger: Logger;
  metrics: BotMetrics;
  bot: Bot;
  /** Notify dependencies; `api` gets the notify's request id per call. */
  notify: Omit<NotifyDeps, 'api'> & { api: ApiClient };
  health: HealthState;
  inflight?: InFlight;
  /** Whether new requests are refused (shutdown). */
  closing?: () => boolean;
}

type Vars = { Variables: { requestId: string } };

function errorBody(
  c: Context<Vars>,
  status: number,
  code: string,
  message: string,
  details?: unknown,
) {
  return c.json(
    {
      error: {
        code,
        message,
        requestId: c.get('requestId'),
        ...(details === undefined ? {} : { details }),
      },
    },
    status as 400,
  );
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function createServer(deps: ServerDeps) {
  const app = new Hono<Vars>();
  const inflight = deps.inflight ?? new InFlight();

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : `bot-${randomUUID()}`;
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    if (deps.closing?.() && c.req.path !== '/health' && c.req.path !== '/metrics') {
      return errorBody(c, 503, 'SERVICE_UNAVAILABLE', 'The bot is shutting down');
    }
    await next();
    const route = c.req.routePath && c.req.routePath !== '/*' ? c.req.routePath : 'unmatched';
    deps.metrics.httpRequests.inc({ route, method: c.req.method, status: String(c.res.status) });
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: BODY_LIMIT,
      onError: (c) =>
        errorBody(c as Context<Vars>, 413, 'PAYLOAD_TOO_LARGE', 'The body is larger than 1 MiB'),
    }),
  );

  app.get('/health', (c) => {
    const h = deps.health;
    const body: Record<string, unknown> = {
      status: h.degraded ? 'degraded' : 'ok',
      updateMode: h.updateMode,
      webhookRegistered: h.webhookRegistered,
    };
    if (h.lease) body.lease = h.lease;
    if (h.degraded && h.lastError !== undefined) body.lastError = h.lastError;
    if (h.degraded && h.attempts !== undefined) body.attempts = h.attempts;
    return c.json(body, h.degraded ? 503 : 200);
  });

  app.get('/metrics', async (c) => {
    c.header('content-type', deps.metrics.registry.contentType);
    return c.body(await deps.metrics.registry.metrics());
  });

  app.post('/notify/:kind', async (c) => {
    if (!secretMatches(c.req.header('x-internal-secret'), deps.config.INTERNAL_API_SECRET)) {
      return errorBody(c, 401, 'INTERNAL_AUTH_FAILED', 'Missing or wrong X-Internal-Secret');
    }
    const kind = c.req.param('kind') as NotifyKind;
    if (!(NOTIFY_KINDS as readonly string[]).includes(kind)) {
      return errorBody(c, 404, 'NOT_FOUND', 'No such notify kind');
    }
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch (_error) {
      return errorBody(c, 400, 'VALIDATION_FAILED', 'The body is not JSON', [
        { path: '', message: 'Invalid JSON' },
      ]);
    }
    const parsed = NOTIFY_BODY_SCHEMAS[kind].safeParse(raw);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({
        path: i.path.join('.'),
        message: i.message,
      }));
      return errorBody(
        c,
        400,
        'VALIDATION_FAILED',
        'The body does not match the notify schema',
        details,
      );
    }
    const body = parsed.data as { eventId: string; event?: string };
    const event = body.event ?? kind;
    const started = performance.now();
    // Tracked, so shutdown waits; the work finishes even if the API stopped waiting.
    const notifyDeps: NotifyDeps = {
      ...deps.notify,
      api: deps.notify.api.forRequest(c.get('requestId')),
    };
    const run = async (): Promise<Delivery[]> => {
      switch (kind) {
        case 'subscription':
          return notifySubscription(notifyDeps, parsed.data as never);
        case 'registration':
          return notifyRegistration(notifyDeps, parsed.data as never);
        case 'payment':
          return notifyPayment(notifyDeps, parsed.data as never);
        case 'ranking':
          return notifyRanking(notifyDeps, parsed.data as never);
        case 'member':
          return notifyMember(notifyDeps, parsed.data as never);
      }
    };
    const deliveries = await inflight.track(run());
    const count = (statuses: Delivery['status'][]) =>
      deliveries.filter((d) => statuses.includes(d.status)).length;
    const summary = {
      sent: count(['sent', 'edited', 'unchanged']),
      failed: count(['failed', 'blocked', 'gone']),
      skipped: count(['skipped']),
    };
    const attempted = deliveries.filter((d) => d.status !== 'skipped');
    const allFailed =
      attempted.length > 0 &&
      attempted.every((d) => d.status === 'failed' || d.status === 'blocked');
    const outcome = allFailed ? 'failed' : summary.sent > 0 ? 'sent' : 'skipped';
    deps.metrics.notify.inc({ kind, event, outcome });
    deps.logger.info(
      {
        kind,
        event,
        eventId: body.eventId,
        deliveries: summary,
        durationMs: Math.round(performance.now() - started),
        requestId: c.get('requestId'),
      },
      'notify',
    );
    if (allFailed) return errorBody(c, 502, 'DELIVERY_FAILED', 'Every delivery failed', deliveries);
    return c.json({
      ok: true,
      deliveries,
      ...(kind === 'ranking' ? { sent: deliveries.some((d) => d.status === 'sent') } : {}),
    });
  });

  app.post('/messenger/webhook', async (c) => {
    if (
      !secretMatches(
        c.req.header('x-telegram-bot-api-secret-token'),
        deps.config.MESSENGER_WEBHOOK_SECRET,
      )
    ) {
      return errorBody(c, 401, 'WEBHOOK_TOKEN_INVALID', 'Missing or wrong secret token');
    }
    if (deps.config.MESSENGER_UPDATE_MODE === 'polling') {
      return errorBody(c, 409, 'WRONG_UPDATE_MODE', 'The bot is in polling mode');
    }
    let update: unknown;
    try {
      update = await c.req.json();
    } catch (_error) {
      return errorBody(c, 400, 'VALIDATION_FAILED', 'The body is not JSON');
    }
    const id = (update as { update_id?: unknown } | null)?.update_id;
    if (
      typeof update !== 'object' ||
      update === null ||
      Array.isArray(update) ||
      !Number.isInteger(id)
    ) {
      return errorBody(c, 400, 'VALIDATION_FAILED', 'An update needs an integer update_id');
    }
    const handling = inflight.track(
      deps.bot.handleUpdate(update as Update).catch((error: unknown) => {
        // The boundary inside the bot already logged and answered; this only guards telegraf.
        deps.logger.error({ err: error, updateId: id }, 'webhook update failed');
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      handling,
      new Promise((r) => {
        timer = setTimeout(r, WEBHOOK_ANSWER_AFTER_MS);
      }),
    ]);
    clearTimeout(timer);
    return c.json({ ok: true });
  });

  app.notFound((c) => errorBody(c, 404, 'NOT_FOUND', 'No such route'));
  app.onError((error, c) => {
    deps.logger.error({ err: error, requestId: c.get('requestId') }, 'request failed');
    return errorBody(c, 500, 'INTERNAL_ERROR', 'Something went wrong');
  });
  return app;
}
