// `ranking_daily` and `ranking_weekly` on their default crons in SCHEDULE_TIMEZONE
// (Europe/Berlin): a simulated Sunday afternoon runs into the evening, each job fires once at
// 20:00 / 20:30 local time, stores the current period cut off at that moment and pushes it. The
// bot is unreachable here, so the recorded outcome is `failed`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rankingLatestSchema, type RankingBatch } from '@usher/contracts';
import { asc, eq } from 'drizzle-orm';
import { jobRuns } from '../../src/db/schema/index.js';
import { rankingJobs } from '../../src/modules/rankings/index.js';
import { startMediaWorld, type MediaWorld } from '../media/harness.js';
import { SimulatedClock } from '../support/clock.js';
import { testConfig } from '../support/config.js';
import { seedPlays } from './seed.js';

/** A local address nothing listens on (a server is opened and closed to find one). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

const rows = (entries: RankingBatch['movies']) =>
  entries.map((e) => [e.rank, e.name, e.playCount, e.durationSeconds]);

describe('ranking jobs follow their cron settings in the business zone', () => {
  let w: MediaWorld;
  let clock: SimulatedClock;
  const settle = () => w.t.context.scheduler.idle();

  beforeAll(async () => {
    // Sunday 2026-10-25 13:00 CET.
    clock = new SimulatedClock('2026-10-25T12:00:00Z');
    w = await startMediaWorld('jellyfin', {
      serverZone: 'Asia/Shanghai',
      businessZone: 'Europe/Berlin',
      schedulerClock: clock,
      config: testConfig({ BOT_NOTIFY_URL: await deadUrl() }),
      settings: { RANKING_ENABLED: 'true' },
      // Only these two: the interval jobs would add thousands of runs to the simulated hours.
      jobs: rankingJobs,
    });
    seedPlays(w, 'jellyfin');
    await w.t.context.scheduler.start();
  }, 120_000);
  afterAll(async () => {
    await w.t.context.notify.idle();
    await w.close();
  });

  it('should build the running day and week at 20:00 and 20:30 Berlin time, once each', async () => {
    await clock.advanceTo('2026-10-25T21:00:00Z', settle);
    const ranking = await w.t.context.db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.trigger, 'schedule'))
      .orderBy(asc(jobRuns.scheduledFor));
    expect(ranking.map((r) => [r.jobName, r.scheduledFor!.toISOString(), r.status])).toEqual([
      ['ranking_daily', '2026-10-25T19:00:00.000Z', 'succeeded'],
      ['ranking_weekly', '2026-10-25T19:30:00.000Z', 'succeeded'],
    ]);
    expect(ranking[0]!.summary).toMatchObject({
      periodStart: '2026-10-25',
      movies: 2,
      series: 2,
      totalDurationSeconds: 8800,
      pushOutcome: 'failed',
    });

    const token = await w.token(await w.member('alice'));
    const daily = rankingLatestSchema.parse(
      await (await w.get('/api/v1/rankings/latest?period=daily', token)).json(),
    ).batch!;
    // Cut off at the run: the 23:30 play of Dune is not counted yet.
    expect(daily).toMatchObject({
      trigger: 'schedule',
      cutoffAt: '2026-10-25T19:00:00.000Z',
      pushOutcome: 'failed',
    });
    expect(rows(daily.movies)).toEqual([
      [1, 'Oppenheimer', 2, 2000],
      [2, 'Mad Max: Fury Road', 1, 2000],
    ]);
    const weekly = rankingLatestSchema.parse(
      await (await w.get('/api/v1/rankings/latest?period=weekly', token)).json(),
    ).batch!;
    expect(weekly).toMatchObject({
      periodStart: '2026-10-19',
      periodEnd: '2026-10-25',
      cutoffAt: '2026-10-25T19:30:00.000Z',
      totalDurationSeconds: 16_700,
    });
    expect(rows(weekly.series)).toEqual([
      [1, 'Severance', 3, 3600],
      [2, 'The Bear', 1, 1800],
    ]);
  });

  it('should skip a run without the Playback Reporting plugin, and not push with RANKING_PUSH off', async () => {
    const run = async (name: string) => {
      const res = await w.t.call('POST', `/api/v1/admin/jobs/${name}/run`, {
        token: w.adminToken,
        body: {},
      });
      expect(res.status).toBe(202);
      const { runId } = (await res.json()) as { runId: string };
      // A manual run goes on after the 202: wait for its row to leave `running`.
      for (;;) {
        const [row] = await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
        if (row!.status !== 'running') return row!;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    w.fake.state.playback.installed = false;
    try {
      const skipped = await run('ranking_daily');
      expect(skipped).toMatchObject({
        trigger: 'manual',
        status: 'skipped',
        summary: { reason: 'playback_reporting not configured' },
      });
    } finally {
      w.fake.state.playback.installed = true;
    }
    const put = await w.t.call('PUT', '/api/v1/admin/settings/schedule', {
      token: w.adminToken,
      body: { values: { RANKING_PUSH: false } },
    });
    expect(put.status).toBe(200);
    const quiet = await run('ranking_weekly');
    expect(quiet).toMatchObject({ status: 'succeeded', summary: { pushOutcome: null } });
    const token = await w.token(await w.member('alice'));
    const weekly = rankingLatestSchema.parse(
      await (await w.get('/api/v1/rankings/latest?period=weekly', token)).json(),
    ).batch!;
    expect(weekly).toMatchObject({ trigger: 'manual', pushOutcome: null });
  });
});
