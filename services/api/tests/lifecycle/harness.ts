// Set-up for the membership reminder tests: a fresh database, the SMTP fake, a stand-in bot
// (`BOT_NOTIFY_URL`), an HTTP sink standing in for the operator's webhook, and an app whose clock
// the test moves (no sleeps).
import {
  startFakeMediaServer,
  startFakeSmtp,
  type CapturedMail,
  type FakeMediaServer,
  type FakeSmtp,
} from '@usher/testkit';
import type { SettingValue } from '@usher/contracts';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { jobRuns, memberNotices } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startFakeBot, type FakeBot } from '../requests/harness.js';

export const DAY = 86_400_000;
const MEDIA_KEY = 'UsherLifecycleKey0123456789ab';
export const HOUR = 3_600_000;

export interface SinkCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookSink {
  url: string;
  calls: SinkCall[];
  /** Status of the next replies. */
  status: number;
  server: Server;
}

export async function startSink(): Promise<WebhookSink> {
  const sink: WebhookSink = { url: '', calls: [], status: 204, server: undefined as never };
  sink.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sink.calls.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(sink.status);
      res.end();
    });
  });
  await new Promise<void>((r) => sink.server.listen(0, '127.0.0.1', r));
  sink.url = `http://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  return sink;
}

export interface NoticeLine {
  days: number | null;
  channel: string;
  status: string;
  attempts: number;
  detail: string | null;
  expiresAt: Date | null;
}

export interface LifecycleEnv {
  t: TestApp;
  database: TestDatabase;
  /** The settings environment the app started with (for a second replica). */
  settingsEnv: Record<string, string>;
  smtp: FakeSmtp;
  bot: FakeBot;
  /** The media-server fake (Emby), when the env was started with `media: true`. */
  media: FakeMediaServer | null;
  sink: WebhookSink;
  /** The app's clock: move it with `advance`. */
  now(): Date;
  advance(ms: number): void;
  set(values: Record<string, SettingValue | null>): Promise<void>;
  /** Runs the job now; its status and summary. */
  runJob(): Promise<{ status: string; summary: Record<string, unknown> }>;
  mailsTo(address: string): CapturedMail[];
  /** `/notify/member` pushes for one Telegram id. */
  dmsTo(messengerId: number): Record<string, unknown>[];
  /** The member's notices: `days/channel/status/attempts`, widest threshold first. */
  noticesOf(userId: string): Promise<NoticeLine[]>;
  close(): Promise<void>;
}

export async function lifecycleEnv(
  start = new Date('2026-12-07T10:00:00.000Z'),
  options: { media?: boolean } = {},
): Promise<LifecycleEnv> {
  const media = options.media
    ? await startFakeMediaServer({ flavour: 'emby', apiKey: MEDIA_KEY, seed: true })
    : null;
  const smtp = await startFakeSmtp({});
  const bot = await startFakeBot();
  const sink = await startSink();
  const database = await createTestDatabase();
  let at = start.getTime();
  const settingsEnv = {
    SITE_NAME: 'Cinema Club',
    PUBLIC_WEB_URL: 'https://usher.example',
    SMTP_HOST: smtp.host,
    SMTP_PORT: String(smtp.port),
    SMTP_SECURITY: 'none',
    SMTP_FROM: 'Usher <no-reply@usher.example>',
    ...(media
      ? {
          MEDIA_SERVER_KIND: 'emby',
          MEDIA_SERVER_URL: media.url,
          MEDIA_SERVER_API_KEY: MEDIA_KEY,
          MEDIA_SERVER_TIMEOUT_SECONDS: '2',
        }
      : {}),
  };
  const t = createTestApp(database.handle, {
    config: testConfig({ BOT_NOTIFY_URL: bot.url }),
    now: () => new Date(at),
    settingsEnv,
  });
  return {
    t,
    database,
    settingsEnv,
    smtp,
    bot,
    media,
    sink,
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
    set: async (values) => {
      await t.context.settings.update(
        'lifecycle',
        values,
        { type: 'system', id: null, label: 'test' },
        { ip: null, requestId: 'test' },
      );
    },
    runJob: async () => {
      const { runId, done } = await t.context.scheduler.runNow('expiry_reminders');
      const status = await done;
      const [row] = await t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
      return { status, summary: row!.summary as Record<string, unknown> };
    },
    mailsTo: (address) => smtp.messages.filter((m) => m.envelope.to.includes(address)),
    dmsTo: (messengerId) =>
      bot.calls
        .filter((c) => c.path === '/notify/member' && c.body.messengerId === messengerId)
        .map((c) => c.body),
    noticesOf: async (userId) =>
      (await t.context.db.select().from(memberNotices).where(eq(memberNotices.userId, userId)))
        .map((r) => ({
          days: r.days,
          channel: r.channel,
          status: r.status,
          attempts: r.attempts,
          detail: r.detail,
          expiresAt: r.expiresAt,
        }))
        .sort((a, b) => (b.days ?? 0) - (a.days ?? 0) || a.channel.localeCompare(b.channel)),
    close: async () => {
      await t.context.notify.idle();
      await database.close();
      await Promise.all([
        media?.close(),
        smtp.close(),
        new Promise((r) => bot.server.close(r)),
        new Promise((r) => sink.server.close(r)),
      ]);
    },
  };
}
