// Shared set-up of the media-request suites: a database, the app with the testkit fakes of
// TMDB, the media server and MoviePilot preset through the settings' env fallbacks, and a
// stand-in bot that records every push.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import {
  startFakeMediaServer,
  startFakeMoviePilot,
  startFakeTmdb,
  type FakeMediaServer,
  type FakeMoviePilot,
  type FakeTmdb,
} from '@usher/testkit';
import { errorBodySchema } from '@usher/contracts';
import { settle } from '../../src/modules/background.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { aUser, type UserBuilder } from '../support/users.js';

export const MEDIA_KEY = 'UsherTestKey0123456789abcdef';
export const WEBHOOK_TOKEN = 'webhook-token-0123456789abcdef-0123456789';

export interface BotCall {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeBot {
  url: string;
  calls: BotCall[];
  /** Milliseconds before each reply. */
  delayMs: number;
  /** The reply body of the next pushes. */
  reply: (call: BotCall) => unknown;
  /** The HTTP status of the next replies (the real bot answers 502 when every delivery failed). */
  status: number;
  server: Server;
}

export async function startFakeBot(): Promise<FakeBot> {
  const bot: FakeBot = {
    url: '',
    calls: [],
    delayMs: 0,
    reply: () => ({ ok: true, deliveries: [] }),
    status: 200,
    server: undefined as unknown as Server,
  };
  bot.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = {
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      };
      bot.calls.push(call);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(bot.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(bot.reply(call)));
      };
      if (bot.delayMs > 0) setTimeout(answer, bot.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((r) => bot.server.listen(0, '127.0.0.1', r));
  bot.url = `http://127.0.0.1:${(bot.server.address() as AddressInfo).port}`;
  return bot;
}

export interface Harness {
  database: TestDatabase;
  t: TestApp;
  tmdb: FakeTmdb;
  media: FakeMediaServer;
  mp: FakeMoviePilot;
  bot: FakeBot;
  /** The env fallbacks the app was built with (add more with `appWith`). */
  env: Record<string, string>;
  /** Another app on the same database and fakes, with some settings changed. */
  appWith(extra: Record<string, string>): TestApp;
  /** A user and a signed token for them. */
  user(
    build?: (b: UserBuilder) => UserBuilder,
  ): Promise<{ id: string; username: string; token: string }>;
  member(): ReturnType<Harness['user']>;
  admin(): ReturnType<Harness['user']>;
  /** Waits for background hand-offs and bot pushes of the app. */
  settle(app?: TestApp): Promise<void>;
  /** Serves the app on a real port (for the media-server fake's webhooks). */
  listen(): Promise<string>;
  close(): Promise<void>;
}

let mediaUsers = 0;

export async function startHarness(
  options: {
    flavour?: 'emby' | 'jellyfin';
    settings?: Record<string, string>;
    bot?: boolean;
    /** The apps' clock (default: the wall clock). */
    now?: () => Date;
    /** "Today" of the TMDB fake's air dates (default: the current UTC date). */
    tmdbToday?: string;
  } = {},
): Promise<Harness> {
  const database = await createTestDatabase();
  const [tmdb, media, mp, bot] = await Promise.all([
    startFakeTmdb(options.tmdbToday ? { today: options.tmdbToday } : {}),
    startFakeMediaServer({
      flavour: options.flavour ?? 'emby',
      ...(options.flavour === 'jellyfin' ? { version: '12.0.0' } : {}),
      apiKey: MEDIA_KEY,
      seed: true,
    }),
    startFakeMoviePilot(),
    startFakeBot(),
  ]);
  const env: Record<string, string> = {
    TMDB_API_KEY: tmdb.readToken,
    TMDB_API_BASE: tmdb.apiBase,
    MEDIA_SERVER_KIND: options.flavour ?? 'emby',
    MEDIA_SERVER_URL: media.url,
    MEDIA_SERVER_API_KEY: MEDIA_KEY,
    MEDIA_SERVER_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    AUTOMATION_KIND: 'moviepilot',
    AUTOMATION_URL: mp.url,
    MOVIEPILOT_USERNAME: mp.username,
    MOVIEPILOT_PASSWORD: mp.password,
    REQUEST_ADMIN_AUTO_APPROVE: 'false',
    ...options.settings,
  };
  const config = testConfig(options.bot === false ? {} : { BOT_NOTIFY_URL: bot.url });
  const apps: TestApp[] = [];
  const appWith = (extra: Record<string, string>) => {
    const app = createTestApp(database.handle, {
      config,
      settingsEnv: { ...env, ...extra },
      now: options.now,
    });
    apps.push(app);
    return app;
  };
  const t = appWith({});
  const servers: ServerType[] = [];

  const user: Harness['user'] = async (build = (b) => b) => {
    const row = await build(aUser()).create(t.context.db);
    const { token } = await t.context.tokens.sign({
      sub: row.id,
      role: row.role as 'user',
      ver: row.tokenVersion,
    });
    return { id: row.id, username: row.username, token };
  };
  return {
    database,
    t,
    tmdb,
    media,
    mp,
    bot,
    env,
    appWith,
    user,
    member: () =>
      user((b) => b.linkedTo(`${'a'.repeat(24)}${String(++mediaUsers).padStart(8, '0')}`)),
    admin: () => user((b) => b.admin()),
    settle: async (app = t) => {
      await settle(app.context);
    },
    listen: async () => {
      const server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: async () => {
      // Jobs started by routes (202 + a run) finish before the database closes under them.
      for (const app of apps) await app.context.scheduler.stop();
      for (const app of apps) await settle(app.context);
      for (const s of servers) {
        (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        await new Promise((r) => s.close(r));
      }
      bot.server.closeAllConnections();
      await new Promise((r) => bot.server.close(r));
      await Promise.all([tmdb.close(), media.close(), mp.close()]);
      await database.close();
    },
  };
}

/** The error code of a reply (and fails unless the body is the shared error body). */
export async function errorOf(
  res: Response,
): Promise<{ status: number; code: string; message: string; details?: unknown }> {
  const body = errorBodySchema.parse(await res.json());
  return {
    status: res.status,
    code: body.error.code,
    message: body.error.message,
    details: body.error.details,
  };
}

/** Notify bodies the bot received for one request id, in order. */
export function eventsFor(bot: FakeBot, requestId: string): Record<string, unknown>[] {
  return bot.calls
    .filter((c) => c.path === '/notify/subscription')
    .map((c) => c.body)
    .filter((b) => (b.subscription as { id?: string } | undefined)?.id === requestId);
}
