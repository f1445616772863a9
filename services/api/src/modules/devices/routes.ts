import {
  blacklistCreatedSchema,
  blacklistCreateSchema,
  blacklistListSchema,
  blacklistParamsSchema,
  deviceActionListSchema,
  deviceListQuerySchema,
  deviceListSchema,
  deviceParamsSchema,
  deviceStatsSchema,
  logoutOutcomeSchema,
  paginationQuerySchema,
} from '@usher/contracts';
import { z } from 'zod';
import { defineRoute, noContent, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { addToBlacklist, enforceNow, removeFromBlacklist } from './blacklist.js';
import { deviceStats, listDevices, logoutDevice } from './devices.js';
import { listActions, listBlacklist } from './queries.js';

/** 20-api.md §6 "Devices". */
export function deviceRoutes(ctx: ModuleContext): RouteDef[] {
  const tags = ['devices'];
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/devices',
      auth: 'admin',
      summary: 'Devices signed in to the media server, joined to Usher users (paged here)',
      tags,
      request: { query: deviceListQuerySchema },
      responses: { 200: { description: 'Devices', schema: deviceListSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { query }) => c.json(await listDevices(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/devices/stats',
      auth: 'admin',
      summary: 'Devices by client, top users, activity in 24 h, blacklist size, live sessions',
      tags,
      responses: { 200: { description: 'Stats', schema: deviceStatsSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c) => c.json(await deviceStats(ctx)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/devices/actions',
      auth: 'admin',
      summary: 'The device action log, newest first',
      tags,
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Actions', schema: deviceActionListSchema } },
      handler: async (c, { query }) => c.json(await listActions(ctx.db, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/devices/blacklist',
      auth: 'admin',
      summary: 'Blacklisted client apps',
      tags,
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Entries', schema: blacklistListSchema } },
      handler: async (c, { query }) => c.json(await listBlacklist(ctx.db, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/devices/blacklist',
      auth: 'admin',
      summary: 'Blacklists a client app; by default signs its devices out at once',
      tags,
      request: { body: blacklistCreateSchema },
      responses: { 201: { description: 'Added', schema: blacklistCreatedSchema } },
      errors: ['BLACKLIST_ENTRY_EXISTS', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) =>
        c.json(await addToBlacklist(ctx, body, caller), 201),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/devices/blacklist/logout',
      auth: 'admin',
      summary: 'Signs out every device of a blacklisted client now (the job, run inline)',
      tags,
      responses: { 200: { description: 'Counts', schema: logoutOutcomeSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, caller) => c.json(await enforceNow(ctx, caller)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/admin/devices/blacklist/:id',
      auth: 'admin',
      summary: 'Removes a client from the blacklist',
      tags,
      request: { params: blacklistParamsSchema },
      responses: { 204: { description: 'Removed' } },
      errors: ['BLACKLIST_ENTRY_NOT_FOUND'],
      handler: (c, { params, ...caller }) =>
        noContent(c, removeFromBlacklist(ctx, params.id, caller)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/devices/:deviceId/logout',
      auth: 'admin',
      summary: 'Signs one device out of the media server',
      tags,
      request: { params: deviceParamsSchema },
      responses: { 200: { description: 'Signed out', schema: z.object({ ok: z.literal(true) }) } },
      errors: ['DEVICE_NOT_FOUND', ...UPSTREAM_ERRORS],
      handler: async (c, { params, ...caller }) => {
        await logoutDevice(ctx, params.deviceId, caller);
        return c.json({ ok: true as const });
      },
    }),
  ];
}
