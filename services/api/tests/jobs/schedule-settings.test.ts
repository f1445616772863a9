import { jobListSchema, runJobResponseSchema, settingsTestReplySchema } from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { asc, eq } from 'drizzle-orm';
import { jobRuns } from '../../src/db/schema/index.js';
import type { JobDefinition } from '../../src/scheduler/scheduler.js';
import type { SettingKey } from '../../src/settings-store/definitions.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { SimulatedClock } from '../support/clock.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { scheduledRuns } from '../support/schedule.js';
import { aUser } from '../support/users.js';

/** A job following a cron setting that records the slots it ran for. */
function probe(name: string, scheduleSetting: SettingKey, runs: string[]): JobDefinition {
  return {
    name,
    description: 'records its runs',
    schedule: '0 0 1 1 *',
    scheduleSetting,
    run: async (ctx) => {
      runs.push(ctx.runId);
      return { summary: { runs: runs.length } };
    },
  };
}

async function adminToken(t: TestApp): Promise<string> {
  const admin = await aUser().admin().create(t.context.db);
  return (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
}

describe(`schedules follow the settings on every replica (${ENGINE})`, () => {
  let database: TestDatabase;
  let clock: SimulatedClock;
  let a: TestApp;
  let b: TestApp;
  let token: string;
  const executions: string[] = [];
  const unwatch: (() => void)[] = [];
  const settle = () => Promise.all([a.context.scheduler.idle(), b.context.scheduler.idle()]);
  const scheduledSlots = async () =>
    (await scheduledRuns(database.handle.db, 'probe_expiry')).map((r) => `${r.slot} ${r.status}`);
  const put = (values: Record<string, unknown>) =>
    a.call('PUT', '/api/v1/admin/settings/schedule', { token, body: { values } });

  beforeAll(async () => {
    database = await createTestDatabase();
    clock = new SimulatedClock('2026-06-01T00:10:00Z');
    const config = testConfig(); // one JWT secret: a token works on either replica
    const replica = async (replicaId: string, handle = database.handle) =>
      createTestApp(handle, {
        replicaId,
        config,
        now: clock.now,
        schedulerClock: clock,
        settingsRefreshMs: 25,
        jobs: () => [probe('probe_expiry', 'EXPIRY_CHECK_CRON', executions)],
      });
    a = await replica('replica-a');
    b = await replica('replica-b', await database.connectAnother());
    token = await adminToken(a);
    for (const t of [a, b]) unwatch.push(t.context.settings.store.watch());
    await Promise.all([a.context.scheduler.start(), b.context.scheduler.start()]);
  });
  afterAll(async () => {
    for (const stop of unwatch) stop();
    await a.context.scheduler.stop(1000);
    await b.context.scheduler.stop(1000);
    await database.close();
  });

  it('should run each slot once and apply a cron change on both replicas without a restart', async () => {
    await clock.advanceTo('2026-06-01T02:00:00Z', settle);
    expect(await scheduledSlots()).toEqual([
      '2026-06-01T01:00:00.000Z succeeded',
      '2026-06-01T02:00:00.000Z succeeded',
    ]);
    expect(executions).toHaveLength(2);

    expect((await put({ EXPIRY_CHECK_CRON: '15 * * * *' })).status).toBe(200);
    await settle();
    // The writing replica re-arms at once; the other one when its settings refresh sees the row.
    expect(a.context.scheduler.armedSlots().probe_expiry?.toISOString()).toBe(
      '2026-06-01T02:15:00.000Z',
    );
    await eventually(() =>
      expect(b.context.scheduler.armedSlots().probe_expiry?.toISOString()).toBe(
        '2026-06-01T02:15:00.000Z',
      ),
    );
    const listed = jobListSchema.parse(
      await (await b.call('GET', '/api/v1/admin/jobs', { token })).json(),
    );
    expect(listed.data).toEqual([
      expect.objectContaining({
        name: 'probe_expiry',
        schedule: '15 * * * *',
        scheduleSetting: 'EXPIRY_CHECK_CRON',
        timezone: 'UTC',
        enabled: true,
        disabledBy: null,
        nextRunAt: '2026-06-01T02:15:00.000Z',
      }),
    ]);

    await clock.advanceTo('2026-06-01T04:00:00Z', settle);
    expect((await scheduledSlots()).slice(2)).toEqual([
      '2026-06-01T02:15:00.000Z succeeded',
      '2026-06-01T03:15:00.000Z succeeded',
    ]);
    expect(executions).toHaveLength(4);
  });

  it('should fire nothing for a whole day while JOBS_ENABLED is off, yet run a manual run', async () => {
    expect((await put({ JOBS_ENABLED: false })).status).toBe(200);
    await settle();
    await eventually(() => expect(b.context.scheduler.armedSlots().probe_expiry).toBeNull());
    expect(a.context.scheduler.armedSlots().probe_expiry).toBeNull();
    // No timer is armed at all on either replica.
    expect(clock.armed).toBe(0);
    const before = (await scheduledSlots()).length;

    const listed = jobListSchema.parse(
      await (await a.call('GET', '/api/v1/admin/jobs', { token })).json(),
    );
    expect(listed.data[0]).toMatchObject({
      enabled: false,
      disabledBy: 'JOBS_ENABLED',
      nextRunAt: null,
    });
    // The connection test says so, and names the job each key drives.
    const test = settingsTestReplySchema.parse(
      await (
        await a.call('POST', '/api/v1/admin/settings/schedule/test', { token, body: {} })
      ).json(),
    );
    expect(test.checks[0]).toMatchObject({ status: 'warn' });
    expect(test.checks[0]!.message).toContain('JOBS_ENABLED is off');
    expect(test.checks.map((c) => c.message).join('\n')).toContain(
      'EXPIRY_CHECK_CRON "15 * * * *"',
    );
    expect(test.checks.map((c) => c.message).join('\n')).toContain('drives probe_expiry');

    await clock.advanceTo('2026-06-02T04:30:00Z', settle);
    expect(await scheduledSlots()).toHaveLength(before);

    const executed = executions.length;
    const started = await b.call('POST', '/api/v1/admin/jobs/probe_expiry/run', {
      token,
      body: {},
    });
    expect(started.status).toBe(202);
    const { runId } = runJobResponseSchema.parse(await started.json());
    await eventually(async () => {
      const [run] = await database.handle.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'manual' });
    });
    expect(executions).toHaveLength(executed + 1);

    // Switching back on arms the next slot after "now" — no replay of the missed day.
    expect((await put({ JOBS_ENABLED: true })).status).toBe(200);
    await settle();
    await eventually(() =>
      expect(b.context.scheduler.armedSlots().probe_expiry?.toISOString()).toBe(
        '2026-06-02T05:15:00.000Z',
      ),
    );
    await clock.advanceTo('2026-06-02T05:20:00Z', settle);
    expect((await scheduledSlots()).slice(before)).toEqual(['2026-06-02T05:15:00.000Z succeeded']);
  });
});

describe(`daily slots across DST changes (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  /** Runs a daily `expression` in `zone` from `from` to `to`; returns the slots that ran. */
  async function slotsBetween(zone: string, expression: string, from: string, to: string) {
    const clock = new SimulatedClock(from);
    const name = `dst_${zone.replace(/\W/g, '_').toLowerCase()}_${from.slice(5, 7)}`;
    const runs: string[] = [];
    const t = createTestApp(database.handle, {
      replicaId: name,
      now: clock.now,
      schedulerClock: clock,
      settingsEnv: { SCHEDULE_TIMEZONE: zone, CLEANUP_CRON: expression },
      jobs: () => [probe(name, 'CLEANUP_CRON', runs)],
    });
    await t.context.scheduler.start();
    await clock.advanceTo(to, () => t.context.scheduler.idle());
    await t.context.scheduler.stop(1000);
    const rows = await database.handle.db
      .select({ slot: jobRuns.scheduledFor })
      .from(jobRuns)
      .where(eq(jobRuns.jobName, name))
      .orderBy(asc(jobRuns.scheduledFor));
    expect(runs).toHaveLength(rows.length);
    return rows.map((r) => r.slot!.toISOString());
  }

  it('should run a 02:30 Berlin job once on the day 02:30 does not exist (at 03:00)', async () => {
    expect(
      await slotsBetween(
        'Europe/Berlin',
        '30 2 * * *',
        '2026-03-27T12:00:00Z',
        '2026-03-31T00:00:00Z',
      ),
    ).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST: 02:30 was skipped by the clock change
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
    ]);
  });

  it('should run a 02:30 Berlin job once on the day 02:30 happens twice', async () => {
    expect(
      await slotsBetween(
        'Europe/Berlin',
        '30 2 * * *',
        '2026-10-23T12:00:00Z',
        '2026-10-27T00:00:00Z',
      ),
    ).toEqual([
      '2026-10-24T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T00:30:00.000Z', // the first 02:30; the repeated one (01:30Z) does not fire
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ]);
  });

  it('should run a 02:30 New York job once on the spring-forward day (at 03:00)', async () => {
    expect(
      await slotsBetween(
        'America/New_York',
        '30 2 * * *',
        '2026-03-06T12:00:00Z',
        '2026-03-10T00:00:00Z',
      ),
    ).toEqual(['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
  });

  it('should run a 01:30 New York job once on the fall-back day', async () => {
    expect(
      await slotsBetween(
        'America/New_York',
        '30 1 * * *',
        '2026-10-30T12:00:00Z',
        '2026-11-03T00:00:00Z',
      ),
    ).toEqual(['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });
});
