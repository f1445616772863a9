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
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
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

const idParams = z.strictObject({ id: safeString() });
export function userRoutes(ctx: ModuleContext): RouteDef[] {
  const base = '/api/v1/admin/users';
  return [
    defineRoute({
      method: 'get',
      path: base,
      auth: 'admin',
      summary: 'Accounts with search, filters, sort and pagination (newest first by default)',
      tags: ['users'],
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
    defineRoute({
      method: 'post',
      path: base,
      auth: 'admin',
      summary: 'Create an account (members get their media-server account, all or nothing)',
      tags: ['users'],
      request: { body: createAdminUserSchema },
      responses: { 201: { description: 'Created', schema: createAdminUserResponseSchema } },
      errors: ['USERNAME_TAKEN', 'EMAIL_TAKEN', ...UPSTREAM_ERRORS],
      handler: async (c, { body, ...caller }) => c.json(await createUser(ctx, body, caller), 201),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/bulk`,
      auth: 'admin',
      summary: 'Apply one action to up to 100 accounts, each on its own',
      tags: ['users'],
      request: { body: bulkUsersSchema },
      responses: { 200: { description: 'Per-id results', schema: bulkUsersResponseSchema } },
      handler: async (c, { body, ...caller }) => c.json(await bulkUsers(ctx, body, caller)),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:id`,
      auth: 'admin',
      summary: 'One account with its counts',
      tags: ['users'],
      request: { params: idParams },
      responses: { 200: { description: 'The account', schema: adminUserDetailSchema } },
      errors: ['USER_NOT_FOUND'],
      handler: async (c, { params }) => c.json(await userDetail(ctx, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: `${base}/:id`,
      auth: 'admin',
      summary: 'Change email, role or expiry',
      tags: ['users'],
      request: { params: idParams, body: updateAdminUserSchema },
      responses: { 200: { description: 'Updated', schema: adminUserSchema } },
      errors: ['USER_NOT_FOUND', 'EMAIL_TAKEN', 'LAST_ADMIN', 'CANNOT_MODIFY_SELF'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await updateUser(ctx, params.id, body, caller)),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:id/extend`,
      auth: 'admin',
      summary: 'Add days to max(now, expiry) and re-enable media access',
      tags: ['users'],
      request: { params: idParams, body: extendUserSchema },
      responses: { 200: { description: 'Extended', schema: extendUserResponseSchema } },
      errors: ['USER_NOT_FOUND', 'ACCOUNT_NEVER_EXPIRES', 'ACCOUNT_NOT_RENEWABLE'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await extendUser(ctx, params.id, body.days, caller)),
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:id/active`,
      auth: 'admin',
      summary: 'Switch web login on or off (off signs the account out everywhere)',
      tags: ['users'],
      request: { params: idParams, body: setUserActiveSchema },
      responses: { 200: { description: 'Updated', schema: adminUserSchema } },
      errors: ['USER_NOT_FOUND', 'CANNOT_MODIFY_SELF', 'LAST_ADMIN'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await setActive(ctx, params.id, body.isActive, caller)),
    }),
    defineRoute({
      method: 'put',
      path: `${base}/:id/media-access`,
      auth: 'admin',
      summary: "Switch a member's media access on or off, independent of the expiry",
      tags: ['users'],
      request: { params: idParams, body: setMediaAccessSchema },
      responses: { 200: { description: 'Updated', schema: userMediaSyncResponseSchema } },
      errors: ['USER_NOT_FOUND', 'MEDIA_ACCOUNT_UNLINKED', 'ACCOUNT_NOT_RENEWABLE'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await setMediaAccess(ctx, params.id, body.enabled, caller)),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:id/media-sync`,
      auth: 'admin',
      summary: 'Write the media state now (policy:true also rewrites the member template)',
      tags: ['users'],
      request: { params: idParams, body: mediaSyncRequestSchema },
      responses: { 200: { description: 'Applied', schema: userMediaSyncResponseSchema } },
      errors: [
        'USER_NOT_FOUND',
        'MEDIA_ACCOUNT_UNLINKED',
        'ACCOUNT_NOT_RENEWABLE',
        'UPSTREAM_REJECTED',
        ...UPSTREAM_ERRORS,
      ],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await syncMediaNow(ctx, params.id, body.policy, caller)),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:id/reset-password`,
      auth: 'admin',
      summary: 'Set a new password (members: on the media server first); shown once if generated',
      tags: ['users'],
      request: { params: idParams, body: adminResetPasswordSchema },
      responses: { 200: { description: 'Reset', schema: adminResetPasswordResponseSchema } },
      errors: ['USER_NOT_FOUND', ...UPSTREAM_ERRORS],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await resetPassword(ctx, params.id, body, caller)),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:id`,
      auth: 'admin',
      summary: "Delete an account and the member's media-server user",
      tags: ['users'],
      request: { params: idParams },
      responses: { 200: { description: 'Deleted', schema: deleteUserResponseSchema } },
      errors: ['USER_NOT_FOUND', 'CANNOT_MODIFY_SELF', 'LAST_ADMIN'],
      handler: async (c, { params, ...caller }) => c.json(await deleteUser(ctx, params.id, caller)),
    }),
    ...mediaBindingRoutes(ctx),
  ];
}
