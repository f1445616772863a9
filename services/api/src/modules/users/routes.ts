import {
  adminResetPasswordResponseSchema,
  adminResetPasswordSchema,
  adminUserDetailSchema,
  adminUserListQuerySchema,
  adminUserSchema,
  bulkUsersResponseSchema,
  bulkUsersSchema,
  createAdminUserResponseSchema,
  createAdminUserSchema,
  deleteUserResponseSchema,
  extendUserResponseSchema,
  extendUserSchema,
  mediaSyncRequestSchema,
  pageOf,
  setMediaAccessSchema,
  setUserActiveSchema,
  updateAdminUserSchema,
  userMediaSyncResponseSchema,
  safeString,
} from '@usher/contracts';
import { z } from 'zod';
import { type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { bulkUsers } from './bulk.js';
import { createUser } from './create.js';
import { toAdminUser } from './dto.js';
import { listUsers } from './queries.js';
import {
  deleteUser,
  extendUser,
  resetPassword,
  setActive,
  setMediaAccess,
  syncMediaNow,
  updateUser,
  userDetail,
} from './service.js';
import { mediaBindingRoutes } from './media-routes.js';

const api = routeGroup('users');

const idParams = z.strictObject({ id: safeString() });
export function userRoutes(ctx: ModuleContext): RouteDef[] {
  const base = '/api/v1/admin/users';
  return [
    api.admin.get(base, {
      summary: 'Accounts with search, filters, sort and pagination (newest first by default)',
      request: { query: adminUserListQuerySchema },
      responses: { 200: { description: 'Accounts', schema: pageOf(adminUserSchema) } },
      handler: async (c, { query }) => {
        const now = ctx.now();
        const zone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
        const { rows, total } = await listUsers(ctx.db, query, now, zone);
        return c.json({
          data: rows.map((r) => toAdminUser(r, now)),
          total,
          page: query.page,
          pageSize: query.pageSize,
        });
      },
    }),
    api.admin.post(base, {
      summary: 'Create an account (members get their media-server account, all or nothing)',
      request: { body: createAdminUserSchema },
      responses: { 201: { description: 'Created', schema: createAdminUserResponseSchema } },
      errors: ['USERNAME_TAKEN', 'EMAIL_TAKEN', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) => c.json(await createUser(ctx, body, caller), 201),
    }),
    api.admin.post(`${base}/bulk`, {
      summary: 'Apply one action to up to 100 accounts, each on its own',
      request: { body: bulkUsersSchema },
      responses: { 200: { description: 'Per-id results', schema: bulkUsersResponseSchema } },
      json: ({ body, ...caller }) => bulkUsers(ctx, body, caller),
    }),
    api.admin.get(`${base}/:id`, {
      summary: 'One account with its counts',
      request: { params: idParams },
      responses: { 200: { description: 'The account', schema: adminUserDetailSchema } },
      errors: ['USER_NOT_FOUND'],
      json: ({ params }) => userDetail(ctx, params.id),
    }),
    api.admin.patch(`${base}/:id`, {
      summary: 'Change email, role or expiry',
      request: { params: idParams, body: updateAdminUserSchema },
      responses: { 200: { description: 'Updated', schema: adminUserSchema } },
      errors: ['USER_NOT_FOUND', 'EMAIL_TAKEN', 'LAST_ADMIN', 'CANNOT_MODIFY_SELF'],
      json: ({ params, body, ...caller }) => updateUser(ctx, params.id, body, caller),
    }),
    api.admin.post(`${base}/:id/extend`, {
      summary: 'Add days to max(now, expiry) and re-enable media access',
      request: { params: idParams, body: extendUserSchema },
      responses: { 200: { description: 'Extended', schema: extendUserResponseSchema } },
      errors: ['USER_NOT_FOUND', 'ACCOUNT_NEVER_EXPIRES', 'ACCOUNT_NOT_RENEWABLE'],
      json: ({ params, body, ...caller }) => extendUser(ctx, params.id, body.days, caller),
    }),
    api.admin.put(`${base}/:id/active`, {
      summary: 'Switch web login on or off (off signs the account out everywhere)',
      request: { params: idParams, body: setUserActiveSchema },
      responses: { 200: { description: 'Updated', schema: adminUserSchema } },
      errors: ['USER_NOT_FOUND', 'CANNOT_MODIFY_SELF', 'LAST_ADMIN'],
      json: ({ params, body, ...caller }) => setActive(ctx, params.id, body.isActive, caller),
    }),
    api.admin.put(`${base}/:id/media-access`, {
      summary: "Switch a member's media access on or off, independent of the expiry",
      request: { params: idParams, body: setMediaAccessSchema },
      responses: { 200: { description: 'Updated', schema: userMediaSyncResponseSchema } },
      errors: ['USER_NOT_FOUND', 'MEDIA_ACCOUNT_UNLINKED', 'ACCOUNT_NOT_RENEWABLE'],
      json: ({ params, body, ...caller }) => setMediaAccess(ctx, params.id, body.enabled, caller),
    }),
    api.admin.post(`${base}/:id/media-sync`, {
      summary: 'Write the media state now (policy:true also rewrites the member template)',
      request: { params: idParams, body: mediaSyncRequestSchema },
      responses: { 200: { description: 'Applied', schema: userMediaSyncResponseSchema } },
      errors: [
        'USER_NOT_FOUND',
        'MEDIA_ACCOUNT_UNLINKED',
        'ACCOUNT_NOT_RENEWABLE',
        'UPSTREAM_REJECTED',
        ...UPSTREAM_ERRORS,
      ],
      json: ({ params, body, ...caller }) => syncMediaNow(ctx, params.id, body.policy, caller),
    }),
    api.admin.post(`${base}/:id/reset-password`, {
      summary: 'Set a new password (members: on the media server first); shown once if generated',
      request: { params: idParams, body: adminResetPasswordSchema },
      responses: { 200: { description: 'Reset', schema: adminResetPasswordResponseSchema } },
      errors: ['USER_NOT_FOUND', ...UPSTREAM_ERRORS],
      json: ({ params, body, ...caller }) => resetPassword(ctx, params.id, body, caller),
    }),
    api.admin.delete(`${base}/:id`, {
      summary: "Delete an account and the member's media-server user",
      request: { params: idParams },
      responses: { 200: { description: 'Deleted', schema: deleteUserResponseSchema } },
      errors: ['USER_NOT_FOUND', 'CANNOT_MODIFY_SELF', 'LAST_ADMIN'],
      json: ({ params, ...caller }) => deleteUser(ctx, params.id, caller),
    }),
    ...mediaBindingRoutes(ctx),
  ];
}
