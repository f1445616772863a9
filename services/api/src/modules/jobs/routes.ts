import {
  jobListSchema,
  jobRunSchema,
  pageOf,
  paginationQuerySchema,
  runJobRequestSchema,
  runJobResponseSchema,
  safeString,
} from '@usher/contracts';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { findRun, listJobs, listRuns, runJobNow } from './service.js';

// Any name is accepted here: a malformed one is just an unknown job (404, 20-api.md §1.1).
const nameParams = z.strictObject({ name: safeString() });

export function jobRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/jobs',
      auth: 'admin',
      summary: 'Scheduled jobs with their next fire time, lease state and last run',
      tags: ['jobs'],
      responses: { 200: { description: 'Jobs', schema: jobListSchema } },
      handler: async (c) => c.json(await listJobs(ctx)),
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
      handler: async (c, { params, query }) => c.json(await listRuns(ctx, params.name, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/job-runs/:runId',
      auth: 'admin',
      summary: 'One run (polled after 202 {runId})',
      tags: ['jobs'],
      request: { params: z.strictObject({ runId: safeString() }) },
      responses: { 200: { description: 'The run', schema: jobRunSchema } },
      errors: ['JOB_RUN_NOT_FOUND'],
      handler: async (c, { params }) => c.json(await findRun(ctx, params.runId)),
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
      handler: async (c, { params, body, ...caller }) =>
        c.json(await runJobNow(ctx, params.name, body, caller), 202),
    }),
  ];
}
