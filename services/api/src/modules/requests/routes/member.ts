import {
  checkExistingBodySchema,
  checkExistingReplySchema,
  createRequestBodySchema,
  createRequestReplySchema,
  listOwnRequestsQuerySchema,
  mediaRequestSchema,
  pageOf,
  requestIdParamsSchema,
  resubmitRequestBodySchema,
} from '@usher/contracts';
import { noContent, type RouteDef, routeGroup } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import { toCreateReply } from '../dto.js';
import { cancelRequest } from '../review.js';
import { checkExisting, createOwn, listOwn, resubmitOwn } from '../service.js';

const api = routeGroup('media-requests');

/** A member's own requests (20-api.md §5 "Media requests (own)"). */
export function memberRequestRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.user.get('/api/v1/media-requests', {
      summary: 'Own media requests, newest first',
      request: { query: listOwnRequestsQuerySchema },
      responses: { 200: { description: 'Requests', schema: pageOf(mediaRequestSchema) } },
      json: ({ query, auth }) => listOwn(ctx, auth.userId, query),
    }),
    api.user.post('/api/v1/media-requests/check-existing', {
      summary: 'Whether a title is already in the library or requested',
      request: { body: checkExistingBodySchema },
      responses: { 200: { description: 'Library state', schema: checkExistingReplySchema } },
      json: ({ body }) => checkExisting(ctx, body),
    }),
    api.user.post('/api/v1/media-requests', {
      summary: 'Request a movie, a whole series (season 0) or one season',
      request: { body: createRequestBodySchema },
      responses: { 201: { description: 'Created', schema: createRequestReplySchema } },
      errors: [
        'REQUEST_EXISTS',
        'ALREADY_IN_LIBRARY',
        'MEDIA_ACCOUNT_UNLINKED',
        'MEDIA_ACCESS_REQUIRED',
        'REQUEST_LIMIT_REACHED',
      ],
      handler: async (c, { body, auth, meta }) => {
        const result = await createOwn(ctx, auth.userId, body, meta);
        return c.json(toCreateReply(result), 201);
      },
    }),
    api.user.post('/api/v1/media-requests/:id/resubmit', {
      summary: 'Resubmit an own rejected request with a new note (a new linked request)',
      request: { params: requestIdParamsSchema, body: resubmitRequestBodySchema },
      responses: { 201: { description: 'Resubmitted', schema: createRequestReplySchema } },
      errors: [
        'REQUEST_NOT_FOUND',
        'REQUEST_STATE_CHANGED',
        'REQUEST_EXISTS',
        'ALREADY_IN_LIBRARY',
        'MEDIA_ACCOUNT_UNLINKED',
        'MEDIA_ACCESS_REQUIRED',
        'REQUEST_LIMIT_REACHED',
      ],
      handler: async (c, { params, body, auth, meta }) => {
        const result = await resubmitOwn(ctx, auth.userId, params.id, body, meta);
        return c.json(toCreateReply(result), 201);
      },
    }),
    api.user.delete('/api/v1/media-requests/:id', {
      summary: 'Cancel an own request while it waits for review',
      request: { params: requestIdParamsSchema },
      responses: { 204: { description: 'Cancelled' } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: (c, { params, auth, actor, meta }) =>
        noContent(c, cancelRequest(ctx, params.id, auth.userId, actor, meta)),
    }),
  ];
}
