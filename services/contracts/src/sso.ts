import { z } from 'zod';
import { isoInstant, safeString, uuidSchema } from './common.js';
import { loginResponseSchema } from './auth.js';

/** `GET /auth/oidc/start?redirect=`: where the web app goes after signing in (in-app path). */
export const ssoStartQuerySchema = z.strictObject({
  redirect: safeString()
    .max(512)
    .regex(/^\/(?!\/)/, { message: 'Must be an in-app path starting with a single /' })
    .optional(),
});

/** `GET /auth/oidc/callback`: what the provider appends (RFC 6749 §4.1.2, errors §4.1.2.1). */
export const ssoCallbackQuerySchema = z.object({
  code: safeString().max(2048).optional(),
  state: safeString().max(512).optional(),
  iss: safeString().max(2048).optional(),
  error: safeString().max(256).optional(),
  error_description: safeString().max(1024).optional(),
  session_state: safeString().max(512).optional(),
});

/** `POST /auth/oidc/exchange`: the one-time code of the callback, and an invite code once. */
export const ssoExchangeRequestSchema = z.strictObject({
  code: safeString().min(16).max(128),
  /** Invite mode, first sign-in only: the redeem code that grants the membership. */
  inviteCode: safeString().trim().min(1).max(64).optional(),
});
export type SsoExchangeRequest = z.infer<typeof ssoExchangeRequestSchema>;

/** The same shape as password login, plus where the web app goes next. */
export const ssoExchangeResponseSchema = loginResponseSchema.extend({
  redirect: safeString().nullable(),
});
export type SsoExchangeResponse = z.infer<typeof ssoExchangeResponseSchema>;

/** One provider sign-in linked to the account (`GET /me/identities`). */
export const userIdentitySchema = z
  .object({
    id: uuidSchema,
    issuer: safeString(),
    /** The provider's address for the person at the last sign-in, when it gave one. */
    email: safeString().nullable(),
    createdAt: isoInstant,
    lastUsedAt: isoInstant.nullable(),
  })
  .meta({ id: 'UserIdentity' });
export type UserIdentity = z.infer<typeof userIdentitySchema>;

export const userIdentitiesResponseSchema = z.object({
  data: z.array(userIdentitySchema),
  /** Whether the owner knows a password for the account (another way to sign in). */
  hasPassword: z.boolean(),
  /** Whether a password signs this account in (off for everyone but the bootstrap admin). */
  passwordLogin: z.boolean(),
  /** Whether linking another provider sign-in is possible now (SSO switched on). */
  canLink: z.boolean(),
});
export type UserIdentitiesResponse = z.infer<typeof userIdentitiesResponseSchema>;

/** `POST /me/identities/link`: the provider address to open (the state cookie is set too). */
export const ssoLinkResponseSchema = z.object({ authorizationUrl: safeString() });
export type SsoLinkResponse = z.infer<typeof ssoLinkResponseSchema>;
