import {
  calendarFollowParamsSchema,
  calendarFollowReplySchema,
  calendarSyncRequestSchema,
  calendarWeekQuerySchema,
  calendarWeekSchema,
  runJobResponseSchema,
} from '@usher/contracts';
import { noContent, type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { follow, readWeek, startSync, unfollow } from './service.js';

const api = routeGroup('calendar');

/** 20-api.md "Watch calendar" and `POST /admin/calendar/sync`. */
export function calendarRoutes(ctx: ModuleContext): RouteDef[] {
  const weekRoute = (scope: 'global' | 'following') =>
    api.user.get(`/api/v1/calendar/${scope}`, {
      summary:
        scope === 'global'
          ? 'One week of episodes of every tracked series, by business day'
          : 'One week of episodes of the series the caller follows',
      request: { query: calendarWeekQuerySchema },
      responses: { 200: { description: 'The week', schema: calendarWeekSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query, auth }) => readWeek(ctx, auth.userId, scope, query),
    });
  return [
    weekRoute('global'),
    weekRoute('following'),
    api.user.put('/api/v1/calendar/follows/:tmdbId', {
      summary: 'Follow a tracked series (idempotent)',
      request: { params: calendarFollowParamsSchema },
      responses: { 200: { description: 'Following', schema: calendarFollowReplySchema } },
      errors: ['SERIES_NOT_TRACKED'],
      json: ({ params, auth }) => follow(ctx, auth.userId, params.tmdbId),
    }),
    api.user.delete('/api/v1/calendar/follows/:tmdbId', {
      summary: 'Unfollow a series (idempotent)',
      request: { params: calendarFollowParamsSchema },
      responses: { 204: { description: 'Not following' } },
      handler: (c, { params, auth }) => noContent(c, unfollow(ctx, auth.userId, params.tmdbId)),
    }),
    api.admin.post('/api/v1/admin/calendar/sync', {
      summary: 'Starts the calendar_sync job; poll the run for progress',
      request: { body: calendarSyncRequestSchema },
      responses: { 202: { description: 'Started', schema: runJobResponseSchema } },
      errors: ['JOB_RUNNING', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) => c.json(await startSync(ctx, body, caller), 202),
    }),
  ];
}
