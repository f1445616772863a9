// Jobs as the admin sees them (20-api.md §6 "Jobs"): the scheduler's jobs with their last run and
// lease, run history, and a manual run under the job lease.
import { JOB_NAME_PATTERN, type JobRun, type PaginationQuery } from '@usher/contracts';
import { z } from 'zod';
import { auditCaller } from '../../audit-log/audit.js';
import type { PageResult } from '../../db/paging.js';
import type { JobRunRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import { findRunRow, lastRun, leaseHeld, runsPage } from './queries.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toJobRun(row: JobRunRow): JobRun {
  return {
    id: row.id,
    jobName: row.jobName,
    trigger: row.trigger as JobRun['trigger'],
    scheduledFor: iso(row.scheduledFor),
    triggeredBy: row.triggeredBy,
    replicaId: row.replicaId,
    status: row.status as JobRun['status'],
    params: (row.params as JobRun['params']) ?? null,
    summary: (row.summary as JobRun['summary']) ?? null,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
  };
}

/** Refuses names the scheduler does not know (any text is accepted by the route: 404, §1.1). */
function assertKnown(ctx: ModuleContext, name: string): void {
  if (!JOB_NAME_PATTERN.test(name) || !ctx.scheduler.list().some((j) => j.name === name)) {
    throw new AppError('JOB_NOT_FOUND', `No job named ${name.slice(0, 64)}`);
  }
}

/** One job with its next fire time, whether its lease is held and its last run. */
export async function summarizeJob(ctx: ModuleContext, name: string) {
  const job = ctx.scheduler.list().find((j) => j.name === name);
  if (!job) throw new AppError('JOB_NOT_FOUND', `No job named ${name.slice(0, 64)}`);
  const last = await lastRun(ctx.db, job.name);
  const running = await leaseHeld(ctx.db, job.name);
  // The same computation the timer uses, so this is the slot that fires.
  const plan = await ctx.scheduler.plan(job.name);
  return {
    name: job.name,
    description: job.description,
    schedule: plan.schedule,
    scheduleSetting: plan.scheduleSetting,
    timezone: plan.timezone,
    enabled: plan.enabled,
    disabledBy: plan.disabledBy ?? plan.error,
    nextRunAt: iso(plan.nextRunAt),
    running,
    lastRun: last ? toJobRun(last) : null,
  };
}

/** Every scheduled job with its next fire time, whether its lease is held and its last run. */
export async function listJobs(ctx: ModuleContext) {
  const data = await Promise.all(ctx.scheduler.list().map((job) => summarizeJob(ctx, job.name)));
  return { data };
}

/** A job's runs, newest first. */
export async function listRuns(
  ctx: ModuleContext,
  name: string,
  query: PaginationQuery,
): Promise<PageResult<JobRun>> {
  assertKnown(ctx, name);
  return runsPage(ctx.db, name, query, toJobRun);
}

/** One run; a malformed id is simply not found (20-api.md §1.1), never a 400 or a 500. */
export async function findRun(ctx: ModuleContext, runId: string): Promise<JobRun> {
  const parsed = z.uuid().safeParse(runId);
  const row = parsed.success ? await findRunRow(ctx.db, parsed.data) : null;
  if (!row) throw new AppError('JOB_RUN_NOT_FOUND', 'No such job run');
  return toJobRun(row);
}

/** Starts a run now on this replica under the job lease (409 `JOB_RUNNING` while one runs). */
export async function runJobNow(
  ctx: ModuleContext,
  name: string,
  body: { params?: Record<string, unknown> },
  caller: Caller,
): Promise<{ runId: string }> {
  assertKnown(ctx, name);
  const { runId } = await ctx.scheduler.runNow(name, {
    triggeredBy: caller.auth.userId,
    params: body.params ?? null,
  });
  await auditCaller(ctx.db, caller, 'job.run', { type: 'job', id: name }, { runId });
  return { runId };
}
