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
import { noContent, type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { addToBlacklist, enforceNow, removeFromBlacklist } from './blacklist.js';
import { deviceStats, listDevices, logoutDevice } from './devices.js';
import { listActions, listBlacklist } from './queries.js';

const api = routeGroup('devices');

/** 20-api.md §6 "Devices". */
export function deviceRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/devices', {
      summary: 'Devices signed in to the media server, joined to Usher users (paged here)',
      request: { query: deviceListQuerySchema },
      responses: { 200: { description: 'Devices', schema: deviceListSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query }) => listDevices(ctx, query),
    }),
    api.admin.get('/api/v1/admin/devices/stats', {
      summary: 'Devices by client, top users, activity in 24 h, blacklist size, live sessions',
      responses: { 200: { description: 'Stats', schema: deviceStatsSchema } },
      errors: UPSTREAM_ERRORS,
      json: () => deviceStats(ctx),
    }),
    api.admin.get('/api/v1/admin/devices/actions', {
      summary: 'The device action log, newest first',
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Actions', schema: deviceActionListSchema } },
      json: ({ query }) => listActions(ctx.db, query),
    }),
    api.admin.get('/api/v1/admin/devices/blacklist', {
      summary: 'Blacklisted client apps',
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Entries', schema: blacklistListSchema } },
      json: ({ query }) => listBlacklist(ctx.db, query),
    }),
    api.admin.post('/api/v1/admin/devices/blacklist', {
      summary: 'Blacklists a client app; by default signs its devices out at once',
      request: { body: blacklistCreateSchema },
      responses: { 201: { description: 'Added', schema: blacklistCreatedSchema } },
      errors: ['BLACKLIST_ENTRY_EXISTS', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) =>
        c.json(await addToBlacklist(ctx, body, caller), 201),
    }),
    api.admin.post('/api/v1/admin/devices/blacklist/logout', {
      summary: 'Signs out every device of a blacklisted client now (the job, run inline)',
      responses: { 200: { description: 'Counts', schema: logoutOutcomeSchema } },
      errors: UPSTREAM_ERRORS,
      json: (caller) => enforceNow(ctx, caller),
    }),
    api.admin.delete('/api/v1/admin/devices/blacklist/:id', {
      summary: 'Removes a client from the blacklist',
      request: { params: blacklistParamsSchema },
      responses: { 204: { description: 'Removed' } },
      errors: ['BLACKLIST_ENTRY_NOT_FOUND'],
      handler: (c, { params, ...caller }) =>
        noContent(c, removeFromBlacklist(ctx, params.id, caller)),
    }),
    api.admin.post('/api/v1/admin/devices/:deviceId/logout', {
      summary: 'Signs one device out of the media server',
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
