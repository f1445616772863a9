import {
  JOB_NAME_PATTERN,
  jobListSchema,
  jobRunSchema,
  pageOf,
  paginationQuerySchema,
  runJobRequestSchema,
  runJobResponseSchema,
  type JobRun,
} from '@usher/contracts';
import { Cron } from 'croner';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit.js';
import { jobLeases, jobRuns, type JobRunRow } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';

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

// Any name is accepted here: a malformed one is just an unknown job (404, 20-api.md §1.1).
const nameParams = z.strictObject({ name: z.string() });

export function jobRoutes(ctx: ModuleContext): RouteDef[] {
  const known = (name: string) => {
    if (!JOB_NAME_PATTERN.test(name) || !ctx.scheduler.list().some((j) => j.name === name)) {
      throw new AppError('JOB_NOT_FOUND', `No job named ${name.slice(0, 64)}`);
    }
  };
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/jobs',
      auth: 'admin',
      summary: 'Scheduled jobs with their next fire time, lease state and last run',
      tags: ['jobs'],
      responses: { 200: { description: 'Jobs', schema: jobListSchema } },
      handler: async (c) => {
        const jobs = ctx.scheduler.list();
        const data = await Promise.all(
          jobs.map(async (job) => {
            const [last] = await ctx.db
              .select()
              .from(jobRuns)
              .where(eq(jobRuns.jobName, job.name))
              .orderBy(desc(jobRuns.startedAt))
              .limit(1);
            const [lease] = await ctx.db
              .select({ jobName: jobLeases.jobName })
              .from(jobLeases)
              .where(and(eq(jobLeases.jobName, job.name), sql`${jobLeases.expiresAt} > now()`));
            const next = new Cron(job.schedule, { timezone: job.timezone, paused: true }).nextRun();
            return {
              name: job.name,
              description: job.description,
              schedule: job.schedule,
              enabled: true,
              nextRunAt: iso(next),
              running: Boolean(lease),
              lastRun: last ? toJobRun(last) : null,
            };
          }),
        );
        return c.json({ data });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/jobs/:name/runs',
      auth: 'admin',
      summary: "A job's runs, newest first",
      tags: ['jobs'],
      request: { params: nameParams, query: paginationQuerySchema },
      responses: { 200: { description: 'Runs', schema: pageOf(jobRunSchema) } },
      errors: ['JOB_NOT_FOUND'],
      handler: async (c, { params, query }) => {
        known(params.name);
        const where = eq(jobRuns.jobName, params.name);
        const [total] = await ctx.db.select({ n: count() }).from(jobRuns).where(where);
        const rows = await ctx.db
          .select()
          .from(jobRuns)
          .where(where)
          .orderBy(desc(jobRuns.startedAt), desc(jobRuns.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize);
        return c.json({
          data: rows.map(toJobRun),
          total: total?.n ?? 0,
          page: query.page,
          pageSize: query.pageSize,
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/job-runs/:runId',
      auth: 'admin',
      summary: 'One run (polled after 202 {runId})',
      tags: ['jobs'],
      request: { params: z.strictObject({ runId: z.string() }) },
      responses: { 200: { description: 'The run', schema: jobRunSchema } },
      errors: ['JOB_RUN_NOT_FOUND'],
      handler: async (c, { params }) => {
        // A malformed id is simply not found (20-api.md §1.1), never a 400 or a 500.
        const parsed = z.uuid().safeParse(params.runId);
        const [row] = parsed.success
          ? await ctx.db.select().from(jobRuns).where(eq(jobRuns.id, parsed.data))
          : [];
        if (!row) throw new AppError('JOB_RUN_NOT_FOUND', 'No such job run');
        return c.json(toJobRun(row));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/jobs/:name/run',
      auth: 'admin',
      summary: 'Run a job now on this replica, under the job lease',
      tags: ['jobs'],
      request: { params: nameParams, body: runJobRequestSchema },
      responses: { 202: { description: 'Started', schema: runJobResponseSchema } },
      errors: ['JOB_NOT_FOUND', 'JOB_RUNNING'],
      handler: async (c, { params, body }) => {
        known(params.name);
        const auth = c.get('auth')!;
        const { runId } = await ctx.scheduler.runNow(params.name, {
          triggeredBy: auth.userId,
          params: body.params ?? null,
        });
        await recordAudit(ctx.db, {
          actor: { type: 'admin', id: auth.userId, label: auth.username },
          action: 'job.run',
          target: { type: 'job', id: params.name },
          details: { runId },
          ip: c.get('clientIp'),
          requestId: c.get('requestId'),
        });
        return c.json({ runId }, 202);
      },
    }),
  ];
}
