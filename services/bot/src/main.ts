/**
 * The bot process (40-bot.md §1.2–1.3): config → logger → API client → telegraf → HTTP server →
 * settings and menus → update mode; one guarded SIGTERM/SIGINT handler stops it all.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { serve } from '@hono/node-server';
import pg from 'pg';
import type { UserFromGetMe } from 'telegraf/types';
import { createApiClient } from './api-client.js';
import { createBot } from './bot/index.js';
import { syncMenus, telegramDeps } from './bot/menus.js';
import { loadConfig } from './config.js';
import { PollingLease, TABLE_MISSING_LINE, waitForTable, type Query } from './lease.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { PollingRunner } from './polling.js';
import { createServer, InFlight, initialHealth } from './server.js';
import { SettingsCache } from './settings.js';
import { tgCall } from './telegram.js';
import { registerWebhook } from './webhook.js';

const DRAIN_MS = 10_000;

function die(code: number, line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

async function main() {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    for (const line of loaded.errors) process.stderr.write(`${line}\n`);
    process.exit(1);
  }
  const config = loaded.config;
  const logger = createLogger(config.LOG_LEVEL);
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason }, 'unhandled rejection'),
  );
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });

  const metrics = createMetrics({ defaultMetrics: true });
  const api = createApiClient({
    baseUrl: config.API_URL,
    secret: config.INTERNAL_API_SECRET,
    metrics,
    logger,
  });
  const settings = new SettingsCache({ api, config, logger });
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const bot = createBot({ config, logger, api, settings, metrics });
  const tg = telegramDeps(bot.telegram, { config, logger, api, settings, metrics });

  // getMe, retried (2 s doubling to 30 s) for up to 2 minutes; a rejected token exits 3.
  const deadline = Date.now() + 120_000;
  for (let wait = 2000; ; wait = Math.min(wait * 2, 30_000)) {
    const me = await tgCall<UserFromGetMe>({ ...tg, logger: undefined }, 'getMe', {});
    if (me.ok) {
      bot.botInfo = me.result;
      break;
    }
    if (me.code === 401) die(3, 'telegram: MESSENGER_BOT_TOKEN was rejected (401 Unauthorized)');
    if (Date.now() + wait > deadline)
      die(1, `telegram: getMe kept failing for 2 minutes (${me.reason})`);
    logger.warn({ reason: me.reason, retryInMs: wait }, 'telegram getMe failed; retrying');
    await sleep(wait);
  }

  const health = initialHealth(config.MESSENGER_UPDATE_MODE);
  const inflight = new InFlight();
  let closing = false;
  const app = createServer({
    config,
    logger,
    metrics,
    bot,
    health,
    inflight,
    closing: () => closing,
    notify: { config, telegram: tg, settings, logger, api },
  });
  const server = serve({ fetch: app.fetch, port: config.BOT_PORT, hostname: '0.0.0.0' });
  logger.info(
    { port: config.BOT_PORT, mode: config.MESSENGER_UPDATE_MODE, bot: bot.botInfo?.username },
    'bot listening',
  );

  await settings.refresh();
  if (!(await syncMenus(tg, config.BOT_LANGUAGE))) logger.warn('command menus could not be synced');

  let pool: pg.Pool | null = null;
  let runner: PollingRunner | null = null;
  let stopWebhookRetry = () => undefined as void;

  if (config.MESSENGER_UPDATE_MODE === 'webhook') {
    void registerWebhook({
      config,
      telegram: tg,
      health,
      logger,
      metrics,
      onTokenRejected: () =>
        die(3, 'telegram: MESSENGER_BOT_TOKEN was rejected (401 Unauthorized)'),
    }).then((stop) => {
      stopWebhookRetry = stop;
    });
  } else {
    pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
    pool.on('error', (error) =>
      logger.warn({ err: error.message }, 'lease database connection error'),
    );
    const query: Query = (sql, params) => pool!.query(sql, params as unknown[]);
    const lease = new PollingLease(
      query,
      `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`,
    );
    const table = await waitForTable(lease, {
      onRetry: (reason) => logger.warn({ reason }, 'lease table not ready; retrying in 5 s'),
    });
    if (!table.ready) {
      die(
        1,
        table.missing
          ? TABLE_MISSING_LINE
          : `polling: the lease table could not be reached in PostgreSQL (${table.reason})`,
      );
    }
    runner = new PollingRunner({
      bot,
      lease,
      health,
      logger,
      metrics,
      onFatal: (code, line) => {
        void (async () => {
          await runner?.stop().catch(() => undefined);
          await pool?.end().catch(() => undefined);
          die(code, line);
        })();
      },
    });
    await runner.start();
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    closing = true;
    server.close();
    stopWebhookRetry();
    // Webhook mode never deletes the webhook: other replicas keep serving (§1.3).
    if (runner)
      await runner.stop().catch((error) => logger.warn({ err: error }, 'polling stop failed'));
    await inflight.drain(DRAIN_MS);
    if (pool) await pool.end().catch(() => undefined);
    logger.info('bot stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

void main();
