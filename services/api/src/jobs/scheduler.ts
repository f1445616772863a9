import { Cron } from 'croner';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../db/client.js';
import type { JobTrigger } from '../db/schema/jobs/constants.js';
import { jobRuns } from '../db/schema/index.js';
import { queryRows } from '../db/sql.js';
import { AppError } from '../http/errors.js';
import { acquireJobLease, releaseJobLease, renewJobLease } from './leases.js';

export interface JobRunContext {
  runId: string;
  trigger: JobTrigger;
  params: Record<string, unknown> | null;
  /** Aborted when the process stops or the lease is lost; long jobs should check it. */
  signal: AbortSignal;
  logger: Logger;
}

export interface JobOutcome {
  /** `skipped`: switched off, not configured, or nothing to do. Default `succeeded`. */
  status?: 'succeeded' | 'skipped';
  summary?: Record<string, unknown>;
}

export interface JobDefinition {
  name: string;
  description: string;
  /** Cron expression (croner syntax, seconds optional). */
  schedule: string;
  /** IANA zone of the schedule; the business timezone for calendar-bound jobs. */
  timezone?: string;
  run(ctx: JobRunContext): Promise<JobOutcome>;
}

export type ScheduledRunResult =
  | { outcome: 'not_claimed' }
  | { outcome: 'lease_held'; runId: string }
  | { outcome: 'ran'; runId: string; status: 'succeeded' | 'skipped' | 'failed' };

export interface SchedulerOptions {
  db: Database;
  logger: Logger;
  replicaId: string;
  /** How often a running job renews its lease (ms). */
  renewEveryMs?: number;
}

const MAX_ERROR_LENGTH = 2000;

/**
 * Runs jobs on every replica's timers while making sure exactly one replica executes each run:
 * the `job_runs` slot insert picks the replica for a scheduled slot, and the job lease keeps
 * scheduled and manual runs of one job from overlapping (00-architecture.md decision 3).
 */
export class JobScheduler {
  private readonly jobs = new Map<string, JobDefinition>();
  private readonly timers: Cron[] = [];
  private readonly running = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {}

  register(job: JobDefinition): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  list(): JobDefinition[] {
    return [...this.jobs.values()];
  }

  /** Arms one timer per job. Each fire claims its slot; losers of the claim do nothing. */
  start(): void {
    for (const job of this.jobs.values()) {
      let expected: Date | null = null;
      const timer = new Cron(job.schedule, { timezone: job.timezone, protect: true }, async () => {
        const slot = expected ?? new Date(Math.round(Date.now() / 1000) * 1000);
        expected = timer.nextRun();
        if (this.stopped) return;
        try {
          await this.runScheduled(job.name, slot);
        } catch (err) {
          // A database outage must not kill the timer; the next slot tries again.
          this.options.logger.error({ err, job: job.name }, 'scheduled job could not start');
        }
      });
      expected = timer.nextRun();
      this.timers.push(timer);
    }
  }

  /** Claims the scheduled `slot` of a job and runs it if this replica won the claim. */
  async runScheduled(name: string, slot: Date): Promise<ScheduledRunResult> {
    const job = this.get(name);
    const runId = uuidv7();
    const claimed = await queryRows(
      this.options.db,
      sql`
      insert into job_runs (id, job_name, trigger, scheduled_for, replica_id, status, started_at)
      values (${runId}, ${name}, 'schedule', ${slot.toISOString()}, ${this.options.replicaId},
        'running', now())
      on conflict (job_name, scheduled_for) where trigger = 'schedule' do nothing
      returning id`,
    );
    if (claimed.length === 0) return { outcome: 'not_claimed' };
    if (!(await acquireJobLease(this.options.db, name, this.options.replicaId, runId))) {
      await this.finish(runId, 'skipped', { reason: 'another run of this job is in progress' });
      return { outcome: 'lease_held', runId };
    }
    const status = await this.execute(job, runId, 'schedule', null);
    return { outcome: 'ran', runId, status };
  }

  /**
   * Starts a manual run now and returns its id at once (the route answers 202); `done` settles
   * when the run ends. 409 JOB_RUNNING when another run holds the lease.
   */
  async runNow(
    name: string,
    options: { triggeredBy?: string | null; params?: Record<string, unknown> | null } = {},
  ): Promise<{ runId: string; done: Promise<'succeeded' | 'skipped' | 'failed'> }> {
    const job = this.get(name);
    const runId = uuidv7();
    await this.options.db.insert(jobRuns).values({
      id: runId,
      jobName: name,
      trigger: 'manual',
      triggeredBy: options.triggeredBy ?? null,
      replicaId: this.options.replicaId,
      status: 'running',
      params: options.params ?? null,
      startedAt: new Date(),
    });
    if (!(await acquireJobLease(this.options.db, name, this.options.replicaId, runId))) {
      await this.options.db.delete(jobRuns).where(eq(jobRuns.id, runId));
      throw new AppError('JOB_RUNNING', `Job ${name} is already running`);
    }
    const done = this.execute(job, runId, 'manual', options.params ?? null);
    return { runId, done };
  }

  /** Stops the timers, asks running jobs to stop, and waits for them (bounded). */
  async stop(timeoutMs = 20_000): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) timer.stop();
    for (const run of this.running.values()) run.abort.abort(new Error('shutting down'));
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  private get(name: string): JobDefinition {
    const job = this.jobs.get(name);
    if (!job) throw new AppError('JOB_NOT_FOUND', `No job named ${name}`);
    return job;
  }

  private async execute(
    job: JobDefinition,
    runId: string,
    trigger: JobTrigger,
    params: Record<string, unknown> | null,
  ): Promise<'succeeded' | 'skipped' | 'failed'> {
    const abort = new AbortController();
    const logger = this.options.logger.child({ job: job.name, runId });
    const renew = setInterval(() => {
      renewJobLease(this.options.db, job.name, runId).then(
        (held) => {
          if (!held) abort.abort(new Error('job lease lost'));
        },
        (err: unknown) => logger.warn({ err }, 'could not renew job lease'),
      );
    }, this.options.renewEveryMs ?? 20_000);
    const work = (async () => {
      const started = performance.now();
      try {
        const outcome = await job.run({ runId, trigger, params, signal: abort.signal, logger });
        const status = outcome.status ?? 'succeeded';
        await this.finish(runId, status, outcome.summary ?? null);
        logger.info({ status, ms: Math.round(performance.now() - started) }, 'job finished');
        return status;
      } catch (err) {
        // A job failure is recorded on its run, never thrown into the timer or the caller.
        const message = err instanceof Error ? err.message : String(err);
        await this.finish(runId, 'failed', null, message.slice(0, MAX_ERROR_LENGTH));
        logger.error({ err }, 'job failed');
        return 'failed' as const;
      } finally {
        clearInterval(renew);
        await releaseJobLease(this.options.db, job.name, runId);
      }
    })();
    this.running.set(runId, { abort, done: work });
    try {
      return await work;
    } finally {
      this.running.delete(runId);
    }
  }

  private async finish(
    runId: string,
    status: 'succeeded' | 'skipped' | 'failed',
    summary: Record<string, unknown> | null,
    error: string | null = null,
  ): Promise<void> {
    await this.options.db
      .update(jobRuns)
      .set({ status, summary, error, finishedAt: new Date() })
      .where(sql`${jobRuns.id} = ${runId} and ${jobRuns.status} = 'running'`);
  }
}
