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
import { defineRoute, noContent, type RouteDef, UPSTREAM_ERRORS } from '../../../http/route.js';
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
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/media-requests',
      auth: 'admin',
      summary: 'All media requests with filters, newest first',
      tags: ['media-requests'],
      request: { query: listAdminRequestsQuerySchema },
      responses: { 200: { description: 'Requests', schema: pageOf(adminMediaRequestSchema) } },
      handler: async (c, { query }) => c.json(await listAll(ctx, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/media-requests/:id/approve',
      auth: 'admin',
      summary: 'Approve a pending request (then hand it to the automation tool)',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Approved', schema: adminRequestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: async (c, { params, ...caller }) => {
        const result = await approveRequest(ctx, params.id, reviewer(caller));
        if (!result.changed) throw stateChanged(result.row);
        return c.json({ request: await adminView(ctx, params.id) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/media-requests/:id/reject',
      auth: 'admin',
      summary: 'Reject a pending request with a reason',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema, body: rejectRequestBodySchema },
      responses: { 200: { description: 'Rejected', schema: adminRequestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: async (c, { params, body, ...caller }) => {
        const result = await rejectRequest(ctx, params.id, body.reason, reviewer(caller));
        if (!result.changed) throw stateChanged(result.row);
        return c.json({ request: await adminView(ctx, params.id) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/media-requests/:id/redispatch',
      auth: 'admin',
      summary: 'Send an approved request to the automation tool again after an error',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Handed off', schema: adminRequestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'NOT_REDISPATCHABLE', 'UPSTREAM_REJECTED', ...UPSTREAM_ERRORS],
      handler: async (c, { params, actor, meta }) => {
        await redispatch(ctx, params.id, actor, meta);
        return c.json({ request: await adminView(ctx, params.id) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/media-requests/:id/search',
      auth: 'admin',
      summary: 'Search MoviePilot indexers for an approved request (≤ 50 candidates)',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema, body: manualSearchBodySchema },
      responses: { 200: { description: 'Candidates', schema: manualSearchReplySchema } },
      errors: [
        'REQUEST_NOT_FOUND',
        'REQUEST_STATE_CHANGED',
        'SEASON_REQUIRED',
        'NOT_SUPPORTED',
        ...UPSTREAM_ERRORS,
      ],
      handler: async (c, { params, body }) =>
        c.json(await searchCandidates(ctx, params.id, body.season)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/media-requests/:id/dispatch',
      auth: 'admin',
      summary: 'Send one searched candidate to MoviePilot as it was received',
      tags: ['media-requests'],
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
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/media-requests/:id/verify-ingest',
      auth: 'admin',
      summary: 'Check the library now and mark the request ingested when complete',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Ingested', schema: verifyIngestReplySchema } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED', 'NOT_IN_LIBRARY', ...UPSTREAM_ERRORS],
      handler: async (c, { params, actor, meta }) => {
        const { progress } = await verifyIngest(ctx, params.id, { actor, meta });
        return c.json({ request: await adminView(ctx, params.id), progress });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/admin/media-requests/:id',
      auth: 'admin',
      summary: 'Delete a request in any state',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema },
      responses: { 204: { description: 'Deleted' } },
      errors: ['REQUEST_NOT_FOUND'],
      handler: (c, { params, actor, meta }) =>
        noContent(c, deleteRequest(ctx, params.id, actor, meta)),
    }),
  ];
}
