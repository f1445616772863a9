import {
  adminUserSchema,
  bindMediaUserSchema,
  mediaServerLibraryListSchema,
  mediaServerUserListSchema,
  mediaServerUserQuerySchema,
} from '@usher/contracts';
import { noContent, type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import {
  bindCurrentAdmin,
  listLibraries,
  searchMediaUsers,
  unbindCurrentAdmin,
} from './media-binding.js';

const api = routeGroup('media-server');

/** 20-api.md §6 "Self and media server" (live media-server reads and the admin's own link). */
export function mediaBindingRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/media-server/users', {
      summary: 'Media-server users whose name contains the query (live, not paginated)',
      request: { query: mediaServerUserQuerySchema },
      responses: { 200: { description: 'Users', schema: mediaServerUserListSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query }) => searchMediaUsers(ctx, query),
    }),
    api.admin.get('/api/v1/admin/media-server/libraries', {
      summary: 'Libraries that can be granted to members (live, not paginated)',
      responses: { 200: { description: 'Libraries', schema: mediaServerLibraryListSchema } },
      errors: UPSTREAM_ERRORS,
      json: () => listLibraries(ctx),
    }),
    api.admin.put('/api/v1/admin/current/media-binding', {
      summary: 'Link the signed-in admin to an existing media-server user (never managed)',
      tags: ['admin'],
      request: { body: bindMediaUserSchema },
      responses: { 200: { description: 'Linked', schema: adminUserSchema } },
      errors: ['MEDIA_USER_NOT_FOUND', 'MEDIA_USER_ALREADY_BOUND', ...UPSTREAM_ERRORS],
      json: ({ body, ...caller }) => bindCurrentAdmin(ctx, body.mediaUserId, caller),
    }),
    api.admin.delete('/api/v1/admin/current/media-binding', {
      summary: "Clear the signed-in admin's media-server link (local only)",
      tags: ['admin'],
      responses: { 204: { description: 'Cleared' } },
      handler: (c, caller) => noContent(c, unbindCurrentAdmin(ctx, caller)),
    }),
  ];
}
