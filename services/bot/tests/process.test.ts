/**
 * The real process (`node main.js`, bundled like the image): exit codes and lines of 40-bot.md
 * §1.2, webhook registration at start, and polling with two instances — the second refused with
 * the exact line, the first releasing its lease on SIGTERM and a third taking over.
 * PostgreSQL is PGlite behind pglite-socket (or TEST_DATABASE_URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import {
  commandMessage,
  eventually,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
} from '@usher/testkit';
import { build } from 'esbuild';
import pg from 'pg';
import { INTERNAL_SECRET, WEBHOOK_SECRET } from './support/harness.js';
import { applyApiLeaseMigration } from './support/lease-table.js';
import { StubApi } from './support/stub-api.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.cache', `process-test-${randomBytes(4).toString('hex')}`);
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

let fake: FakeTelegram;
let api: StubApi;
let databaseUrl: string;
let stopDb: () => Promise<void>;
let pool: pg.Pool;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [join(ROOT, 'src/main.ts')],
    outfile: join(OUT, 'main.js'),
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    external: Object.keys(pkg.dependencies),
    logLevel: 'warning',
  });
  fake = await startFakeTelegram();
  api = await new StubApi(INTERNAL_SECRET).start();
  if (TEST_DATABASE_URL) {
    const name = `usher_botp_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    stopDb = async () => {
      const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  } else {
    const db = await PGlite.create();
    const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 20 });
    await server.start();
    databaseUrl = `postgres://postgres@${server.getServerConn()}/postgres`;
    stopDb = async () => {
      await server.stop();
      await db.close();
    };
  }
  pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  // The database as the API leaves it: its migration created bot_leases.
  await applyApiLeaseMigration((sql, params) => pool.query(sql, params as unknown[]));
}, 120_000);

afterAll(async () => {
  await pool.end();
  await stopDb();
  await api.close();
  await fake.close();
  rmSync(OUT, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  // A failed assertion must not leave a bot running (and jest waiting for it).
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Running {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  exited: Promise<number | null>;
}

async function startBot(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  let stderr = '';
  const child = spawn(process.execPath, [join(OUT, 'main.js')], {
    cwd: OUT,
    env: {
      PATH: process.env.PATH ?? '',
      MESSENGER_BOT_TOKEN: fake.token,
      MESSENGER_WEBHOOK_SECRET: WEBHOOK_SECRET,
      INTERNAL_API_SECRET: INTERNAL_SECRET,
      MESSENGER_API_ROOT: fake.url,
      API_URL: api.url,
      BOT_PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, port, stderr: () => stderr, exited };
}

async function health(
  port: number,
): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, {
      signal: AbortSignal.timeout(1000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

/** How long (and how often) to poll a bot process: start-up bundles and migrates. */
const PROCESS_WAIT = { timeoutMs: 20_000, intervalMs: 100 };
const leaseOf = async (port: number) => (await health(port))?.body.lease;
const answered = (chatId: number) =>
  fake.callsTo('sendMessage').some((m) => m.params.chat_id === chatId);

const polling = () => ({ MESSENGER_UPDATE_MODE: 'polling', DATABASE_URL: databaseUrl });
const leaseRows = async () => (await pool.query('SELECT owner_id FROM bot_leases')).rows;

describe('start-up failures', () => {
  it('should exit 1 with one line per problem and open no port', async () => {
    const bot = await startBot({
      MESSENGER_BOT_TOKEN: '',
      MESSENGER_UPDATE_MODE: 'polling',
      DATABASE_URL: '',
    });
    expect(await bot.exited).toBe(1);
    expect(bot.stderr().trim().split('\n')).toEqual([
      'config: MESSENGER_BOT_TOKEN is required',
      'config: DATABASE_URL is required when MESSENGER_UPDATE_MODE=polling (the polling lease is stored in PostgreSQL)',
    ]);
    expect(await health(bot.port)).toBeNull();
  });

  it('should exit 3 when Telegram rejects the token', async () => {
    const bot = await startBot({
      MESSENGER_BOT_TOKEN: '7000000001:AAWrongTokenWrongTokenWrongToken_99',
      WEBHOOK_URL: 'http://127.0.0.1:9',
    });
    expect(await bot.exited).toBe(3);
    expect(bot.stderr()).toContain('telegram: MESSENGER_BOT_TOKEN was rejected (401 Unauthorized)');
  });
});

describe('webhook mode process', () => {
  it('should register the webhook, report healthy, and not delete it on SIGTERM', async () => {
    fake.reset();
    const bot = await startBot({ WEBHOOK_URL: 'http://127.0.0.1:8443/' });
    const ok = await eventually(async () => {
      const h = await health(bot.port);
      expect(h?.body.webhookRegistered).toBe(true);
      return h;
    }, PROCESS_WAIT);
    expect(ok).toEqual({
      status: 200,
      body: { status: 'ok', updateMode: 'webhook', webhookRegistered: true },
    });
    expect(fake.callsTo('setWebhook').at(-1)!.params).toMatchObject({
      url: 'http://127.0.0.1:8443/messenger/webhook',
      secret_token: WEBHOOK_SECRET,
      allowed_updates: ['message', 'callback_query', 'my_chat_member'],
      max_connections: 40,
    });
    expect(fake.callsTo('setMyCommands')).toHaveLength(3);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(fake.callsTo('deleteWebhook')).toEqual([]);
    expect(fake.state.webhook).not.toBeNull();
  });
});

describe('polling mode processes', () => {
  it('should refuse a second instance, release the lease on SIGTERM and let the next take over', async () => {
    fake.reset();
    const a = await startBot(polling());
    await eventually(
      async () => expect(await leaseOf(a.port)).toMatchObject({ held: true }),
      PROCESS_WAIT,
    );
    const owner = String((await leaseRows())[0]!.owner_id);
    expect(owner).toMatch(/^.+:\d+:[0-9a-f]{12}$/);

    const b = await startBot(polling());
    expect(await b.exited).toBe(2);
    expect(b.stderr().trim()).toMatch(
      new RegExp(
        `^polling: lease "messenger_polling" is held by ${owner.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} until \\S+Z; ` +
          'another bot instance is polling\\. Run exactly one polling instance or use MESSENGER_UPDATE_MODE=webhook$',
      ),
    );

    fake.queueUpdate(commandMessage({ from: tgUser({ id: 9501 }), command: 'help' }));
    await eventually(() => expect(answered(9501)).toBe(true), PROCESS_WAIT);

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await leaseRows()).toEqual([]);

    const c = await startBot(polling());
    await eventually(
      async () => expect(await leaseOf(c.port)).toMatchObject({ held: true }),
      PROCESS_WAIT,
    );
    expect(String((await leaseRows())[0]!.owner_id)).not.toBe(owner);
    fake.queueUpdate(commandMessage({ from: tgUser({ id: 9502 }), command: 'help' }));
    await eventually(() => expect(answered(9502)).toBe(true), PROCESS_WAIT);
    expect(fake.callsTo('sendMessage').filter((m) => m.params.chat_id === 9501)).toHaveLength(1);
    c.child.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    expect(await leaseRows()).toEqual([]);
  }, 90_000);
});
