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
import { type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { findRun, listJobs, listRuns, runJobNow } from './service.js';

const api = routeGroup('jobs');

// Any name is accepted here: a malformed one is just an unknown job (404, 20-api.md §1.1).
const nameParams = z.strictObject({ name: safeString() });

export function jobRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/jobs', {
      summary: 'Scheduled jobs with their next fire time, lease state and last run',
      responses: { 200: { description: 'Jobs', schema: jobListSchema } },
      json: () => listJobs(ctx),
    }),
    api.admin.get('/api/v1/admin/jobs/:name/runs', {
      summary: "A job's runs, newest first",
      request: { params: nameParams, query: paginationQuerySchema },
      responses: { 200: { description: 'Runs', schema: pageOf(jobRunSchema) } },
      errors: ['JOB_NOT_FOUND'],
      json: ({ params, query }) => listRuns(ctx, params.name, query),
    }),
    api.admin.get('/api/v1/admin/job-runs/:runId', {
      summary: 'One run (polled after 202 {runId})',
      request: { params: z.strictObject({ runId: safeString() }) },
      responses: { 200: { description: 'The run', schema: jobRunSchema } },
      errors: ['JOB_RUN_NOT_FOUND'],
      json: ({ params }) => findRun(ctx, params.runId),
    }),
    api.admin.post('/api/v1/admin/jobs/:name/run', {
      summary: 'Run a job now on this replica, under the job lease',
      request: { params: nameParams, body: runJobRequestSchema },
      responses: { 202: { description: 'Started', schema: runJobResponseSchema } },
      errors: ['JOB_NOT_FOUND', 'JOB_RUNNING'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await runJobNow(ctx, params.name, body, caller), 202),
    }),
  ];
}
