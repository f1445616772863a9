/**
 * Polling mode in-process (40-bot.md §3.2, §12 "polling" and "lease"): the lease statements on
 * PGlite (or PostgreSQL with TEST_DATABASE_URL), a second instance refused with the exact line,
 * release on stop and takeover, a lost lease stopping polling, and Telegram's 409.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  commandMessage,
  eventually,
  startFakeTelegram,
  tgUser,
  type FakeTelegram,
} from '@usher/testkit';
import pg from 'pg';
import { createApiClient } from '../src/api-client.js';
import { createBot } from '../src/bot/index.js';
import {
  LEASE_TABLE,
  PollingLease,
  TABLE_MISSING_LINE,
  waitForTable,
  type Query,
} from '../src/lease.js';
import { createLogger } from '../src/logger.js';
import { createMetrics } from '../src/metrics.js';
import { CONFLICT_LINE, PollingRunner } from '../src/polling.js';
import { initialHealth, type HealthState } from '../src/server.js';
import { SettingsCache } from '../src/settings.js';
import { loadConfig } from '../src/config.js';
import { INTERNAL_SECRET, baseEnv, memoryLogs } from './support/harness.js';
import { applyApiLeaseMigration } from './support/lease-table.js';
import { StubApi } from './support/stub-api.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

let query: Query;
let closeDb: () => Promise<void>;
let fake: FakeTelegram;
let api: StubApi;

beforeAll(async () => {
  if (TEST_DATABASE_URL) {
    const name = `usher_bot_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
    query = (sql, params) => pool.query(sql, params as unknown[]);
    closeDb = async () => {
      await pool.end();
      const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  } else {
    const db = await PGlite.create();
    query = async (sql, params) => ({
      rows: (await db.query(sql, params as unknown[])).rows as Record<string, unknown>[],
    });
    closeDb = () => db.close();
  }
  fake = await startFakeTelegram();
  api = await new StubApi(INTERNAL_SECRET).start();
}, 120_000);

describe('lease table', () => {
  // Runs first: the table does not exist until the API's migration below creates it.
  it("should wait for the API's migration, then find bot_leases", async () => {
    const lease = new PollingLease(query, 'host-a:1:aaaaaaaaaaaa');
    expect(await lease.tableExists()).toBe(false);
    let clock = 0;
    let checks = 0;
    const slept: number[] = [];
    const waited = waitForTable(
      {
        tableExists: async () => {
          checks += 1;
          if (checks === 3) await applyApiLeaseMigration(query);
          return lease.tableExists();
        },
      },
      {
        now: () => clock,
        sleep: async (ms) => {
          slept.push(ms);
          clock += ms;
        },
      },
    );
    expect(await waited).toEqual({ ready: true });
    expect(slept).toEqual([5000, 5000]);
    expect(await lease.tableExists()).toBe(true);
  });

  it('should give up after 60 s of checks every 5 s when the table never appears', async () => {
    let clock = 0;
    const slept: number[] = [];
    const result = await waitForTable(
      { tableExists: async () => false },
      {
        now: () => clock,
        sleep: async (ms) => {
          slept.push(ms);
          clock += ms;
        },
      },
    );
    expect(result).toEqual({ ready: false, missing: true, reason: 'table bot_leases not found' });
    expect(slept).toHaveLength(12);
    expect(TABLE_MISSING_LINE).toBe(
      'polling: table bot_leases not found; start the API first so it applies migrations',
    );
  });

  it('should retry a database that does not answer, and report its error when time is up', async () => {
    let clock = 0;
    const result = await waitForTable(
      {
        tableExists: async () => {
          throw new Error('connect ECONNREFUSED');
        },
      },
      { deadlineMs: 10_000, now: () => clock, sleep: async (ms) => void (clock += ms) },
    );
    expect(result).toEqual({ ready: false, missing: false, reason: 'connect ECONNREFUSED' });
  });
});

afterAll(async () => {
  await api.close();
  await fake.close();
  await closeDb();
});

describe('lease statements', () => {
  beforeAll(() => applyApiLeaseMigration(query));

  it('should acquire, refuse a second owner, renew, take over after expiry and release', async () => {
    const a = new PollingLease(query, 'host-a:1:aaaaaaaaaaaa');
    const b = new PollingLease(query, 'host-b:2:bbbbbbbbbbbb');
    const got = await a.acquire();
    expect(got.held).toBe(true);
    const refused = await b.acquire();
    expect(refused).toMatchObject({ held: false, owner: 'host-a:1:aaaaaaaaaaaa' });
    expect(await a.acquire()).toMatchObject({ held: true });
    expect(await a.renew()).toBeInstanceOf(Date);
    expect(await b.renew()).toBeNull();
    await query(`UPDATE ${LEASE_TABLE} SET expires_at = now() - interval '1 second'`);
    expect(await a.renew()).toBeNull();
    expect(await b.acquire()).toMatchObject({ held: true });
    await a.release();
    expect((await query(`SELECT owner_id FROM ${LEASE_TABLE}`)).rows).toEqual([
      { owner_id: 'host-b:2:bbbbbbbbbbbb' },
    ]);
    await b.release();
    expect((await query(`SELECT owner_id FROM ${LEASE_TABLE}`)).rows).toEqual([]);
  });
});

interface Instance {
  runner: PollingRunner;
  health: HealthState;
  fatal: { code: number; line: string }[];
  lease: PollingLease;
}

function instance(owner: string): Instance {
  const loaded = loadConfig(
    baseEnv(fake, api.url, {
      MESSENGER_UPDATE_MODE: 'polling',
      DATABASE_URL: 'postgres://unused@127.0.0.1/x',
    }),
  );
  if (!loaded.ok) throw new Error(loaded.errors.join());
  const config = loaded.config;
  const logger = createLogger('debug', memoryLogs().stream);
  const metrics = createMetrics({ defaultMetrics: false });
  const apiClient = createApiClient({
    baseUrl: config.API_URL,
    secret: config.INTERNAL_API_SECRET,
  });
  const settings = new SettingsCache({ api: apiClient, config, logger });
  const bot = createBot({
    config,
    logger,
    api: apiClient,
    settings,
    metrics,
    botInfo: fake.bot as never,
  });
  const health = initialHealth('polling');
  const fatal: Instance['fatal'] = [];
  const lease = new PollingLease(query, owner);
  const runner = new PollingRunner({
    bot,
    lease,
    health,
    logger,
    metrics,
    onFatal: (code, line) => fatal.push({ code, line }),
    // Renewal is driven by hand through tick().
    timers: { setInterval: () => 0, clearInterval: () => undefined },
  });
  return { runner, health, fatal, lease };
}

const helpTo = (id: number) => commandMessage({ from: tgUser({ id }), command: 'help' });
const answeredIn = (chatId: number) =>
  fake.callsTo('sendMessage').some((c) => c.params.chat_id === chatId);
/** Waits until the bot has answered in `chatId`. */
const answerIn = (chatId: number) => eventually(() => expect(answeredIn(chatId)).toBe(true));
/**
 * How long a stopped poller is watched for a poll it should not make. A live one answers a queued
 * update within a few milliseconds (the fake wakes the open long poll), so 200 ms is ample and
 * still short.
 */
const QUIET_MS = 200;

describe('polling runner', () => {
  beforeAll(() => applyApiLeaseMigration(query));

  beforeEach(async () => {
    await query(`DELETE FROM ${LEASE_TABLE}`);
    fake.reset();
  });

  it('should poll with the lease, refuse a second instance, and hand over on stop', async () => {
    const a = instance('host-a:100:111111111111');
    expect(await a.runner.start()).toBe(true);
    expect(a.health.lease).toMatchObject({ held: true });
    fake.queueUpdate(helpTo(9001));
    await answerIn(9001);

    const b = instance('host-b:200:222222222222');
    expect(await b.runner.start()).toBe(false);
    expect(b.fatal).toHaveLength(1);
    expect(b.fatal[0]!.code).toBe(2);
    expect(b.fatal[0]!.line).toMatch(
      /^polling: lease "messenger_polling" is held by host-a:100:111111111111 until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z; another bot instance is polling\. Run exactly one polling instance or use MESSENGER_UPDATE_MODE=webhook$/,
    );
    expect(a.fatal).toEqual([]);

    await a.runner.stop();
    expect((await query(`SELECT * FROM ${LEASE_TABLE}`)).rows).toEqual([]);
    // telegraf confirmed the offset on stop: the handled update is not delivered again.
    const confirm = fake.callsTo('getUpdates').at(-1)!;
    expect(confirm.params).toMatchObject({ limit: 1 });
    expect(fake.state.pending).toEqual([]);

    const c = instance('host-c:300:333333333333');
    expect(await c.runner.start()).toBe(true);
    fake.queueUpdate(helpTo(9002));
    await answerIn(9002);
    expect(fake.callsTo('sendMessage').filter((m) => m.params.chat_id === 9001)).toHaveLength(1);
    await c.runner.stop();
  });

  it('should stop polling and report 503 when the lease is lost, then take it back', async () => {
    const a = instance('host-a:101:444444444444');
    await a.runner.start();
    await a.runner.tick();
    expect(a.health).toMatchObject({ degraded: false, lease: { held: true } });
    await query(
      `UPDATE ${LEASE_TABLE} SET owner_id = 'thief', expires_at = now() + interval '1 second'`,
    );
    await a.runner.tick();
    expect(a.health).toMatchObject({
      degraded: true,
      lease: { held: false },
      lastError: 'polling lease lost',
    });
    const polls = fake.callsTo('getUpdates').length;
    fake.queueUpdate(helpTo(9003));
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(fake.callsTo('getUpdates')).toHaveLength(polls);
    expect(answeredIn(9003)).toBe(false);

    await query(`UPDATE ${LEASE_TABLE} SET expires_at = now() - interval '1 second'`);
    await a.runner.tick();
    expect(a.health).toMatchObject({ degraded: false, lease: { held: true } });
    await answerIn(9003);
    await a.runner.stop();
  });

  it('should exit 2 with the exact line when Telegram answers 409', async () => {
    const a = instance('host-a:102:555555555555');
    await a.runner.start();
    await eventually(() =>
      expect(fake.callsTo('getUpdates')).toContainEqual(
        expect.objectContaining({ params: expect.objectContaining({ timeout: 50 }) }),
      ),
    );
    // Another poller with the same token: Telegram ends the open poll with 409.
    await fetch(`${fake.url}/bot${fake.token}/getUpdates`, { method: 'POST' });
    await eventually(() => expect(a.fatal).toEqual([{ code: 2, line: CONFLICT_LINE }]));
    await a.runner.stop();
  });
});
