import {
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  tokenResponseSchema,
  userSchema,
} from '@usher/contracts';
import { defineRoute, noContent, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { toUser } from '../users/index.js';
import { changePassword, login, logout, signedInUser } from './service.js';

export function authRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/login',
      auth: 'public',
      summary: 'Sign in with username (or email) and password',
      tags: ['auth'],
      request: { body: loginRequestSchema },
      responses: { 200: { description: 'Signed in', schema: loginResponseSchema } },
      errors: [
        'INVALID_CREDENTIALS',
        'ACCOUNT_DISABLED',
        'PASSWORD_LOGIN_DISABLED',
        'RATE_LIMITED',
      ],
      handler: async (c, { body, meta }) => c.json(await login(ctx, body, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/logout',
      auth: 'user',
      allowDuringPasswordChange: true,
      summary: 'Sign out; `allDevices` revokes every token of the account',
      tags: ['auth'],
      request: { body: logoutRequestSchema },
      responses: { 204: { description: 'Signed out' } },
      handler: (c, { body, auth }) =>
        noContent(c, logout(ctx, auth.userId, body.allDevices ?? false)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me',
      auth: 'user',
      allowDuringPasswordChange: true,
      summary: 'The signed-in account',
      tags: ['me'],
      responses: { 200: { description: 'The account', schema: userSchema } },
      handler: async (c, { auth }) =>
        // The guard read the row for this request; no second query.
        c.json(toUser(c.get('account') ?? (await signedInUser(ctx, auth.userId)), ctx.now())),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/me/password',
      auth: 'user',
      allowDuringPasswordChange: true,
      summary: 'Change the own password; earlier tokens stop working',
      tags: ['me'],
      request: { body: changePasswordRequestSchema },
      responses: { 200: { description: 'Changed; a fresh token', schema: tokenResponseSchema } },
      errors: [
        'CURRENT_PASSWORD_INVALID',
        'PASSWORD_UNCHANGED',
        'RATE_LIMITED',
        'UPSTREAM_UNAVAILABLE',
        'NOT_CONFIGURED',
      ],
      handler: async (c, { body, auth, meta }) =>
        c.json(await changePassword(ctx, auth.userId, body, meta)),
    }),
  ];
}
