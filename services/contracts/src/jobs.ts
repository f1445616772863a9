import { z } from 'zod';
import { JOB_RUN_STATUSES, JOB_TRIGGERS } from './values.js';
import { isoInstant, uuidSchema } from './common.js';

export const JOB_NAME_PATTERN = /^[a-z][a-z0-9_]{1,63}$/;

/** One row of `job_runs` (10-data.md §9). */
export const jobRunSchema = z
  .object({
    id: uuidSchema,
    jobName: z.string(),
    trigger: z.enum(JOB_TRIGGERS),
    scheduledFor: isoInstant.nullable(),
    triggeredBy: uuidSchema.nullable(),
    replicaId: z.string(),
    status: z.enum(JOB_RUN_STATUSES),
    params: z.record(z.string(), z.unknown()).nullable(),
    summary: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    startedAt: isoInstant,
    finishedAt: isoInstant.nullable(),
  })
  .meta({ id: 'JobRun' });
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  schedule: z.string(),
  enabled: z.boolean(),
  nextRunAt: isoInstant.nullable(),
  /** Whether a run holds the job's lease right now (on any replica). */
  running: z.boolean(),
  lastRun: jobRunSchema.nullable(),
});

export const jobListSchema = z.object({ data: z.array(jobSummarySchema) });

export const runJobRequestSchema = z.strictObject({
  params: z.record(z.string(), z.unknown()).optional(),
});
export const runJobResponseSchema = z.object({ runId: uuidSchema });
