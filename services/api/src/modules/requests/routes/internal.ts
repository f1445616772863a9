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
import { defineRoute, noContent, type RouteDef } from '../../../http/route.js';
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

/** The bot's request and conversation-state routes (20-api.md §7). */
export function internalRequestRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/media-requests',
      auth: 'internal',
      summary: 'Create a request for the member bound to a Telegram id',
      tags: ['internal'],
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
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/media-requests/:id/approve',
      auth: 'internal',
      summary: 'Approve from a bot button (already approved → changed:false)',
      tags: ['internal'],
      request: { params: requestIdParamsSchema, body: internalApproveBodySchema },
      responses: { 200: { description: 'Outcome', schema: internalReviewReplySchema } },
      errors: ['NOT_AN_APPROVER', 'REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: async (c, { params, body, meta }) =>
        c.json(await approveFromMessenger(ctx, params.id, body.approverMessengerId, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/media-requests/:id/reject',
      auth: 'internal',
      summary: 'Reject from the bot reason dialog (already rejected → changed:false)',
      tags: ['internal'],
      request: { params: requestIdParamsSchema, body: internalRejectBodySchema },
      responses: { 200: { description: 'Outcome', schema: internalReviewReplySchema } },
      errors: ['NOT_AN_APPROVER', 'REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: async (c, { params, body, meta }) =>
        c.json(await rejectFromMessenger(ctx, params.id, body, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/media-requests/:id/admin-messages',
      auth: 'internal',
      summary: 'Record the approval copies the bot sent for a request',
      tags: ['internal'],
      request: { params: requestIdParamsSchema, body: adminMessagesBodySchema },
      responses: { 204: { description: 'Recorded' } },
      errors: ['REQUEST_NOT_FOUND'],
      handler: (c, { params, body }) =>
        noContent(c, recordAdminMessages(ctx, params.id, body.messages)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/pending-actions',
      auth: 'internal',
      summary: 'Store dialog state (replaces the live one of the same kind, chat and person)',
      tags: ['internal'],
      request: { body: createPendingActionBodySchema },
      responses: { 201: { description: 'Stored', schema: createdPendingActionSchema } },
      handler: async (c, { body }) => c.json(await createAction(ctx, body), 201),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/internal/pending-actions',
      auth: 'internal',
      summary: 'The live dialog state for (kind, chat, person)',
      tags: ['internal'],
      request: { query: pendingActionKeyQuerySchema },
      responses: { 200: { description: 'Live action', schema: pendingActionSchema } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      handler: async (c, { query }) => c.json(await findLiveAction(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/internal/pending-actions/:id',
      auth: 'internal',
      summary: 'One live dialog state',
      tags: ['internal'],
      request: { params: requestIdParamsSchema },
      responses: { 200: { description: 'Live action', schema: pendingActionSchema } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      handler: async (c, { params }) => c.json(await getAction(ctx, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/internal/pending-actions/:id',
      auth: 'internal',
      summary: 'Replace the payload of a live dialog state (optionally renewing its TTL)',
      tags: ['internal'],
      request: { params: requestIdParamsSchema, body: updatePendingActionBodySchema },
      responses: { 200: { description: 'Updated', schema: pendingActionSchema } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      handler: async (c, { params, body }) => c.json(await updateAction(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/internal/pending-actions/:id',
      auth: 'internal',
      summary: 'Claim (delete) a dialog state; the second claim answers 404',
      tags: ['internal'],
      request: { params: requestIdParamsSchema },
      responses: { 204: { description: 'Claimed' } },
      errors: ['PENDING_ACTION_NOT_FOUND'],
      handler: (c, { params }) => noContent(c, claimAction(ctx, params.id)),
    }),
  ];
}
