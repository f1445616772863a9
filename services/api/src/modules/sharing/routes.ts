import {
  actOnSharingEventSchema,
  dismissSharingEventSchema,
  myStreamsSchema,
  sharingEventListQuerySchema,
  sharingEventListSchema,
  sharingEventSchema,
  sharingExemptSchema,
  sharingMemberSchema,
} from '@usher/contracts';
import { z } from 'zod';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import {
  actOnEvent,
  dismissEvent,
  listSharingEvents,
  myStreams,
  setSharingExempt,
  sharingMember,
} from './service.js';

const idParams = z.strictObject({ id: z.uuid() });
const userParams = z.strictObject({ userId: z.uuid() });

/** Account sharing (docs/sharing.md). */
export function sharingRoutes(ctx: ModuleContext): RouteDef[] {
  const tags = ['sharing'];
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/sharing/events',
      auth: 'admin',
      summary: 'Sharing events, open first, newest first (filters: status, rule, userId)',
      tags,
      request: { query: sharingEventListQuerySchema },
      responses: { 200: { description: 'Events', schema: sharingEventListSchema } },
      handler: async (c, { query }) => c.json(await listSharingEvents(ctx, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/sharing/events/:id/dismiss',
      auth: 'admin',
      summary: 'Dismisses an event as a false positive (lifts a suspension it caused)',
      tags,
      request: { params: idParams, body: dismissSharingEventSchema },
      responses: { 200: { description: 'The event', schema: sharingEventSchema } },
      errors: ['SHARING_EVENT_NOT_FOUND', 'SHARING_EVENT_CLOSED', ...UPSTREAM_ERRORS],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await dismissEvent(ctx, params.id, body.note, caller)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/sharing/events/:id/act',
      auth: 'admin',
      summary: 'Carries out an action for an open event (message, stop, suspend, or notify)',
      tags,
      request: { params: idParams, body: actOnSharingEventSchema },
      responses: { 200: { description: 'The event', schema: sharingEventSchema } },
      errors: ['SHARING_EVENT_NOT_FOUND', 'SHARING_EVENT_CLOSED', ...UPSTREAM_ERRORS],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await actOnEvent(ctx, params.id, body.action, caller)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/sharing/members/:userId',
      auth: 'admin',
      summary: "A member's streams by network, place and device, their events and trust score",
      tags,
      request: { params: userParams },
      responses: { 200: { description: 'The member', schema: sharingMemberSchema } },
      errors: ['USER_NOT_FOUND'],
      handler: async (c, { params }) => c.json(await sharingMember(ctx, params.userId)),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/admin/sharing/members/:userId/exempt',
      auth: 'admin',
      summary: 'Marks a member exempt from the sharing rules, or not',
      tags,
      request: { params: userParams, body: sharingExemptSchema },
      responses: { 200: { description: 'The member', schema: sharingMemberSchema } },
      errors: ['USER_NOT_FOUND'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await setSharingExempt(ctx, params.userId, body.exempt, caller)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/streams',
      auth: 'user',
      summary: 'My live streams, my stream limit and my latest sharing events',
      tags,
      responses: { 200: { description: 'Streams', schema: myStreamsSchema } },
      handler: async (c, { auth }) => c.json(await myStreams(ctx, auth.userId)),
    }),
  ];
}
