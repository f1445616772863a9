import {
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  tokenResponseSchema,
  userSchema,
} from '@usher/contracts';
import { noContent, type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { toUser } from '../users/index.js';
import { changePassword, login, logout, signedInUser } from './service.js';

const api = routeGroup('auth');

export function authRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.public.post('/api/v1/auth/login', {
      summary: 'Sign in with username (or email) and password',
      request: { body: loginRequestSchema },
      responses: { 200: { description: 'Signed in', schema: loginResponseSchema } },
      errors: [
        'INVALID_CREDENTIALS',
        'ACCOUNT_DISABLED',
        'PASSWORD_LOGIN_DISABLED',
        'RATE_LIMITED',
      ],
      json: ({ body, meta }) => login(ctx, body, meta),
    }),
    api.user.post('/api/v1/auth/logout', {
      allowDuringPasswordChange: true,
      summary: 'Sign out; `allDevices` revokes every token of the account',
      request: { body: logoutRequestSchema },
      responses: { 204: { description: 'Signed out' } },
      handler: (c, { body, auth }) =>
        noContent(c, logout(ctx, auth.userId, body.allDevices ?? false)),
    }),
    api.user.get('/api/v1/me', {
      allowDuringPasswordChange: true,
      summary: 'The signed-in account',
      tags: ['me'],
      responses: { 200: { description: 'The account', schema: userSchema } },
      handler: async (c, { auth }) =>
        // The guard read the row for this request; no second query.
        c.json(toUser(c.get('account') ?? (await signedInUser(ctx, auth.userId)), ctx.now())),
    }),
    api.user.put('/api/v1/me/password', {
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
      json: ({ body, auth, meta }) => changePassword(ctx, auth.userId, body, meta),
    }),
  ];
}
