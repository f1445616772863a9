// Public account routes (20-api.md §4): registration and password reset by email.
import {
  emailCodeSentSchema,
  forgotPasswordSchema,
  okSchema,
  registerModeSchema,
  registerRequestSchema,
  registerResponseSchema,
  registerSendCodeSchema,
  resetPasswordSchema,
} from '@usher/contracts';
import { type RouteDef, routeGroup } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import type { AccountLimiters } from '../limits.js';
import { forgotPassword, resetPassword } from '../recovery.js';
import { register, registrationMode, sendRegisterCode } from '../register.js';
import { browserLocale } from '../mail.js';

const api = routeGroup('auth');

export function publicAccountRoutes(ctx: ModuleContext, limiters: AccountLimiters): RouteDef[] {
  return [
    api.public.get('/api/v1/auth/register/mode', {
      summary: 'How sign-up works here: mode, trial, email verification, allowed domains',
      responses: { 200: { description: 'Registration rules', schema: registerModeSchema } },
      json: () => registrationMode(ctx),
    }),
    api.public.post('/api/v1/auth/register/send-code', {
      summary: 'Email a sign-up verification code',
      request: { body: registerSendCodeSchema },
      responses: { 202: { description: 'Code sent', schema: emailCodeSentSchema } },
      errors: [
        'EMAIL_TAKEN',
        'EMAIL_DOMAIN_NOT_ALLOWED',
        'EMAIL_VERIFICATION_OFF',
        'RATE_LIMITED',
        'UPSTREAM_UNAVAILABLE',
        'NOT_CONFIGURED',
      ],
      handler: async (c, { body, meta }) =>
        c.json(await sendRegisterCode(ctx, body.email, { ...meta, locale: browserLocale(c) }), 202),
    }),
    api.public.post('/api/v1/auth/register', {
      summary: 'Create an account here and on the media server (all or nothing)',
      request: { body: registerRequestSchema },
      responses: {
        201: { description: 'Registered and signed in', schema: registerResponseSchema },
      },
      errors: [
        'PASSWORD_LOGIN_DISABLED',
        'USERNAME_TAKEN',
        'EMAIL_TAKEN',
        'REGISTRATION_CODE_REQUIRED',
        'REDEEM_CODE_INVALID',
        'EMAIL_DOMAIN_NOT_ALLOWED',
        'EMAIL_CODE_REQUIRED',
        'EMAIL_CODE_INVALID',
        'RATE_LIMITED',
        'UPSTREAM_UNAVAILABLE',
        'NOT_CONFIGURED',
      ],
      handler: async (c, { body, meta }) =>
        c.json(await register(ctx, limiters.registration, body, meta), 201),
    }),
    api.public.post('/api/v1/auth/password/forgot', {
      summary: 'Email a password reset code (same reply whether or not the address is known)',
      request: { body: forgotPasswordSchema },
      responses: { 202: { description: 'Accepted', schema: okSchema } },
      errors: ['RATE_LIMITED', 'NOT_CONFIGURED'],
      handler: async (c, { body, meta }) =>
        c.json(await forgotPassword(ctx, body.email, { ...meta, locale: browserLocale(c) }), 202),
    }),
    api.public.post('/api/v1/auth/password/reset', {
      summary: 'Set a new password with the emailed code; signs out everywhere',
      request: { body: resetPasswordSchema },
      responses: { 200: { description: 'Password set', schema: okSchema } },
      errors: ['EMAIL_CODE_INVALID', 'UPSTREAM_UNAVAILABLE'],
      json: ({ body, meta }) => resetPassword(ctx, body, meta),
    }),
  ];
}
