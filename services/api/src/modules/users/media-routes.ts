import {
  adminUserSchema,
  bindMediaUserSchema,
  mediaServerLibraryListSchema,
  mediaServerUserListSchema,
  mediaServerUserQuerySchema,
} from '@usher/contracts';
import { defineRoute, noContent, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import {
  bindCurrentAdmin,
  listLibraries,
  searchMediaUsers,
  unbindCurrentAdmin,
} from './media-binding.js';

/** 20-api.md §6 "Self and media server" (live media-server reads and the admin's own link). */
export function mediaBindingRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/media-server/users',
      auth: 'admin',
      summary: 'Media-server users whose name contains the query (live, not paginated)',
      tags: ['media-server'],
      request: { query: mediaServerUserQuerySchema },
      responses: { 200: { description: 'Users', schema: mediaServerUserListSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { query }) => c.json(await searchMediaUsers(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/media-server/libraries',
      auth: 'admin',
      summary: 'Libraries that can be granted to members (live, not paginated)',
      tags: ['media-server'],
      responses: { 200: { description: 'Libraries', schema: mediaServerLibraryListSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c) => c.json(await listLibraries(ctx)),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/admin/current/media-binding',
      auth: 'admin',
      summary: 'Link the signed-in admin to an existing media-server user (never managed)',
      tags: ['admin'],
      request: { body: bindMediaUserSchema },
      responses: { 200: { description: 'Linked', schema: adminUserSchema } },
      errors: ['MEDIA_USER_NOT_FOUND', 'MEDIA_USER_ALREADY_BOUND', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) =>
        c.json(await bindCurrentAdmin(ctx, body.mediaUserId, caller)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/admin/current/media-binding',
      auth: 'admin',
      summary: "Clear the signed-in admin's media-server link (local only)",
      tags: ['admin'],
      responses: { 204: { description: 'Cleared' } },
      handler: (c, caller) => noContent(c, unbindCurrentAdmin(ctx, caller)),
    }),
  ];
}
