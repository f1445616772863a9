/**
 * Starts bot replicas the way main.ts wires them (createBot + createServer on a real port),
 * pointed at the testkit's fake Bot API and at an API (the stub or a real one).
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import type { FakeTelegram, TgMessage, UpdateDraft } from '@usher/testkit';
import { createApiClient } from '../../src/api-client.js';
import { createBot } from '../../src/bot/index.js';
import type { Bot } from '../../src/bot/context.js';
import { loadConfig, type BotConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics, type BotMetrics } from '../../src/metrics.js';
import { createServer, InFlight, initialHealth, type HealthState } from '../../src/server.js';
import { SettingsCache } from '../../src/settings.js';
import { telegramDeps } from '../../src/bot/menus.js';

export const WEBHOOK_SECRET = randomBytes(32).toString('hex');
export const INTERNAL_SECRET = randomBytes(32).toString('hex');

export function baseEnv(fake: FakeTelegram, apiUrl: string, extra: Record<string, string> = {}) {
  return {
    MESSENGER_BOT_TOKEN: fake.token,
    MESSENGER_WEBHOOK_SECRET: WEBHOOK_SECRET,
    INTERNAL_API_SECRET: INTERNAL_SECRET,
    WEBHOOK_URL: 'http://127.0.0.1:1',
    MESSENGER_API_ROOT: fake.url,
    API_URL: apiUrl,
    LOG_LEVEL: 'debug',
    ...extra,
  };
}

export function memoryLogs() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, raw, stream };
}

/** Timers the test fires by hand (welcome deletion). */
export class ManualTimers {
  readonly pending: { fn: () => void; ms: number }[] = [];
  setTimeout = (fn: () => void, ms: number) => {
    const entry = { fn, ms };
    this.pending.push(entry);
    return entry;
  };
  clearTimeout = (handle: unknown) => {
    const i = this.pending.indexOf(handle as { fn: () => void; ms: number });
    if (i >= 0) this.pending.splice(i, 1);
  };
  runAll() {
    for (const entry of this.pending.splice(0)) entry.fn();
  }
}

export interface Replica {
  config: BotConfig;
  bot: Bot;
  app: ReturnType<typeof createServer>;
  url: string;
  health: HealthState;
  metrics: BotMetrics;
  logs: ReturnType<typeof memoryLogs>;
  timers: ManualTimers;
  inflight: InFlight;
  close(): Promise<void>;
}

export async function startReplica(options: {
  telegram: FakeTelegram;
  apiUrl: string;
  env?: Record<string, string>;
  apiTimeouts?: { settings: number; other: number };
  notifyDeadlineMs?: number;
}): Promise<Replica> {
  const loaded = loadConfig(baseEnv(options.telegram, options.apiUrl, options.env));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const config = loaded.config;
  const logs = memoryLogs();
  const logger = createLogger('debug', logs.stream);
  const metrics = createMetrics({ defaultMetrics: false });
  const api = createApiClient({
    baseUrl: config.API_URL,
    secret: config.INTERNAL_API_SECRET,
    metrics,
    logger,
    timeouts: options.apiTimeouts,
  });
  const settings = new SettingsCache({ api, config, logger, ttlMs: 0 });
  const timers = new ManualTimers();
  const deps = { config, logger, api, settings, metrics, timers, sleep: async () => undefined };
  const bot = createBot({ ...deps, botInfo: options.telegram.bot as never });
  const health = initialHealth(config.MESSENGER_UPDATE_MODE);
  const inflight = new InFlight();
  const app = createServer({
    config,
    logger,
    metrics,
    bot,
    health,
    inflight,
    notify: {
      config,
      telegram: telegramDeps(bot.telegram, deps),
      settings,
      logger,
      api,
      deadlineMs: options.notifyDeadlineMs,
    },
  });
  let server: ServerType | null = null;
  const url = await new Promise<string>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  return {
    config,
    bot,
    app,
    url,
    health,
    metrics,
    logs,
    timers,
    inflight,
    close: () =>
      new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}

/** Telegram delivers an update to this replica's webhook (as a load balancer would pick it). */
export async function pushTo(fake: FakeTelegram, replica: Replica, draft: UpdateDraft) {
  fake.state.webhook = {
    url: `${replica.url}/messenger/webhook`,
    secretToken: WEBHOOK_SECRET,
    maxConnections: 40,
  };
  const result = await fake.pushUpdate(draft);
  const delivery = result.deliveries.at(-1);
  if (!delivery || delivery.status !== 200) {
    throw new Error(
      `webhook delivery failed: ${delivery?.status} ${delivery?.body ?? delivery?.error}`,
    );
  }
  return result.update;
}

/** Calls to methods that send or change messages, as `[method, chat_id]`, in order. */
export function sends(fake: FakeTelegram) {
  return fake.calls
    .filter((c) => /^(send|edit|delete|answer)/.test(c.method))
    .map((c) => ({ method: c.method, status: c.status, params: c.params }));
}

/** The last message the bot sent to a chat. */
export function lastMessage(fake: FakeTelegram, chatId: number): TgMessage {
  const messages = fake.messages(chatId).filter((m) => m.from?.id === fake.bot.id);
  const last = messages.at(-1);
  if (!last) throw new Error(`no bot message in chat ${chatId}`);
  return last;
}

export function notifyHeaders(secret = INTERNAL_SECRET) {
  return { 'content-type': 'application/json', 'x-internal-secret': secret };
}
