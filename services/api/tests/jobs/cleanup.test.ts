import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/sql.js';
import { CLEANUP_JOB, runCleanup } from '../../src/modules/retention/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** An instant `ms` before NOW. */
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe(`retention cleanup (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle, { now: () => NOW });
  });
  afterAll(async () => {
    await t.context.scheduler.stop(1000);
    await database.close();
  });

  const exec = (query: ReturnType<typeof sql>) => database.handle.db.execute(query);
  const labels = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ label: string }>(database.handle.db, query)).map((r) => r.label).sort();

  /** Rows just past and just inside every retention limit of 10-data.md §11. */
  async function seed() {
    const user = await aUser().create(database.handle.db);
    const other = await aUser().create(database.handle.db);
    // email_codes 48 h: three past it (two batches of two), one inside.
    for (const [label, at] of [
      ['old-1', ago(48 * HOUR + MIN)],
      ['old-2', ago(60 * HOUR)],
      ['old-3', ago(400 * DAY)],
      ['fresh', ago(48 * HOUR - MIN)],
    ]) {
      await exec(sql`insert into email_codes (id, purpose, email, code, sent, ip, expires_at, created_at)
        values (gen_random_uuid(), 'register', ${`${label}@example.test`}, '123456', true,
          '203.0.113.9', ${at}, ${at})`);
    }
    // messenger_bind_codes and bot_pending_actions: until expired.
    await exec(sql`insert into messenger_bind_codes (user_id, code, expires_at)
      values (${user.id}, '111111', ${ago(MIN)}), (${other.id}, '222222', ${ago(-MIN)})`);
    for (const [chat, at] of [
      [1, ago(MIN)],
      [2, ago(-MIN)],
    ] as const) {
      await exec(sql`insert into bot_pending_actions (id, kind, chat_id, messenger_user_id, payload, expires_at)
        values (gen_random_uuid(), 'bind', ${chat}, ${chat}, '{}'::jsonb, ${at})`);
    }
    // rate_limits 1 h past `expire`; a row without `expire` is kept.
    await exec(sql`insert into rate_limits (key, points, expire) values
      ('old', 1, ${ago(HOUR + MIN)}), ('fresh', 1, ${ago(HOUR - MIN)}), ('forever', 1, null)`);
    // tmdb_cache 24 h past `expires_at`.
    await exec(sql`insert into tmdb_cache (key, value, expires_at) values
      ('old', '{}'::jsonb, ${ago(DAY + MIN)}), ('fresh', '{}'::jsonb, ${ago(DAY - MIN)})`);
    // payment_webhook_events 90 days.
    await exec(sql`insert into payment_webhook_events (event_id, type, livemode, received_at) values
      ('old', 'checkout.session.completed', false, ${ago(90 * DAY + MIN)}),
      ('fresh', 'checkout.session.completed', false, ${ago(90 * DAY - MIN)})`);
    // job_runs 90 days, keeping the latest run of each job and anything still running.
    for (const [job, status, at] of [
      ['alpha', 'succeeded', ago(200 * DAY)], // old: deleted
      ['alpha', 'failed', ago(90 * DAY + MIN)], // old: deleted
      ['alpha', 'succeeded', ago(90 * DAY - MIN)], // fresh and latest of alpha
      ['beta', 'succeeded', ago(300 * DAY)], // old: deleted
      ['beta', 'running', ago(200 * DAY)], // old but running: kept
      ['beta', 'succeeded', ago(100 * DAY)], // old but the latest of beta: kept
    ]) {
      await exec(sql`insert into job_runs (id, job_name, trigger, replica_id, status, started_at)
        values (gen_random_uuid(), ${job}, 'manual', ${`${job}:${status}:${at}`}, ${status}, ${at})`);
    }
    // media_server_retry_queue: done 30 days, gave_up 180 days, pending never.
    for (const [label, status, at] of [
      ['done-old', 'done', ago(30 * DAY + MIN)],
      ['done-fresh', 'done', ago(30 * DAY - MIN)],
      ['gave-up-old', 'gave_up', ago(180 * DAY + MIN)],
      ['gave-up-fresh', 'gave_up', ago(180 * DAY - MIN)],
      ['pending-ancient', 'pending', ago(999 * DAY)],
    ]) {
      await exec(sql`insert into media_server_retry_queue
          (id, operation, media_user_id, origin, status, next_attempt_at, created_at, updated_at)
        values (gen_random_uuid(), 'delete', ${label}, 'user_delete', ${status}, ${at}, ${at}, ${at})`);
    }
    // device_actions 90 days.
    await exec(sql`insert into device_actions (id, action, outcome, note, created_at) values
      (gen_random_uuid(), 'logout', 'ok', 'old', ${ago(90 * DAY + MIN)}),
      (gen_random_uuid(), 'logout', 'ok', 'fresh', ${ago(90 * DAY - MIN)})`);
    // ranking_batches 400 days (their playback_rankings cascade).
    for (const [label, day, at] of [
      ['old', '2024-01-01', ago(400 * DAY + MIN)],
      ['fresh', '2024-01-02', ago(400 * DAY - MIN)],
    ]) {
      const id = randomUUID();
      await exec(sql`insert into ranking_batches (id, period, period_start, period_end, timezone,
          cutoff_at, total_duration_s, trigger, generated_at)
        values (${id}, 'daily', ${day}, ${day}, 'UTC', ${at}, 0, 'schedule', ${at})`);
      await exec(sql`insert into playback_rankings (id, batch_id, category, rank, item_key,
          item_name, play_count, duration_s)
        values (gen_random_uuid(), ${id}, 'movie', 1, ${label}, ${label}, 1, 60)`);
    }
    // member_notices 90 days past the membership end they were about (past their writing when
    // about no end).
    for (const [days, end, created] of [
      [7, ago(90 * DAY + MIN), ago(MIN)],
      [3, ago(90 * DAY - MIN), ago(100 * DAY)],
      [null, null, ago(90 * DAY + MIN)],
      [null, null, ago(90 * DAY - MIN)],
    ] as const) {
      await exec(sql`insert into member_notices (id, user_id, kind, ref, channel, status, expires_at,
          days, created_at)
        values (gen_random_uuid(), ${user.id}, 'expiry_reminder', ${`${String(days)}/${created}`},
          'email', 'sent', ${end}, ${days}, ${created})`);
    }
    // playback_plays (the plays copy) two years.
    for (const [label, at] of [
      ['old', ago(730 * DAY + MIN)],
      ['fresh', ago(730 * DAY - MIN)],
    ]) {
      await exec(sql`insert into playback_plays (source_rowid, played_at, media_user_id, item_id,
          item_type, item_name, play_method, client, device, seconds)
        values (1, ${at}, 'u1', ${label}, 'Movie', ${label}, 'DirectPlay', 'Web', 'Firefox', 60)`);
    }
    // audit_log 365 days.
    for (const [label, at] of [
      ['old', ago(365 * DAY + MIN)],
      ['fresh', ago(365 * DAY - MIN)],
    ]) {
      await exec(sql`insert into audit_log (id, at, actor_type, actor_label, action)
        values (gen_random_uuid(), ${at}, 'system', ${label}, 'test.seed')`);
    }
  }

  it('should delete exactly the rows past retention, in batches, and report the counts', async () => {
    await seed();
    const { logger } = memoryLogger();
    const outcome = await runCleanup(
      { db: database.handle.db, now: () => NOW },
      { signal: new AbortController().signal, logger },
      { batch: 2 },
    );

    expect(outcome.summary).toMatchObject({
      removed: {
        email_codes: 3,
        messenger_bind_codes: 1,
        bot_pending_actions: 1,
        rate_limits: 1,
        tmdb_cache: 1,
        payment_webhook_events: 1,
        job_runs: 3,
        media_server_retry_queue_done: 1,
        media_server_retry_queue_gave_up: 1,
        audit_log: 1,
        device_actions: 1,
        ranking_batches: 1,
        playback_plays: 1,
        member_notices: 2,
      },
      total: 19,
      cutoffAt: NOW.toISOString(),
    });
    // One statement per rule, plus one more for each table with a full batch (email_codes:
    // 2 + 1 rows, job_runs: 2 + 1 rows, member_notices: 2 + 0 rows).
    expect(outcome.summary!.statements).toBe(17);
    expect(await labels(sql`select item_id as label from playback_plays`)).toEqual(['fresh']);
    expect(await labels(sql`select item_key as label from playback_rankings`)).toEqual(['fresh']);
    expect(await labels(sql`select note as label from device_actions`)).toEqual(['fresh']);

    expect(await labels(sql`select email as label from email_codes`)).toEqual([
      'fresh@example.test',
    ]);
    expect(await labels(sql`select code as label from messenger_bind_codes`)).toEqual(['222222']);
    expect(await labels(sql`select chat_id::text as label from bot_pending_actions`)).toEqual([
      '2',
    ]);
    expect(await labels(sql`select key as label from rate_limits`)).toEqual(['forever', 'fresh']);
    expect(await labels(sql`select key as label from tmdb_cache`)).toEqual(['fresh']);
    expect(await labels(sql`select event_id as label from payment_webhook_events`)).toEqual([
      'fresh',
    ]);
    expect(await labels(sql`select job_name || ':' || status as label from job_runs`)).toEqual([
      'alpha:succeeded',
      'beta:running',
      'beta:succeeded',
    ]);
    expect(await labels(sql`select media_user_id as label from media_server_retry_queue`)).toEqual([
      'done-fresh',
      'gave-up-fresh',
      'pending-ancient',
    ]);
    expect(await labels(sql`select actor_label as label from audit_log`)).toEqual(['fresh']);
    expect(
      await labels(sql`select coalesce(days::text, 'none') as label from member_notices`),
    ).toEqual(['3', 'none']);

    // A second run finds nothing left to do.
    const again = await runCleanup(
      { db: database.handle.db, now: () => NOW },
      { signal: new AbortController().signal, logger },
    );
    expect(again).toMatchObject({ status: 'skipped', summary: { total: 0 } });
  });

  it('should stop between batches when the run is aborted', async () => {
    for (let i = 0; i < 5; i += 1) {
      await exec(sql`insert into audit_log (id, at, actor_type, actor_label, action)
        values (gen_random_uuid(), ${ago(400 * DAY)}, 'system', 'abort', 'test.seed')`);
    }
    const abort = new AbortController();
    const logger = memoryLogger().logger;
    const db = new Proxy(database.handle.db, {
      get(target, prop, receiver) {
        if (prop === 'execute') {
          return async (...args: unknown[]) => {
            const result = await (target.execute as (...a: unknown[]) => Promise<unknown>)(...args);
            // Abort once the first audit_log batch went through.
            if (JSON.stringify(args).includes('audit_log')) abort.abort();
            return result;
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const outcome = await runCleanup(
      { db, now: () => NOW },
      { signal: abort.signal, logger },
      {
        batch: 2,
      },
    );
    expect(outcome.summary!.removed).toMatchObject({ audit_log: 2 });
    expect(
      await labels(sql`select actor_label as label from audit_log where actor_label = 'abort'`),
    ).toHaveLength(3);
  });

  it('should be registered as the cleanup job following CLEANUP_CRON and record its summary', async () => {
    const listed = t.context.scheduler.list().find((j) => j.name === CLEANUP_JOB);
    expect(listed).toMatchObject({ scheduleSetting: 'CLEANUP_CRON', schedule: '30 3 * * *' });
    expect(await t.context.scheduler.plan(CLEANUP_JOB)).toMatchObject({
      enabled: true,
      nextRunAt: new Date('2026-06-16T03:30:00.000Z'),
    });
    await exec(sql`insert into audit_log (id, at, actor_type, actor_label, action)
      values (gen_random_uuid(), ${ago(366 * DAY)}, 'system', 'via-job', 'test.seed')`);
    const { runId, done } = await t.context.scheduler.runNow(CLEANUP_JOB);
    expect(await done).toBe('succeeded');
    const [run] = await queryRows<{ status: string; summary: { removed: Record<string, number> } }>(
      database.handle.db,
      sql`select status, summary from job_runs where id = ${runId}`,
    );
    expect(run!.summary.removed.audit_log).toBeGreaterThanOrEqual(1);
  });
});
