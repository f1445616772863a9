import {
  ssoCallbackQuerySchema,
  ssoExchangeRequestSchema,
  ssoExchangeResponseSchema,
  ssoLinkResponseSchema,
  ssoStartQuerySchema,
  safeString,
  userIdentitiesResponseSchema,
} from '@usher/contracts';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.js';
import { asAppError } from '../../errors/app-error.js';
import { noContent, type RouteDef, routeGroup } from '../../http/route.js';
import { StoredLimiter } from '../../http/rate-limit.js';
import type { ModuleContext } from '../context.js';
import { signedInUser } from '../auth/index.js';
import { readSsoSettings, SSO_DEADLINE_MS } from '../../integrations/oidc/index.js';
import { beginSignIn, finishCallback } from './service.js';
import { exchangeCode } from './exchange.js';
import { listIdentities, unlinkIdentity } from './identities.js';
import type { SsoDeps } from './records.js';
import { STATE_COOKIE, StateSealer, stateCookie } from './state.js';

const api = routeGroup('auth');

export interface SsoRouteOptions {
  /** Bound of the work at the provider per request (default 8 s; tests shorten it). */
  deadlineMs?: number;
}

/**
 * A browser navigating (start, callback) gets a redirect to a page that explains the error; an
 * API client (no `text/html` in Accept) gets the shared error body with the status.
 */
const wantsHtml = (c: Context<AppEnv>) => (c.req.header('accept') ?? '').includes('text/html');

function errorRedirect(c: Context<AppEnv>, webUrl: string, err: unknown, link: boolean) {
  const app = asAppError(err);
  if (!app || !webUrl || !wantsHtml(c)) throw err;
  const target = link
    ? `${webUrl}/console/account?section=sso&ssoError=${app.code}`
    : `${webUrl}/login/sso?error=${app.code}`;
  return c.redirect(target, 302);
}

const SSO_ERRORS = ['SSO_DISABLED', 'SSO_UNAVAILABLE'];

export function ssoRoutes(ctx: ModuleContext, options: SsoRouteOptions = {}): RouteDef[] {
  const deps: SsoDeps = {
    ctx,
    sealer: new StateSealer(ctx.config.JWT_SECRET),
    // The same bucket as `POST /auth/register`: sign-ups per IP, however they come.
    registration: new StoredLimiter(ctx.db, {
      name: 'register_ip',
      points: 10,
      durationSeconds: 3600,
    }),
    deadlineMs: options.deadlineMs ?? SSO_DEADLINE_MS,
  };
  return [
    api.public.get('/api/v1/auth/oidc/start', {
      summary: 'Start single sign-on: redirect to the identity provider (code flow with PKCE)',
      request: { query: ssoStartQuerySchema },
      responses: { 302: { description: 'To the provider; sets the short-lived state cookie' } },
      errors: SSO_ERRORS,
      handler: async (c, { query }) => {
        try {
          const { url, cookie } = await beginSignIn(deps, { redirect: query.redirect ?? null });
          c.header('Set-Cookie', cookie);
          c.header('Cache-Control', 'no-store');
          return c.redirect(url, 302);
        } catch (err) {
          const s = await readSsoSettings(ctx.settings.store);
          return errorRedirect(c, s.webUrl, err, false);
        }
      },
    }),
    api.public.get('/api/v1/auth/oidc/callback', {
      summary: 'Where the provider sends the browser back; hands over a one-time code',
      request: { query: ssoCallbackQuerySchema },
      responses: {
        302: {
          description:
            'To the web app: /login/sso?code= (one-time, never a token), or the account page after linking',
        },
      },
      errors: [
        ...SSO_ERRORS,
        'SSO_STATE_INVALID',
        'SSO_REGISTRATION_CLOSED',
        'SSO_IDENTITY_TAKEN',
        'ACCOUNT_DISABLED',
      ],
      handler: async (c, { meta }) => {
        const state = deps.sealer.open(getCookie(c, STATE_COOKIE), ctx.now());
        const s = await readSsoSettings(ctx.settings.store);
        // The state is single-use: whatever happens next, the browser forgets it.
        c.header('Set-Cookie', stateCookie('', s.webUrl.startsWith('https://'), 0));
        c.header('Cache-Control', 'no-store');
        try {
          const outcome = await finishCallback(deps, c.req.query(), state, meta);
          return c.redirect(
            outcome.kind === 'linked'
              ? `${s.webUrl}/console/account?section=sso&sso=linked`
              : `${s.webUrl}/login/sso?code=${outcome.code}`,
            302,
          );
        } catch (err) {
          return errorRedirect(c, s.webUrl, err, state?.linkUserId != null);
        }
      },
    }),
    api.public.post('/api/v1/auth/oidc/exchange', {
      summary: 'Trade the one-time sign-in code for a session (first sign-in: creates the account)',
      request: { body: ssoExchangeRequestSchema },
      responses: { 200: { description: 'Signed in', schema: ssoExchangeResponseSchema } },
      errors: [
        'SSO_DISABLED',
        'SSO_STATE_INVALID',
        'ACCOUNT_DISABLED',
        'SSO_IDENTITY_TAKEN',
        'REGISTRATION_CODE_REQUIRED',
        'REDEEM_CODE_INVALID',
        'EMAIL_DOMAIN_NOT_ALLOWED',
        'EMAIL_CODE_REQUIRED',
        'EMAIL_TAKEN',
        'USERNAME_TAKEN',
        'RATE_LIMITED',
        'UPSTREAM_UNAVAILABLE',
        'NOT_CONFIGURED',
      ],
      json: ({ body, meta }) => exchangeCode(deps, body, meta),
    }),
    api.user.get('/api/v1/me/identities', {
      summary: 'The provider sign-ins linked to the own account',
      tags: ['me'],
      responses: { 200: { description: 'Linked sign-ins', schema: userIdentitiesResponseSchema } },
      handler: async (c, { auth }) =>
        c.json(
          await listIdentities(ctx, c.get('account') ?? (await signedInUser(ctx, auth.userId))),
        ),
    }),
    api.user.post('/api/v1/me/identities/link', {
      summary: 'Start linking a provider sign-in: the address to open (sets the state cookie)',
      tags: ['me'],
      responses: { 200: { description: 'Provider address', schema: ssoLinkResponseSchema } },
      errors: SSO_ERRORS,
      handler: async (c, { auth }) => {
        const row = c.get('account') ?? (await signedInUser(ctx, auth.userId));
        const { url, cookie } = await beginSignIn(deps, {
          redirect: null,
          link: { userId: row.id, tokenVersion: row.tokenVersion },
        });
        c.header('Set-Cookie', cookie);
        return c.json({ authorizationUrl: url });
      },
    }),
    api.user.delete('/api/v1/me/identities/:id', {
      summary: 'Unlink a provider sign-in (not the last way to sign in)',
      tags: ['me'],
      request: { params: z.object({ id: safeString().max(64) }) },
      responses: { 204: { description: 'Unlinked' } },
      errors: ['IDENTITY_NOT_FOUND', 'LAST_SIGN_IN_METHOD'],
      handler: (c, { params, auth, meta }) =>
        noContent(c, unlinkIdentity(ctx, auth.userId, params.id, meta)),
    }),
  ];
}
