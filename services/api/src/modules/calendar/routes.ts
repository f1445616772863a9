import {
  calendarFollowParamsSchema,
  calendarFollowReplySchema,
  calendarSyncRequestSchema,
  calendarWeekQuerySchema,
  calendarWeekSchema,
  runJobResponseSchema,
} from '@usher/contracts';
import { defineRoute, noContent, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { follow, readWeek, startSync, unfollow } from './service.js';

/** 20-api.md "Watch calendar" and `POST /admin/calendar/sync`. */
export function calendarRoutes(ctx: ModuleContext): RouteDef[] {
  const tags = ['calendar'];
  const weekRoute = (scope: 'global' | 'following') =>
    defineRoute({
      method: 'get',
      path: `/api/v1/calendar/${scope}`,
      auth: 'user',
      summary:
        scope === 'global'
          ? 'One week of episodes of every tracked series, by business day'
          : 'One week of episodes of the series the caller follows',
      tags,
      request: { query: calendarWeekQuerySchema },
      responses: { 200: { description: 'The week', schema: calendarWeekSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { query, auth }) => c.json(await readWeek(ctx, auth.userId, scope, query)),
    });
  return [
    weekRoute('global'),
    weekRoute('following'),
    defineRoute({
      method: 'put',
      path: '/api/v1/calendar/follows/:tmdbId',
      auth: 'user',
      summary: 'Follow a tracked series (idempotent)',
      tags,
      request: { params: calendarFollowParamsSchema },
      responses: { 200: { description: 'Following', schema: calendarFollowReplySchema } },
      errors: ['SERIES_NOT_TRACKED'],
      handler: async (c, { params, auth }) => c.json(await follow(ctx, auth.userId, params.tmdbId)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/calendar/follows/:tmdbId',
      auth: 'user',
      summary: 'Unfollow a series (idempotent)',
      tags,
      request: { params: calendarFollowParamsSchema },
      responses: { 204: { description: 'Not following' } },
      handler: (c, { params, auth }) => noContent(c, unfollow(ctx, auth.userId, params.tmdbId)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/calendar/sync',
      auth: 'admin',
      summary: 'Starts the calendar_sync job; poll the run for progress',
      tags,
      request: { body: calendarSyncRequestSchema },
      responses: { 202: { description: 'Started', schema: runJobResponseSchema } },
      errors: ['JOB_RUNNING', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) => c.json(await startSync(ctx, body, caller), 202),
    }),
  ];
}
