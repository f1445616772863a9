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
import { type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import {
  actOnEvent,
  dismissEvent,
  listSharingEvents,
  myStreams,
  setSharingExempt,
  sharingMember,
} from './service.js';

const api = routeGroup('sharing');

const idParams = z.strictObject({ id: z.uuid() });
const userParams = z.strictObject({ userId: z.uuid() });

/** Account sharing (docs/sharing.md). */
export function sharingRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/sharing/events', {
      summary: 'Sharing events, open first, newest first (filters: status, rule, userId)',
      request: { query: sharingEventListQuerySchema },
      responses: { 200: { description: 'Events', schema: sharingEventListSchema } },
      json: ({ query }) => listSharingEvents(ctx, query),
    }),
    api.admin.post('/api/v1/admin/sharing/events/:id/dismiss', {
      summary: 'Dismisses an event as a false positive (lifts a suspension it caused)',
      request: { params: idParams, body: dismissSharingEventSchema },
      responses: { 200: { description: 'The event', schema: sharingEventSchema } },
      errors: ['SHARING_EVENT_NOT_FOUND', 'SHARING_EVENT_CLOSED', ...UPSTREAM_ERRORS],
      json: ({ params, body, ...caller }) => dismissEvent(ctx, params.id, body.note, caller),
    }),
    api.admin.post('/api/v1/admin/sharing/events/:id/act', {
      summary: 'Carries out an action for an open event (message, stop, suspend, or notify)',
      request: { params: idParams, body: actOnSharingEventSchema },
      responses: { 200: { description: 'The event', schema: sharingEventSchema } },
      errors: ['SHARING_EVENT_NOT_FOUND', 'SHARING_EVENT_CLOSED', ...UPSTREAM_ERRORS],
      json: ({ params, body, ...caller }) => actOnEvent(ctx, params.id, body.action, caller),
    }),
    api.admin.get('/api/v1/admin/sharing/members/:userId', {
      summary: "A member's streams by network, place and device, their events and trust score",
      request: { params: userParams },
      responses: { 200: { description: 'The member', schema: sharingMemberSchema } },
      errors: ['USER_NOT_FOUND'],
      json: ({ params }) => sharingMember(ctx, params.userId),
    }),
    api.admin.put('/api/v1/admin/sharing/members/:userId/exempt', {
      summary: 'Marks a member exempt from the sharing rules, or not',
      request: { params: userParams, body: sharingExemptSchema },
      responses: { 200: { description: 'The member', schema: sharingMemberSchema } },
      errors: ['USER_NOT_FOUND'],
      json: ({ params, body, ...caller }) =>
        setSharingExempt(ctx, params.userId, body.exempt, caller),
    }),
    api.user.get('/api/v1/me/streams', {
      summary: 'My live streams, my stream limit and my latest sharing events',
      responses: { 200: { description: 'Streams', schema: myStreamsSchema } },
      json: ({ auth }) => myStreams(ctx, auth.userId),
    }),
  ];
}
