import { eventually } from '@usher/testkit';
import { eq, sql } from 'drizzle-orm';
import { jobLeases, jobRuns } from '../../src/db/schema/index.js';
import type { AppError } from '../../src/errors/app-error.js';
import { acquireJobLease } from '../../src/scheduler/leases.js';
import { JobScheduler, type JobDefinition } from '../../src/scheduler/scheduler.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';

/** A job that counts its executions and can be held open until released. */
function probeJob(name: string) {
  const executions: string[] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const job: JobDefinition = {
    name,
    description: 'test job proving the lease',
    schedule: '0 0 1 1 *',
    run: async (ctx) => {
      executions.push(ctx.runId);
      await gate;
      return { summary: { executions: executions.length } };
    },
  };
  return {
    job,
    executions,
    hold() {
      gate = new Promise((r) => (release = r));
    },
    release: () => release(),
  };
}

describe(`job scheduler (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const scheduler = async (replicaId: string) =>
    new JobScheduler({
      db: (await database.connectAnother()).db,
      logger: memoryLogger().logger,
      replicaId,
    });

  it('should run a scheduled slot exactly once when two replicas fire together', async () => {
    const probe = probeJob('lease_probe_slot');
    const [a, b] = [await scheduler('replica-a'), await scheduler('replica-b')];
    a.register(probe.job);
    b.register(probe.job);
    const slot = new Date('2026-01-01T00:00:00.000Z');
    const results = await Promise.all([
      a.runScheduled(probe.job.name, slot),
      b.runScheduled(probe.job.name, slot),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['not_claimed', 'ran']);
    expect(probe.executions).toHaveLength(1);
    const runs = await database.handle.db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.jobName, probe.job.name));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      status: 'succeeded',
      trigger: 'schedule',
      summary: { executions: 1 },
    });
    expect(runs[0]!.finishedAt).not.toBeNull();
    const leases = await database.handle.db
      .select()
      .from(jobLeases)
      .where(eq(jobLeases.jobName, probe.job.name));
    expect(leases).toEqual([]);

    // The next slot is a new run.
    await b.runScheduled(probe.job.name, new Date('2027-01-01T00:00:00.000Z'));
    expect(probe.executions).toHaveLength(2);
  });

  it('should refuse a manual run with JOB_RUNNING while another replica holds the lease', async () => {
    const probe = probeJob('lease_probe_manual');
    const [a, b] = [await scheduler('replica-a'), await scheduler('replica-b')];
    a.register(probe.job);
    b.register(probe.job);
    probe.hold();
    const first = await a.runNow(probe.job.name, { params: { force: true } });
    await expect(b.runNow(probe.job.name)).rejects.toMatchObject({
      code: 'JOB_RUNNING',
    } satisfies Partial<AppError>);
    // A scheduled slot arriving meanwhile is recorded as skipped, not run.
    const scheduled = await b.runScheduled(probe.job.name, new Date('2026-02-01T00:00:00Z'));
    expect(scheduled.outcome).toBe('lease_held');
    probe.release();
    expect(await first.done).toBe('succeeded');
    expect(probe.executions).toHaveLength(1);
    const runs = await database.handle.db
      .select({ status: jobRuns.status, trigger: jobRuns.trigger, params: jobRuns.params })
      .from(jobRuns)
      .where(eq(jobRuns.jobName, probe.job.name));
    expect(runs).toEqual(
      expect.arrayContaining([
        { status: 'succeeded', trigger: 'manual', params: { force: true } },
        { status: 'skipped', trigger: 'schedule', params: null },
      ]),
    );
    expect(runs).toHaveLength(2);
  });

  it('should record a failing job as failed with its error and free the lease', async () => {
    const a = await scheduler('replica-a');
    a.register({
      name: 'failing_probe',
      description: 'always fails',
      schedule: '0 0 1 1 *',
      run: async () => {
        throw new Error('upstream exploded');
      },
    });
    const { runId, done } = await a.runNow('failing_probe');
    expect(await done).toBe('failed');
    const [run] = await database.handle.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
    expect(run).toMatchObject({ status: 'failed', error: 'upstream exploded' });
    const again = await a.runNow('failing_probe');
    expect(await again.done).toBe('failed');
  });

  it('should take over an expired lease and mark the stale run abandoned', async () => {
    const a = await scheduler('replica-a');
    const probe = probeJob('takeover_probe');
    a.register(probe.job);
    // A replica that died mid-run: its run stays `running` and its lease expires.
    const stale = await a.runNow(probe.job.name);
    await stale.done;
    await database.handle.db
      .update(jobRuns)
      .set({ status: 'running', finishedAt: null })
      .where(eq(jobRuns.id, stale.runId));
    expect(await acquireJobLease(database.handle.db, probe.job.name, 'dead', stale.runId)).toBe(
      true,
    );
    await database.handle.db.execute(
      sql`update job_leases set expires_at = now() - interval '1 second' where job_name = ${probe.job.name}`,
    );
    const fresh = await a.runNow(probe.job.name);
    expect(await fresh.done).toBe('succeeded');
    const [old] = await database.handle.db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.id, stale.runId));
    expect(old!.status).toBe('abandoned');
  });

  it('should stop a job at its safe point on shutdown, mark the run and free the lease', async () => {
    const a = await scheduler('replica-a');
    let processed = 0;
    a.register({
      name: 'polite_probe',
      description: 'works in units and checks its signal between them',
      schedule: '0 0 1 1 *',
      run: async (ctx) => {
        while (!ctx.signal.aborted) {
          processed += 1;
          await new Promise((r) => setTimeout(r, 5));
        }
        return { summary: { processed } };
      },
    });
    const { runId, done } = await a.runNow('polite_probe');
    await eventually(() => expect(processed).toBeGreaterThan(0));
    expect(await a.stop(5000)).toEqual({ interrupted: 1 });
    expect(await done).toBe('abandoned');
    const [run] = await database.handle.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
    expect(run).toMatchObject({
      status: 'abandoned',
      error: 'stopped at a safe point by a shutdown',
      summary: { processed },
    });
    const leases = await database.handle.db
      .select()
      .from(jobLeases)
      .where(eq(jobLeases.jobName, 'polite_probe'));
    expect(leases).toEqual([]);
  });

  it('should mark a run that misses the shutdown bound abandoned so another replica takes over', async () => {
    const a = await scheduler('replica-a');
    const b = await scheduler('replica-b');
    const stubborn = probeJob('stubborn_probe');
    a.register(stubborn.job);
    b.register(stubborn.job);
    stubborn.hold();
    const { runId } = await a.runNow(stubborn.job.name);
    await a.stop(50);
    const [run] = await database.handle.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
    expect(run).toMatchObject({
      status: 'abandoned',
      error: 'interrupted by shutdown before a safe point',
    });
    // The lease is free at once: the other replica need not wait for it to expire.
    const next = await b.runNow(stubborn.job.name);
    stubborn.release();
    expect(await next.done).toBe('succeeded');
  });

  it('should answer JOB_NOT_FOUND for an unknown job', async () => {
    const a = await scheduler('replica-a');
    await expect(a.runNow('nope')).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
  });
});
