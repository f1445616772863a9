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
import { defineRoute, noContent, type RouteDef } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import { toCreateReply } from '../dto.js';
import { cancelRequest } from '../review.js';
import { checkExisting, createOwn, listOwn, resubmitOwn } from '../service.js';

/** A member's own requests (20-api.md §5 "Media requests (own)"). */
export function memberRequestRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/media-requests',
      auth: 'user',
      summary: 'Own media requests, newest first',
      tags: ['media-requests'],
      request: { query: listOwnRequestsQuerySchema },
      responses: { 200: { description: 'Requests', schema: pageOf(mediaRequestSchema) } },
      handler: async (c, { query, auth }) => c.json(await listOwn(ctx, auth.userId, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/media-requests/check-existing',
      auth: 'user',
      summary: 'Whether a title is already in the library or requested',
      tags: ['media-requests'],
      request: { body: checkExistingBodySchema },
      responses: { 200: { description: 'Library state', schema: checkExistingReplySchema } },
      handler: async (c, { body }) => c.json(await checkExisting(ctx, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/media-requests',
      auth: 'user',
      summary: 'Request a movie, a whole series (season 0) or one season',
      tags: ['media-requests'],
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
    defineRoute({
      method: 'post',
      path: '/api/v1/media-requests/:id/resubmit',
      auth: 'user',
      summary: 'Resubmit an own rejected request with a new note (a new linked request)',
      tags: ['media-requests'],
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
    defineRoute({
      method: 'delete',
      path: '/api/v1/media-requests/:id',
      auth: 'user',
      summary: 'Cancel an own request while it waits for review',
      tags: ['media-requests'],
      request: { params: requestIdParamsSchema },
      responses: { 204: { description: 'Cancelled' } },
      errors: ['REQUEST_NOT_FOUND', 'REQUEST_STATE_CHANGED'],
      handler: (c, { params, auth, actor, meta }) =>
        noContent(c, cancelRequest(ctx, params.id, auth.userId, actor, meta)),
    }),
  ];
}
