import { Cron } from 'croner';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../db/client.js';
import type { JobTrigger } from '../db/schema/jobs/constants.js';
import { jobRuns } from '../db/schema/index.js';
import { queryRows } from '../db/sql.js';
import { AppError } from '../errors/app-error.js';
import type { SettingKey, SettingValueOf } from '../settings-store/definitions.js';
import { acquireJobLease, releaseJobLease, renewJobLease } from './leases.js';

export interface JobRunContext {
  runId: string;
  trigger: JobTrigger;
  params: Record<string, unknown> | null;
  /**
   * Aborted when the process stops or the lease is lost; long jobs check it between units of
   * work (their safe points) and return what they did so far.
   */
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
  /**
   * Cron expression (croner syntax, seconds optional): the fixed schedule of an interval job, or
   * the fallback of `scheduleSetting` when the scheduler has no settings (unit tests).
   */
  schedule: string;
  /** The cron setting the schedule comes from (30-settings.md §4.8), e.g. `EXPIRY_CHECK_CRON`. */
  scheduleSetting?: SettingKey;
  /** A boolean setting that must be on for scheduled runs, e.g. `RANKING_ENABLED`. */
  enabledSetting?: SettingKey;
  /** No timer at all: the job only runs through `POST /admin/jobs/:name/run`. */
  manualOnly?: boolean;
  /** IANA zone of the schedule when the scheduler has no settings; else `SCHEDULE_TIMEZONE`. */
  timezone?: string;
  /**
   * One run (trigger `startup`) `delayMs` after the scheduler starts, e.g. `calendar_sync` per
   * `CALENDAR_SYNC_ON_START` (30-settings.md §4.8): only while the boolean `setting` (read when
   * the delay ends) and `JOBS_ENABLED` are on, and not when a run of the job finished less than
   * `unlessRunWithinMs` ago — on any replica, so replicas started together run it once.
   */
  atStart?: { setting: SettingKey; delayMs: number; unlessRunWithinMs: number };
  run(ctx: JobRunContext): Promise<JobOutcome>;
}

export type ScheduledRunResult =
  | { outcome: 'not_claimed' }
  | { outcome: 'lease_held'; runId: string }
  | { outcome: 'ran'; runId: string; status: RunEnd };

/** What a job's start-up run did: `off` (setting or JOBS_ENABLED), `recent` (a run just ended). */
export type StartupRunResult =
  | { outcome: 'off' | 'recent' }
  | { outcome: 'lease_held' | 'recent'; runId: string }
  | { outcome: 'ran'; runId: string; status: RunEnd };

type RunEnd = 'succeeded' | 'skipped' | 'failed' | 'abandoned';

/** Time and timers of the scheduler; tests inject a simulated clock (tests/support/clock.ts). */
export interface SchedulerClock {
  now(): Date;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: SchedulerClock = {
  now: () => new Date(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The settings the scheduler reads (the settings store in the app). */
export interface ScheduleSettings {
  get<K extends SettingKey>(key: K): Promise<SettingValueOf<K>>;
}

/** What a job's timer does right now, as derived from the settings. */
export interface JobPlan {
  /** The effective cron expression. */
  schedule: string;
  /** The setting it comes from, or null for a fixed interval. */
  scheduleSetting: SettingKey | null;
  timezone: string;
  /** Whether scheduled runs happen at all (`JOBS_ENABLED`, the job's own switch). */
  enabled: boolean;
  /** Why `enabled` is false, in words; null when enabled. */
  disabledBy: string | null;
  /** The next slot that will fire, or null (disabled, manual only, unparsable). */
  nextRunAt: Date | null;
  /** Set when the expression or zone cannot be parsed (the job then has no timer). */
  error: string | null;
}

export interface SchedulerOptions {
  db: Database;
  logger: Logger;
  replicaId: string;
  /** The runtime settings; without them every job uses its own `schedule` and is enabled. */
  settings?: ScheduleSettings;
  clock?: SchedulerClock;
  /** How often a running job renews its lease (ms). */
  renewEveryMs?: number;
  /** The longest the single timer sleeps before it re-checks (ms); Node caps timers at ~24 days. */
  maxSleepMs?: number;
}

const MAX_ERROR_LENGTH = 2000;
const SHUTDOWN_REASON = 'shutting down';
const MAX_SLEEP_MS = 3_600_000;

/** The next fire time of `expression` in `timezone` strictly after `from` (croner, DST-aware). */
export function nextFireAfter(expression: string, timezone: string, from: Date): Date | null {
  return new Cron(expression, { timezone, paused: true }).nextRun(from);
}

interface Armed {
  job: JobDefinition;
  schedule: string;
  timezone: string;
  next: Date | null;
}

/**
 * Runs jobs on every replica's timers while making sure exactly one replica executes each run:
 * the `job_runs` slot insert picks the replica for a scheduled slot, and the job lease keeps
 * scheduled and manual runs of one job from overlapping (00-architecture.md decision 3).
 *
 * The schedules come from the settings (30-settings.md §9): each job's cron key evaluated in
 * `SCHEDULE_TIMEZONE`, all of them off while `JOBS_ENABLED` is false. The next slot of every job
 * is computed with croner (DST-correct: a slot inside a gap fires once at the first valid time,
 * a repeated wall time once) and one timer sleeps until the earliest; `rearm()` recomputes them
 * after a `rearm` setting changed on any replica.
 */
export class JobScheduler {
  private readonly jobs = new Map<string, JobDefinition>();
  private readonly running = new Map<
    string,
    { job: string; abort: AbortController; done: Promise<unknown> }
  >();
  private readonly clock: SchedulerClock;
  private armed = new Map<string, Armed>();
  private timer: unknown = null;
  /** The timers of start-up runs (`atStart`), cleared by `stop()`. */
  private readonly startupTimers = new Set<unknown>();
  private started = false;
  private stopped = false;
  /** Rearms run one after another, so an older settings read never wins over a newer one. */
  private rearming: Promise<void> = Promise.resolve();
  /** Slots being claimed or run by this replica's timer (`idle()` waits for them). */
  private readonly firing = new Set<Promise<unknown>>();

  constructor(private readonly options: SchedulerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  register(job: JobDefinition): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  list(): JobDefinition[] {
    return [...this.jobs.values()];
  }

  /**
   * What the job's timer does with the current settings: its expression, zone, switch and the
   * next slot after `from` — the same computation the timer uses, so the answer is the slot that
   * fires (unless a setting changes first).
   */
  async plan(name: string, from: Date = this.clock.now()): Promise<JobPlan> {
    const job = this.get(name);
    const settings = this.options.settings;
    const schedule =
      job.scheduleSetting && settings
        ? String(await settings.get(job.scheduleSetting))
        : job.schedule;
    const timezone = settings
      ? String(await settings.get('SCHEDULE_TIMEZONE')) || 'UTC'
      : (job.timezone ?? 'UTC');
    let disabledBy: string | null = null;
    if (job.manualOnly) disabledBy = 'manual only';
    else if (settings && !(await settings.get('JOBS_ENABLED'))) disabledBy = 'JOBS_ENABLED';
    else if (job.enabledSetting && settings && !(await settings.get(job.enabledSetting)))
      disabledBy = job.enabledSetting;
    // An empty cron key is "off" (`BACKUP_CRON`, default empty), not an unparsable expression.
    else if (schedule.trim() === '') disabledBy = job.scheduleSetting ?? 'no schedule';
    let nextRunAt: Date | null = null;
    let error: string | null = null;
    if (schedule.trim() !== '')
      try {
        const next = nextFireAfter(schedule, timezone, from);
        if (!disabledBy) nextRunAt = next;
      } catch (err) {
        // croner reports an unparsable pattern or zone only by throwing.
        error = `cannot parse "${schedule}" in ${timezone}: ${(err as Error).message}`;
      }
    return {
      schedule,
      scheduleSetting: job.scheduleSetting ?? null,
      timezone,
      enabled: disabledBy === null && error === null,
      disabledBy,
      nextRunAt,
      error,
    };
  }

  /** Arms the timer from the current settings (`main.ts`, once the port is open). */
  start(): Promise<void> {
    this.started = true;
    for (const job of this.jobs.values()) {
      if (!job.atStart || job.manualOnly) continue;
      const handle = this.clock.setTimeout(() => {
        this.startupTimers.delete(handle);
        if (this.stopped) return;
        const fire = this.runAtStart(job.name).catch((err: unknown) => {
          this.options.logger.error({ err, job: job.name }, 'start-up job could not start');
        });
        this.firing.add(fire);
        void fire.finally(() => this.firing.delete(fire));
      }, job.atStart.delayMs);
      this.startupTimers.add(handle);
    }
    return this.rearm();
  }

  /**
   * The start-up run of a job with `atStart`: skipped without a trace when switched off or when a
   * run ended within the window; otherwise recorded like any run. The window is checked again
   * once the lease is held, so of two replicas started together only one runs the job (the
   * other's run is recorded `skipped`).
   */
  async runAtStart(name: string): Promise<StartupRunResult> {
    const job = this.get(name);
    const atStart = job.atStart;
    if (!atStart) throw new Error(`job ${name} has no start-up run`);
    const settings = this.options.settings;
    if (
      settings &&
      (!(await settings.get('JOBS_ENABLED')) || !(await settings.get(atStart.setting)))
    )
      return { outcome: 'off' };
    const since = new Date(this.clock.now().getTime() - atStart.unlessRunWithinMs);
    if (await this.endedSince(name, since)) return { outcome: 'recent' };
    const runId = uuidv7();
    await this.options.db.insert(jobRuns).values({
      id: runId,
      jobName: name,
      trigger: 'startup',
      replicaId: this.options.replicaId,
      status: 'running',
      startedAt: this.clock.now(),
    });
    if (!(await acquireJobLease(this.options.db, name, this.options.replicaId, runId))) {
      await this.finish(runId, 'skipped', { reason: 'another run of this job is in progress' });
      return { outcome: 'lease_held', runId };
    }
    // Holding the lease, any other run has finished and recorded its end.
    if (await this.endedSince(name, since, runId)) {
      await this.finish(runId, 'skipped', { reason: 'a run finished moments ago' });
      await releaseJobLease(this.options.db, name, runId);
      return { outcome: 'recent', runId };
    }
    const status = await this.execute(job, runId, 'startup', null);
    return { outcome: 'ran', runId, status };
  }

  /** Whether a run of the job (other than `exceptRunId`) ended after `since`, abandoned aside. */
  private async endedSince(name: string, since: Date, exceptRunId?: string): Promise<boolean> {
    const rows = await queryRows(
      this.options.db,
      sql`
      select id from job_runs
      where job_name = ${name} and finished_at > ${since.toISOString()}
        and status in ('succeeded', 'failed', 'skipped')
        ${exceptRunId ? sql`and id <> ${exceptRunId}` : sql``}
      limit 1`,
    );
    return rows.length > 0;
  }

  /**
   * Recomputes every job's next slot from the settings and re-arms the one timer. Called at start
   * and whenever a `rearm` setting changed (this replica's write or another's, seen by the
   * settings refresh). A failed settings read keeps the previous timers and is logged.
   */
  rearm(): Promise<void> {
    const next = this.rearming.then(async () => {
      if (!this.started || this.stopped) return;
      const now = this.clock.now();
      const armed = new Map<string, Armed>();
      try {
        for (const job of this.jobs.values()) {
          const plan = await this.plan(job.name, now);
          if (plan.error) {
            this.options.logger.error({ job: job.name, problem: plan.error }, 'job not scheduled');
          }
          armed.set(job.name, {
            job,
            schedule: plan.schedule,
            timezone: plan.timezone,
            next: plan.nextRunAt,
          });
        }
      } catch (err) {
        this.options.logger.error({ err }, 'could not read the schedules; timers unchanged');
        return;
      }
      this.armed = armed;
      this.arm();
    });
    this.rearming = next;
    return next;
  }

  /** The slots armed on this replica's timer (name → next fire time), for tests and logs. */
  armedSlots(): Record<string, Date | null> {
    return Object.fromEntries([...this.armed].map(([name, a]) => [name, a.next]));
  }

  /** Resolves once the slots fired so far have been claimed and, where won here, run. */
  async idle(): Promise<void> {
    await this.rearming;
    while (this.firing.size > 0) await Promise.allSettled([...this.firing]);
  }

  /** One timer for the earliest slot of all jobs; none at all when nothing is scheduled. */
  private arm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    let earliest: number | null = null;
    for (const a of this.armed.values()) {
      if (a.next && (earliest === null || a.next.getTime() < earliest)) earliest = a.next.getTime();
    }
    if (earliest === null) return;
    const delay = Math.min(
      Math.max(0, earliest - this.clock.now().getTime()),
      this.options.maxSleepMs ?? MAX_SLEEP_MS,
    );
    this.timer = this.clock.setTimeout(() => this.wake(), delay);
  }

  /** Fires every due slot once (missed older slots are not replayed) and re-arms. */
  private wake(): void {
    this.timer = null;
    if (this.stopped) return;
    const now = this.clock.now();
    for (const a of this.armed.values()) {
      if (!a.next || a.next.getTime() > now.getTime()) continue;
      const slot = a.next;
      a.next = nextFireAfter(a.schedule, a.timezone, now);
      const fire = this.runScheduled(a.job.name, slot).catch((err: unknown) => {
        // A database outage must not kill the timer; the next slot tries again.
        this.options.logger.error({ err, job: a.job.name }, 'scheduled job could not start');
      });
      this.firing.add(fire);
      void fire.finally(() => this.firing.delete(fire));
    }
    this.arm();
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
        'running', ${this.clock.now().toISOString()})
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
  ): Promise<{ runId: string; done: Promise<RunEnd> }> {
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
      startedAt: this.clock.now(),
    });
    if (!(await acquireJobLease(this.options.db, name, this.options.replicaId, runId))) {
      await this.options.db.delete(jobRuns).where(eq(jobRuns.id, runId));
      throw new AppError('JOB_RUNNING', `Job ${name} is already running`);
    }
    const done = this.execute(job, runId, 'manual', options.params ?? null);
    // Routes answer 202 and leave `done` alone: a run whose bookkeeping fails (the database went
    // away under it) is logged here instead of surfacing as an unhandled rejection.
    done.catch((err: unknown) => {
      this.options.logger.warn({ err, runId, job: name }, 'could not record the end of a run');
    });
    return { runId, done };
  }

  /**
   * Graceful stop: no new slots fire, running jobs are asked to stop at their next safe point
   * (their signal aborts) and are waited for, at most `timeoutMs`. A run that stopped early or is
   * still going then is marked `abandoned` and its lease freed, so another replica can take the
   * job over at once instead of waiting for the lease to expire.
   */
  async stop(timeoutMs = 20_000): Promise<{ interrupted: number }> {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const handle of this.startupTimers) this.clock.clearTimeout(handle);
    this.startupTimers.clear();
    const runs = [...this.running.entries()];
    for (const [, run] of runs) run.abort.abort(new Error(SHUTDOWN_REASON));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(runs.map(([, r]) => r.done)),
      new Promise((r) => (timer = setTimeout(r, timeoutMs))),
    ]);
    clearTimeout(timer);
    const left = [...this.running.entries()];
    for (const [runId, run] of left) {
      try {
        await this.finish(runId, 'abandoned', null, 'interrupted by shutdown before a safe point');
        await releaseJobLease(this.options.db, run.job, runId);
      } catch (err) {
        // The lease then expires on its own (60 s) and another replica marks the run abandoned.
        this.options.logger.warn({ err, runId }, 'could not mark an interrupted run');
      }
    }
    if (left.length > 0) {
      this.options.logger.warn({ runs: left.map(([id]) => id) }, 'jobs interrupted by shutdown');
    }
    return { interrupted: runs.length };
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
  ): Promise<RunEnd> {
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
    const shutdown = () =>
      abort.signal.aborted &&
      (abort.signal.reason as Error | undefined)?.message === SHUTDOWN_REASON;
    const work = (async (): Promise<RunEnd> => {
      const started = performance.now();
      try {
        const outcome = await job.run({ runId, trigger, params, signal: abort.signal, logger });
        // A job that returned because the process stops did only part of its work: the run says
        // so, and the next run (on any replica) carries on.
        const status = shutdown() ? 'abandoned' : (outcome.status ?? 'succeeded');
        const error = shutdown() ? 'stopped at a safe point by a shutdown' : null;
        await this.finish(runId, status, outcome.summary ?? null, error);
        logger.info({ status, ms: Math.round(performance.now() - started) }, 'job finished');
        return status;
      } catch (err) {
        // A job failure is recorded on its run, never thrown into the timer or the caller.
        const message = err instanceof Error ? err.message : String(err);
        const status = shutdown() ? 'abandoned' : 'failed';
        await this.finish(runId, status, null, message.slice(0, MAX_ERROR_LENGTH));
        logger.error({ err }, 'job failed');
        return status;
      } finally {
        clearInterval(renew);
        await releaseJobLease(this.options.db, job.name, runId);
      }
    })();
    this.running.set(runId, { job: job.name, abort, done: work });
    try {
      return await work;
    } finally {
      this.running.delete(runId);
    }
  }

  private async finish(
    runId: string,
    status: RunEnd,
    summary: Record<string, unknown> | null,
    error: string | null = null,
  ): Promise<void> {
    await this.options.db
      .update(jobRuns)
      .set({ status, summary, error, finishedAt: this.clock.now() })
      .where(sql`${jobRuns.id} = ${runId} and ${jobRuns.status} = 'running'`);
  }
}
