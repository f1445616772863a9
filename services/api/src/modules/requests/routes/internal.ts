import {
  adminMessagesBodySchema,
  createdPendingActionSchema,
  createPendingActionBodySchema,
  createRequestReplySchema,
  internalApproveBodySchema,
  internalCreateRequestBodySchema,
  internalRejectBodySchema,
  internalReviewReplySchema,
  pendingActionKeyQuerySchema,
  pendingActionSchema,
  requestIdParamsSchema,
  updatePendingActionBodySchema,
} from '@usher/contracts';
import { noContent, type RouteDef, routeGroup } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import { toCreateReply } from '../dto.js';
import {
  claimAction,
  createAction,
  findLiveAction,
  getAction,
  updateAction,
} from '../pending-actions.js';
import {
  approveFromMessenger,
  createForMessenger,
  recordAdminMessages,
  rejectFromMessenger,
} from '../service.js';

const api = routeGroup('internal');

/** The bot's request and conversation-state routes (20-api.md §7). */
export function internalRequestRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.internal.post('/api/v1/internal/media-requests', {
      summary: 'Create a request for the member bound to a Telegram id',
      request: { body: internalCreateRequestBodySchema },
      responses: { 201: { description: 'Created', schema: createRequestReplySchema } },
      errors: [
        'MESSENGER_NOT_BOUND',
        'REQUEST_EXISTS',
        'ALREADY_IN_LIBRARY',
        'MEDIA_ACCOUNT_UNLINKED',
        'MEDIA_ACCESS_REQUIRED',
        'REQUEST_LIMIT_REACHED',
      ],
      handler: async (c, { body, meta }) => {
        const { messengerId, languageCode, ...input } = body;
        const result = await createForMessenger(ctx, messengerId, languageCode, input, meta);
        return c.json(toCreateReply(result), 201);
      },
    }),
    api.internal.post('/api/v1/internal/media-requests/:id/approve', {
      summary: 'Approve from a bot button (already approved → changed:false)',
      request: { params: requestIdParamsSchema, body: internalApproveBodySchema },
      responses: { 200: { description: 'Outcome', schema: internalReviewReplySchema } },
      errors: ['NOT_AN_APPROVER', 'REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      json: ({ params, body, meta }) =>
        approveFromMessenger(ctx, params.id, body.approverMessengerId, meta),
    }),
    api.internal.post('/api/v1/internal/media-requests/:id/reject', {
      summary: 'Reject from the bot reason dialog (already rejected → changed:false)',
      request: { params: requestIdParamsSchema, body: internalRejectBodySchema },
      responses: { 200: { description: 'Outcome', schema: internalReviewReplySchema } },
      errors: ['NOT_AN_APPROVER', 'REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      json: ({ params, body, meta }) => rejectFromMessenger(ctx, params.id, body, meta),
    }),
    api.internal.post('/api/v1/internal/media-requests/:id/admin-messages', {
      summary: 'Record the approval copies the bot sent for a request',
      request: { params: requestIdParamsSchema, body: adminMessagesBodySchema },
      responses: { 204: { description: 'Recorded' } },
      errors: ['REQUEST_NOT_FOUND'],
      handler: (c, { params, body }) =>
        noContent(c, recordAdminMessages(ctx, params.id, body.messages)),
    }),
    api.internal.post('/api/v1/internal/pending-actions', {
      summary: 'Store dialog state (replaces the live one of the same kind, chat and person)',
      request: { body: createPendingActionBodySchema },
      responses: { 201: { description: 'Stored', schema: createdPendingActionSchema } },
      handler: async (c, { body }) => c.json(await createAction(ctx, body), 201),
    }),
    api.internal.get('/api/v1/internal/pending-actions', {
      summary: 'The live dialog state for (kind, chat, person)',
      request: { query: pendingActionKeyQuerySchema },
      responses: { 200: { description: 'Live action', schema: pendingActionSchema } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      json: ({ query }) => findLiveAction(ctx, query),
    }),
    api.internal.get('/api/v1/internal/pending-actions/:id', {
      summary: 'One live dialog state',
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Live action', schema: pendingActionSchema } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      json: ({ params }) => getAction(ctx, params.id),
    }),
    api.internal.patch('/api/v1/internal/pending-actions/:id', {
      summary: 'Replace the payload of a live dialog state (optionally renewing its TTL)',
      request: { params: requestIdParamsSchema, body: updatePendingActionBodySchema },
      responses: { 200: { description: 'Updated', schema: pendingActionSchema } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      json: ({ params, body }) => updateAction(ctx, params.id, body),
    }),
    api.internal.delete('/api/v1/internal/pending-actions/:id', {
      summary: 'Claim (delete) a dialog state; the second claim answers 404',
      request: { params: requestIdParamsSchema },
      responses: { 204: { description: 'Claimed' } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      handler: (c, { params }) => noContent(c, claimAction(ctx, params.id)),
    }),
  ];
}
