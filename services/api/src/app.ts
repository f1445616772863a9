import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { TokenSigner } from './security/tokens.js';
import type { Config } from './config/env.js';
import type { DatabaseHandle } from './db/client.js';
import { limitBody } from './http/body-limit.js';
import { resolveClientIp } from './http/client-ip.js';
import type { AppEnv } from './http/context.js';
import { AppError } from './errors/app-error.js';
import { handleError, notFound } from './http/errors.js';
import { createMetrics, type AppMetrics } from './metrics/registry.js';
import { createLimiters } from './http/rate-limit.js';
import { REPLY_HEADERS } from './http/reply-headers.js';
import { resolveRequestId } from './http/request-id.js';
import { mountRoutes, type RouteDef } from './http/route.js';
import { accessLog } from './logger.js';
import {
  JobScheduler,
  systemClock,
  type JobDefinition,
  type SchedulerClock,
} from './scheduler/scheduler.js';
import { SettingsCipher } from './settings-store/crypto.js';
import { SettingsService } from './settings-store/service.js';
import { SettingsStore } from './settings-store/store.js';
import { DEFINITIONS_BY_KEY } from './settings-store/definitions.js';
import { settingsRoutes } from './modules/settings/index.js';
import { auditRoutes } from './modules/audit/index.js';
import { AutomationFactory } from './integrations/automation/factory.js';
import { MailFactory } from './integrations/mail/factory.js';
import { MediaServerFactory } from './integrations/media-server/factory.js';
import { PaymentsFactory } from './integrations/payments/factory.js';
import { TmdbFactory } from './integrations/tmdb/factory.js';
import {
  membershipJobs,
  syncMediaAccess,
  type MediaAccessWriter,
} from './modules/membership/index.js';
import { lifecycleJobs, lifecycleRoutes } from './modules/lifecycle/index.js';
import { sharingJobs, sharingRoutes } from './modules/sharing/index.js';
import { redeemRoutes } from './modules/redeem/index.js';
import { paymentRoutes, paymentsJobs } from './modules/payments/index.js';
import { accountRoutes } from './modules/accounts/index.js';
import { userRoutes } from './modules/users/index.js';
import { authRoutes } from './modules/auth/index.js';
import { ssoRoutes } from './modules/sso/index.js';
import { jobRoutes } from './modules/jobs/index.js';
import type { Integrations, ModuleContext } from './modules/context.js';
import { publicRoutes } from './modules/public/index.js';
import { systemRoutes } from './modules/system/index.js';
import { metadataRoutes } from './modules/metadata/index.js';
import {
  libraryTitles,
  requestRoutes,
  searchAvailability,
  seasonAvailability,
} from './modules/requests/index.js';
import { mediaServerWebhookRoutes } from './modules/webhooks/index.js';
import { mediaRoutes } from './modules/media/index.js';
import { deviceRoutes, devicesJobs } from './modules/devices/index.js';
import { qualityJobs, qualityRoutes } from './modules/quality/index.js';
import { calendarJobs, calendarRoutes } from './modules/calendar/index.js';
import { playbackJobs } from './modules/playback/index.js';
import { rankingJobs, rankingRoutes } from './modules/rankings/index.js';
import { mountWebApp } from './http/web-static.js';
import { cleanupJob } from './modules/retention/index.js';
import { backupJob, backupRoutes } from './modules/backups/index.js';
import { Notifier } from './notify/notifier.js';
import { Background } from './modules/background.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  /** Identifies this process in job runs and leases (`<host>:<pid>:<random>`). */
  replicaId: string;
  /** Injected clock for tests; defaults to the wall clock. */
  now?: () => Date;
  metrics?: AppMetrics;
  startedAt?: Date;
  /** Time and timers of the job scheduler (tests simulate days); defaults to `now` + real timers. */
  schedulerClock?: SchedulerClock;
  /** The jobs of the created scheduler (default: every module's); tests pass probe jobs. */
  jobs?: (context: ModuleContext) => JobDefinition[];
  /** Job scheduler; created here when not given (tests pass one with their test jobs). */
  scheduler?: JobScheduler;
  /** Media-server access switch; defaults to the adapter built from the settings. */
  mediaAccess?: () => Promise<MediaAccessWriter>;
  /** How often the settings cache looks for changes by other replicas (default 10 s). */
  settingsRefreshMs?: number;
  /** Env fallbacks of runtime settings; `main.ts` passes `process.env`, tests their own. */
  settingsEnv?: Record<string, string | undefined>;
  /** Deadline of one push to the bot (default 5 s, 20-api.md §1.7). */
  notifyTimeoutMs?: number;
  /** Limit of one settings connection test (default 10 s); tests shorten it. */
  connectionTestDeadlineMs?: number;
  /** How long a checkout waits for Stripe (default 25 s); tests shorten it. */
  checkoutDeadlineMs?: number;
  /** Bound of one request's work at the identity provider (default 8 s); tests shorten it. */
  ssoDeadlineMs?: number;
}

export interface UsherApp {
  app: Hono<AppEnv>;
  routes: RouteDef[];
  context: ModuleContext;
}

const JSON_LIMIT = 64 * 1024;
const WEBHOOK_LIMIT = 5 * 1024 * 1024;

/** Every module's jobs (30-settings.md §9), registered on the app's scheduler. */
function moduleJobs(context: ModuleContext): JobDefinition[] {
  return [
    ...membershipJobs(context),
    ...lifecycleJobs(context),
    ...sharingJobs(context),
    cleanupJob(context),
    backupJob(context),
    ...paymentsJobs(context),
    ...devicesJobs(context),
    ...qualityJobs(context),
    ...calendarJobs(context),
    ...rankingJobs(context),
    ...playbackJobs(context),
  ];
}

/** Builds the HTTP application. `main.ts` serves it; tests call it with their own deps. */
export function createApp(deps: AppDeps): UsherApp {
  const metrics = deps.metrics ?? createMetrics({ defaultMetrics: false });
  const settingsEnv = deps.settingsEnv ?? {};
  const store = new SettingsStore(
    deps.database.db,
    new SettingsCipher(deps.config.CONFIG_ENCRYPTION_KEY),
    settingsEnv,
    deps.logger,
    deps.settingsRefreshMs,
  );
  const integrationDeps = { metrics: metrics.integrations, logger: deps.logger };
  const integrations: Integrations = {
    mediaServer: new MediaServerFactory(store, integrationDeps),
    tmdb: new TmdbFactory(store, integrationDeps),
    automation: new AutomationFactory(store, integrationDeps),
    mail: new MailFactory(store, integrationDeps),
    payments: new PaymentsFactory(store, settingsEnv.STRIPE_API_BASE ?? '', {
      ...integrationDeps,
      now: deps.now,
    }),
  };
  const mediaAccess =
    deps.mediaAccess ??
    (async (): Promise<MediaAccessWriter> => {
      const server = await integrations.mediaServer.get();
      return {
        setDisabled: (mediaUserId, disabled) => server.updatePolicy(mediaUserId, { disabled }),
      };
    });
  const context: ModuleContext = {
    config: deps.config,
    db: deps.database.db,
    database: deps.database,
    logger: deps.logger,
    tokens: new TokenSigner(deps.config.JWT_SECRET),
    limiters: createLimiters(deps.database.db),
    metrics,
    replicaId: deps.replicaId,
    startedAt: deps.startedAt ?? new Date(),
    now: deps.now ?? (() => new Date()),
    settingsEnv,
    integrations,
    mediaAccess,
    accessSync: (userId, origin) =>
      syncMediaAccess(deps.database.db, mediaAccess, userId, origin, {
        logger: deps.logger,
        now: deps.now ?? (() => new Date()),
      }),
    settings: new SettingsService(deps.database.db, store, deps.config, {
      replicaId: deps.replicaId,
      logger: deps.logger,
    }),
    scheduler:
      deps.scheduler ??
      new JobScheduler({
        db: deps.database.db,
        logger: deps.logger,
        replicaId: deps.replicaId,
        settings: store,
        clock: deps.schedulerClock ?? (deps.now ? { ...systemClock, now: deps.now } : systemClock),
      }),
    notify: new Notifier({
      baseUrl: deps.config.BOT_NOTIFY_URL,
      internalSecret: deps.config.INTERNAL_API_SECRET,
      logger: deps.logger,
      counter: metrics.notifyTotal,
      now: deps.now ?? (() => new Date()),
      timeoutMs: deps.notifyTimeoutMs,
    }),
    background: new Background(deps.logger),
  };

  const routes: RouteDef[] = [];
  routes.push(
    ...systemRoutes(context, () => routes),
    ...publicRoutes(context),
    ...authRoutes(context),
    ...ssoRoutes(context, { deadlineMs: deps.ssoDeadlineMs }),
    ...jobRoutes(context),
    ...backupRoutes(context),
    ...auditRoutes(context),
    ...settingsRoutes(context, { connectionTestDeadlineMs: deps.connectionTestDeadlineMs }),
    ...redeemRoutes(context),
    ...paymentRoutes(context, { checkoutDeadlineMs: deps.checkoutDeadlineMs }),
    ...metadataRoutes(context, {
      availability: async (userId, titles) =>
        searchAvailability(context.db, userId, titles, await libraryTitles(context, titles)),
      seasons: (userId, tmdbId, seasons) => seasonAvailability(context, userId, tmdbId, seasons),
    }),
    ...requestRoutes(context),
    ...mediaServerWebhookRoutes(context),
    ...mediaRoutes(context),
    ...deviceRoutes(context),
    ...qualityRoutes(context),
    ...calendarRoutes(context),
    ...rankingRoutes(context),
    ...accountRoutes(context),
    ...userRoutes(context),
    ...lifecycleRoutes(context),
    ...sharingRoutes(context),
  );
  // Saving a `rearm` key (30-settings.md §1) re-arms the timers: at once on the writing replica,
  // within the settings refresh interval on the others.
  store.onChange((keys) => {
    if (keys.some((key) => DEFINITIONS_BY_KEY.get(key)?.apply === 'rearm')) {
      void context.scheduler.rearm();
    }
  });
  // A scheduler passed in by a test carries only that test's jobs.
  if (!deps.scheduler) {
    for (const job of (deps.jobs ?? moduleJobs)(context)) context.scheduler.register(job);
  }

  const app = new Hono<AppEnv>();

  // Request id, client address, the headers every reply carries, one log line and one metric
  // sample per request: one middleware, not three (each level of hono's chain is an async call
  // and a promise per request; issue 21).
  const logRequest = accessLog(deps.logger);
  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = resolveRequestId(c.req.header('x-request-id'));
    const node = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    const incoming = node?.incoming;
    const outgoing = node?.outgoing;
    if (outgoing) {
      // Set on Node's own reply before the handler runs: @hono/node-server's writeHead merges
      // them under the handler's headers (a handler's own value wins), and the handler's reply
      // keeps its plain header object — reading `c.res.headers` afterwards built an undici
      // Headers and set a dozen entries on it per request (issue 21).
      for (const [name, value] of REPLY_HEADERS) outgoing.setHeader(name, value);
      outgoing.setHeader('X-Request-Id', requestId);
    }
    c.set('requestId', requestId);
    c.set('appLogger', deps.logger);
    c.set(
      'clientIp',
      resolveClientIp(
        c.req.header('x-forwarded-for'),
        incoming?.socket.remoteAddress,
        deps.config.TRUST_PROXY_HOPS,
      ),
    );
    await next();
    if (!outgoing) {
      // Served without Node (`app.request` in tests, another runtime): the same headers on the
      // reply itself, a handler's own value first. Not `c.header()`: after the handler it
      // rebuilds the reply as a WHATWG Response.
      const headers = c.res.headers;
      for (const [name, value] of REPLY_HEADERS) if (!headers.has(name)) headers.set(name, value);
      headers.set('X-Request-Id', requestId);
    }
    const route = c.get('routeTemplate') ?? '(unmatched)';
    const status = c.res.status;
    const seconds = (performance.now() - started) / 1000;
    metrics.requestDuration.observe(
      { method: c.req.method, route, status: String(status) },
      seconds,
    );
    logRequest({
      requestId,
      method: c.req.method,
      route,
      status,
      durationMs: Math.round(seconds * 100_000) / 100,
      ip: c.get('clientIp'),
    });
  });

  const tooLarge = () => {
    throw new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  };
  app.use('/api/v1/webhooks/*', limitBody(WEBHOOK_LIMIT, tooLarge));
  const jsonLimit = limitBody(JSON_LIMIT, tooLarge);
  app.use('/api/v1/*', async (c, next) => {
    if (c.req.path.startsWith('/api/v1/webhooks/')) return next();
    return jsonLimit(c, next);
  });

  mountRoutes(app, routes, {
    db: context.db,
    tokens: context.tokens,
    internalApiSecret: deps.config.INTERNAL_API_SECRET,
  });

  if (deps.config.WEB_DIST_DIR) {
    const served = mountWebApp(app, deps.config.WEB_DIST_DIR, undefined, () =>
      store.getString('TMDB_IMAGE_BASE'),
    );
    deps.logger.info({ dir: deps.config.WEB_DIST_DIR, served }, 'web app');
  }

  app.notFound(notFound);
  app.onError(handleError);
  return { app, routes, context };
}
