import { z } from 'zod';
import { JOB_RUN_STATUSES, JOB_TRIGGERS } from './values.js';
import { isoInstant, uuidSchema, safeString, safeJsonRecord } from './common.js';

export const JOB_NAME_PATTERN = /^[a-z][a-z0-9_]{1,63}$/;

/** One row of `job_runs` (10-data.md §9). */
export const jobRunSchema = z
  .object({
    id: uuidSchema,
    jobName: safeString(),
    trigger: z.enum(JOB_TRIGGERS),
    scheduledFor: isoInstant.nullable(),
    triggeredBy: uuidSchema.nullable(),
    replicaId: safeString(),
    status: z.enum(JOB_RUN_STATUSES),
    params: safeJsonRecord().nullable(),
    summary: safeJsonRecord().nullable(),
    error: safeString().nullable(),
    startedAt: isoInstant,
    finishedAt: isoInstant.nullable(),
  })
  .meta({ id: 'JobRun' });
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobSummarySchema = z.object({
  name: safeString(),
  description: safeString(),
  schedule: safeString(),
  /** The setting the cron expression comes from (30-settings.md §4.8); null = fixed interval. */
  scheduleSetting: z.string().nullable(),
  /** IANA zone the expression is evaluated in (`SCHEDULE_TIMEZONE`). */
  timezone: z.string(),
  /** Whether scheduled runs happen (`JOBS_ENABLED` and the job's own switch); manual runs always can. */
  enabled: z.boolean(),
  /** What switched scheduled runs off (`JOBS_ENABLED`, `RANKING_ENABLED`, `manual only`), else null. */
  disabledBy: z.string().nullable(),
  /** The next slot this job's timer fires (null while disabled). */
  nextRunAt: isoInstant.nullable(),
  /** Whether a run holds the job's lease right now (on any replica). */
  running: z.boolean(),
  lastRun: jobRunSchema.nullable(),
});

export type JobSummary = z.infer<typeof jobSummarySchema>;

export const jobListSchema = z.object({ data: z.array(jobSummarySchema) });
export type JobList = z.infer<typeof jobListSchema>;

export const runJobRequestSchema = z.strictObject({
  params: safeJsonRecord().optional(),
});
export const runJobResponseSchema = z.object({ runId: uuidSchema });
