import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NotifyRegistration, NotifySubscription } from '@usher/contracts';
import { createMetrics } from '../../src/metrics/registry.js';
import { Notifier, type NotifyResult } from '../../src/notify/notifier.js';
import { memoryLogger } from '../support/logs.js';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A stand-in bot: records every push and answers with the handler's reply. */
async function fakeBot(
  reply: (req: Received, res: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      };
      received.push(entry);
      void reply(entry, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, server };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const SECRET = 'i'.repeat(64);
const registration = {
  userId: '0190a5c2-0000-7000-8000-000000000001',
  username: 'alice',
  email: 'alice@example.org',
  mediaUserId: null,
  mode: 'open' as const,
  expiresAt: '2026-06-01T00:00:00.000Z',
  createdAt: '2026-05-01T00:00:00.000Z',
};
const subscription = {
  id: '0190a5c2-0000-7000-8000-000000000002',
  mediaType: 'tv' as const,
  tmdbId: 1399,
  title: 'Game of Thrones',
  year: 2011,
  season: 2,
  posterPath: '/got.jpg',
  note: null,
  requester: { userId: registration.userId, username: 'alice', messengerId: 42, locale: null },
};

function build(baseUrl: string | undefined, timeoutMs?: number) {
  const metrics = createMetrics({ defaultMetrics: false });
  const logs = memoryLogger();
  const notifier = new Notifier({
    baseUrl,
    internalSecret: SECRET,
    logger: logs.logger,
    counter: metrics.notifyTotal,
    now: () => new Date('2026-05-01T10:00:00.000Z'),
    timeoutMs,
  });
  const count = async (kind: string, outcome: string) => {
    const m = await metrics.notifyTotal.get();
    return m.values.find((v) => v.labels.kind === kind && v.labels.outcome === outcome)?.value ?? 0;
  };
  return { notifier, logs, count };
}

describe('Notifier', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) s.closeAllConnections();
    return Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('posts the body with the secret and the request id, and reads the deliveries', async () => {
    const bot = await fakeBot((_req, res) =>
      json(res, 200, {
        ok: true,
        deliveries: [{ to: 'adminChat', chatId: -100, messageId: 7, status: 'sent' }],
      }),
    );
    servers.push(bot.server);
    const { notifier, count } = build(`${bot.url}/`);
    const result = await notifier.deliver('registration', registration, 'req-123');

    expect(result).toEqual({
      outcome: 'sent',
      status: 200,
      deliveries: [{ to: 'adminChat', chatId: -100, messageId: 7, status: 'sent' }],
      sent: undefined,
    });
    expect(bot.received).toHaveLength(1);
    const [got] = bot.received;
    expect(got!.path).toBe('/notify/registration');
    expect(got!.headers['x-internal-secret']).toBe(SECRET);
    expect(got!.headers['x-request-id']).toBe('req-123');
    const body = NotifyRegistration.parse(got!.body);
    expect(body).toMatchObject({ ...registration, occurredAt: '2026-05-01T10:00:00.000Z' });
    expect(body.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await count('registration', 'sent')).toBe(1);
  });

  it('sends discriminated subscription events that the contract accepts', async () => {
    const bot = await fakeBot((_req, res) => json(res, 200, { ok: true, deliveries: [] }));
    servers.push(bot.server);
    const { notifier } = build(bot.url);
    await notifier.deliver('subscription', {
      event: 'rejected',
      subscription,
      reviewedAt: '2026-05-01T09:00:00.000Z',
      reviewer: { source: 'web', name: 'admin' },
      reason: 'not on any service',
      adminMessages: [{ chatId: 5, messageId: 9, hasPhoto: true }],
    });
    const body = NotifySubscription.parse(bot.received[0]!.body);
    expect(body.event).toBe('rejected');
    expect(bot.received[0]!.headers['x-request-id']).toMatch(/^api-/);
  });

  it('is skipped and counted when BOT_NOTIFY_URL is empty', async () => {
    const { notifier, count } = build(undefined);
    expect(notifier.enabled).toBe(false);
    const result = await notifier.deliver('registration', registration);
    expect(result.outcome).toBe('skipped');
    expect(await count('registration', 'skipped')).toBe(1);
  });

  it('does not send a body the contract refuses, and logs the bug', async () => {
    const bot = await fakeBot((_req, res) => json(res, 200, { ok: true, deliveries: [] }));
    servers.push(bot.server);
    const { notifier, logs, count } = build(bot.url);
    const result = await notifier.deliver('registration', {
      ...registration,
      mode: 'oops' as never,
    });
    expect(result.outcome).toBe('failed');
    expect(bot.received).toHaveLength(0);
    expect(logs.text()).toContain('notify body does not match the contract');
    expect(await count('registration', 'failed')).toBe(1);
  });

  it('reads the deliveries of a 502 DELIVERY_FAILED reply', async () => {
    const bot = await fakeBot((_req, res) =>
      json(res, 502, {
        error: {
          code: 'DELIVERY_FAILED',
          message: 'x',
          requestId: 'r',
          details: [{ to: 'adminCopy', chatId: 5, messageId: 9, status: 'gone' }, { bogus: 1 }],
        },
      }),
    );
    servers.push(bot.server);
    const { notifier, count } = build(bot.url);
    const result = await notifier.deliver('registration', registration);
    expect(result).toEqual({
      outcome: 'failed',
      status: 502,
      deliveries: [{ to: 'adminCopy', chatId: 5, messageId: 9, status: 'gone' }],
    });
    expect(await count('registration', 'failed')).toBe(1);
  });

  it('gives up after the deadline with outcome timeout, and push never waits', async () => {
    // Never answers: only the notifier's deadline ends the push (afterAll drops the socket).
    const bot = await fakeBot(() => undefined);
    servers.push(bot.server);
    const { notifier, count } = build(bot.url, 300);
    const results: NotifyResult[] = [];
    const started = performance.now();
    notifier.push('registration', registration, { onResult: (r) => void results.push(r) });
    expect(performance.now() - started).toBeLessThan(50);
    expect(results).toHaveLength(0);
    await notifier.idle();
    expect(results).toEqual([{ outcome: 'timeout', deliveries: [] }]);
    expect(await count('registration', 'timeout')).toBe(1);
  });

  it('counts a refused connection as failed without throwing at the caller', async () => {
    const { notifier, count, logs } = build('http://127.0.0.1:1');
    notifier.push('registration', registration, {
      onResult: () => {
        throw new Error('follow-up broke');
      },
    });
    await notifier.idle();
    expect(await count('registration', 'failed')).toBe(1);
    expect(logs.text()).toContain('notify follow-up failed');
  });

  it('reads `sent` of the ranking reply', async () => {
    const bot = await fakeBot((_req, res) =>
      json(res, 200, { ok: true, deliveries: [], sent: true }),
    );
    servers.push(bot.server);
    const { notifier } = build(bot.url);
    const result = await notifier.deliver('ranking', {
      batchId: registration.userId,
      period: 'daily',
      periodStart: '2026-05-01',
      periodEnd: '2026-05-01',
      cutoffAt: '2026-05-01T20:00:00.000Z',
      timezone: 'UTC',
      totalDurationSeconds: 100,
      movies: [{ rank: 1, name: 'A', playCount: 2, durationSeconds: 100 }],
      series: [],
    });
    expect(result.sent).toBe(true);
  });
});
