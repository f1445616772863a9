/** setWebhook with retries, back-off, degraded health and the slow retry (40-bot.md §3.1). */
import { eventually, startFakeTelegram, type FakeTelegram } from '@usher/testkit';
import { Telegram } from 'telegraf';
import { loadConfig, type WebhookConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createMetrics } from '../src/metrics.js';
import { initialHealth } from '../src/server.js';
import { backoffMs, registerWebhook } from '../src/webhook.js';
import { WEBHOOK_SECRET, baseEnv, memoryLogs } from './support/harness.js';

let fake: FakeTelegram;

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function setup(token?: string) {
  const loaded = loadConfig(
    baseEnv(fake, 'http://127.0.0.1:1', { WEBHOOK_URL: 'https://bot.example.org' }),
  );
  if (!loaded.ok) throw new Error(loaded.errors.join());
  const config = loaded.config as WebhookConfig;
  const telegram = new Telegram(token ?? fake.token, {
    apiRoot: fake.url,
    webhookReply: false,
  } as never);
  const metrics = createMetrics({ defaultMetrics: false });
  const health = initialHealth('webhook');
  const waits: number[] = [];
  const intervals: (() => void)[] = [];
  const rejected: string[] = [];
  const run = () =>
    registerWebhook({
      config,
      telegram: { telegram, metrics },
      health,
      logger: createLogger('debug', memoryLogs().stream),
      metrics,
      sleep: async (ms) => void waits.push(ms),
      onTokenRejected: () => rejected.push('exit 3'),
      timers: { setInterval: (fn) => intervals.push(fn), clearInterval: () => intervals.splice(0) },
    });
  return { config, health, metrics, waits, intervals, rejected, run };
}

const badWebhook = {
  error_code: 400,
  description: 'Bad Request: bad webhook: Failed to resolve host',
};

it('should back off 2, 4, 8, 16, 32 s capped at 60', () => {
  expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual([
    2000, 4000, 8000, 16000, 32000, 60000, 60000,
  ]);
});

it('should register on the first try with the secret and the update list', async () => {
  const s = setup();
  await s.run();
  expect(s.health).toMatchObject({ webhookRegistered: true, degraded: false });
  expect(fake.state.webhook).toMatchObject({
    url: 'https://bot.example.org/messenger/webhook',
    secretToken: WEBHOOK_SECRET,
    allowedUpdates: ['message', 'callback_query', 'my_chat_member'],
  });
  expect(
    await s.metrics.registry.getSingleMetricAsString('usher_bot_webhook_registered'),
  ).toContain('usher_bot_webhook_registered 1');
});

it('should retry, succeed on the third attempt', async () => {
  fake.failNext('setWebhook', badWebhook, 2);
  const s = setup();
  await s.run();
  expect(s.waits).toEqual([2000, 4000]);
  expect(s.health.webhookRegistered).toBe(true);
});

it('should go degraded after six failures, then recover on the slow retry', async () => {
  fake.failNext('setWebhook', badWebhook, 6);
  // The first slow retry fails too, with an error of its own to tell when it has ended.
  const stillBad = { error_code: 400, description: 'Bad Request: bad webhook: still unreachable' };
  fake.failNext('setWebhook', stillBad);
  const s = setup();
  await s.run();
  expect(fake.callsTo('setWebhook')).toHaveLength(6);
  expect(s.waits).toEqual([2000, 4000, 8000, 16000, 32000]);
  expect(s.health).toMatchObject({
    degraded: true,
    webhookRegistered: false,
    attempts: 6,
    lastError: 'Bad Request: bad webhook: Failed to resolve host',
  });
  expect(s.intervals).toHaveLength(1);
  s.intervals[0]!();
  await eventually(() => expect(s.health.lastError).toBe(stillBad.description));
  expect(s.health.degraded).toBe(true);
  s.intervals[0]!();
  await eventually(() =>
    expect(s.health).toMatchObject({ degraded: false, webhookRegistered: true }),
  );
  expect(s.intervals).toEqual([]);
  expect(fake.callsTo('setWebhook')).toHaveLength(8);
});

it('should report a rejected token at once', async () => {
  const s = setup('7000000001:AAWrongTokenWrongTokenWrongToken_99');
  await s.run();
  expect(s.rejected).toEqual(['exit 3']);
  expect(s.waits).toEqual([]);
});
