import {
  adminMediaRequestSchema,
  adminRequestReplySchema,
  listAdminRequestsQuerySchema,
  manualDispatchBodySchema,
  manualDispatchReplySchema,
  manualSearchBodySchema,
  manualSearchReplySchema,
  pageOf,
  rejectRequestBodySchema,
  requestIdParamsSchema,
  verifyIngestReplySchema,
} from '@usher/contracts';
import { noContent, type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../../http/route.js';
import type { Caller, ModuleContext } from '../../context.js';
import { redispatch } from '../dispatch.js';
import { verifyIngest } from '../ingest.js';
import { dispatchCandidate, searchCandidates } from '../manual.js';
import {
  approveRequest,
  deleteRequest,
  rejectRequest,
  stateChanged,
  type Reviewer,
} from '../review.js';
import { adminView, listAll } from '../service.js';

const api = routeGroup('media-requests');

/** The admin review table (20-api.md §6 "Media requests"). */
export function adminRequestRoutes(ctx: ModuleContext): RouteDef[] {
  const reviewer = ({ auth, actor, meta }: Caller): Reviewer => ({
    via: 'web',
    userId: auth.userId,
    messengerId: null,
    actor,
    meta,
  });
  return [
    api.admin.get('/api/v1/admin/media-requests', {
      summary: 'All media requests with filters, newest first',
      request: { query: listAdminRequestsQuerySchema },
      responses: { 200: { description: 'Requests', schema: pageOf(adminMediaRequestSchema) } },
      json: ({ query }) => listAll(ctx, query),
    }),
    api.admin.post('/api/v1/admin/media-requests/:id/approve', {
      summary: 'Approve a pending request (then hand it to the automation tool)',
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Approved', schema: adminRequestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: async (c, { params, ...caller }) => {
        const result = await approveRequest(ctx, params.id, reviewer(caller));
        if (!result.changed) throw stateChanged(result.row);
        return c.json({ request: await adminView(ctx, params.id) });
      },
    }),
    api.admin.post('/api/v1/admin/media-requests/:id/reject', {
      summary: 'Reject a pending request with a reason',
      request: { params: requestIdParamsSchema, body: rejectRequestBodySchema },
      responses: { 200: { description: 'Rejected', schema: adminRequestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: async (c, { params, body, ...caller }) => {
        const result = await rejectRequest(ctx, params.id, body.reason, reviewer(caller));
        if (!result.changed) throw stateChanged(result.row);
        return c.json({ request: await adminView(ctx, params.id) });
      },
    }),
    api.admin.post('/api/v1/admin/media-requests/:id/redispatch', {
      summary: 'Send an approved request to the automation tool again after an error',
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Handed off', schema: adminRequestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'NOT_REDISPATCHABLE', 'UPSTREAM_REJECTED', ...UPSTREAM_ERRORS],
      handler: async (c, { params, actor, meta }) => {
        await redispatch(ctx, params.id, actor, meta);
        return c.json({ request: await adminView(ctx, params.id) });
      },
    }),
    api.admin.post('/api/v1/admin/media-requests/:id/search', {
      summary: 'Search MoviePilot indexers for an approved request (≤ 50 candidates)',
      request: { params: requestIdParamsSchema, body: manualSearchBodySchema },
      responses: { 200: { description: 'Candidates', schema: manualSearchReplySchema } },
      errors: [
        'REQUEST_NOT_FOUND',
        'REQUEST_STATE_CHANGED',
        'SEASON_REQUIRED',
        'NOT_SUPPORTED',
        ...UPSTREAM_ERRORS,
      ],
      json: ({ params, body }) => searchCandidates(ctx, params.id, body.season),
    }),
    api.admin.post('/api/v1/admin/media-requests/:id/dispatch', {
      summary: 'Send one searched candidate to MoviePilot as it was received',
      request: { params: requestIdParamsSchema, body: manualDispatchBodySchema },
      responses: { 200: { description: 'Accepted', schema: manualDispatchReplySchema } },
      errors: [
        'REQUEST_NOT_FOUND',
        'CANDIDATE_NOT_FOUND',
        'REQUEST_STATE_CHANGED',
        'UPSTREAM_REJECTED',
        'NOT_SUPPORTED',
        ...UPSTREAM_ERRORS,
      ],
      handler: async (c, { params, body, actor, meta }) => {
        await dispatchCandidate(ctx, params.id, body.candidateIndex, actor, meta);
        return c.json({ request: await adminView(ctx, params.id), accepted: true as const });
      },
    }),
    api.admin.post('/api/v1/admin/media-requests/:id/verify-ingest', {
      summary: 'Check the library now and mark the request ingested when complete',
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Ingested', schema: verifyIngestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED', 'NOT_IN_LIBRARY', ...UPSTREAM_ERRORS],
      handler: async (c, { params, actor, meta }) => {
        const { progress } = await verifyIngest(ctx, params.id, { actor, meta });
        return c.json({ request: await adminView(ctx, params.id), progress });
      },
    }),
    api.admin.delete('/api/v1/admin/media-requests/:id', {
      summary: 'Delete a request in any state',
      request: { params: requestIdParamsSchema },
      responses: { 204: { description: 'Deleted' } },
      errors: ['REQUEST_NOT_FOUND'],
      handler: (c, { params, actor, meta }) =>
        noContent(c, deleteRequest(ctx, params.id, actor, meta)),
    }),
  ];
}
