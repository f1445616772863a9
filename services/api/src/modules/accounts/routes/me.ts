// Own account routes (20-api.md §5 "Account"); GET /me and PUT /me/password live in auth.
import {
  bindCodeSchema,
  emailChangeSchema,
  emailChangeSendCodeSchema,
  emailCodeSentSchema,
  updateMeSchema,
  userSchema,
} from '@usher/contracts';
import { defineRoute, noContent, type RouteDef } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import { issueBindCode, unbindMessenger } from '../messenger.js';
import { changeEmail, sendEmailChangeCode, updateLocale } from '../profile.js';
import { browserLocale } from '../mail.js';

export function meAccountRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/api/v1/me',
      auth: 'user',
      summary: 'Change the own profile (language)',
      tags: ['me'],
      request: { body: updateMeSchema },
      responses: { 200: { description: 'The account', schema: userSchema } },
      handler: async (c, { body, auth }) =>
        c.json(await updateLocale(ctx, auth.userId, body.locale)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/me/email/send-code',
      auth: 'user',
      summary: 'Email a code to the new address to confirm an email change',
      tags: ['me'],
      request: { body: emailChangeSendCodeSchema },
      responses: { 202: { description: 'Code sent', schema: emailCodeSentSchema } },
      errors: [
        'EMAIL_TAKEN',
        'EMAIL_UNCHANGED',
        'EMAIL_DOMAIN_NOT_ALLOWED',
        'RATE_LIMITED',
        'UPSTREAM_UNAVAILABLE',
        'NOT_CONFIGURED',
      ],
      handler: async (c, { body, auth, meta }) =>
        c.json(
          await sendEmailChangeCode(ctx, auth.userId, body.newEmail, {
            ...meta,
            locale: browserLocale(c),
          }),
          202,
        ),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/me/email',
      auth: 'user',
      summary: 'Change the email address with the code sent to it',
      tags: ['me'],
      request: { body: emailChangeSchema },
      responses: { 200: { description: 'The account', schema: userSchema } },
      errors: ['EMAIL_TAKEN', 'EMAIL_CODE_INVALID'],
      handler: async (c, { body, auth, meta }) =>
        c.json(await changeEmail(ctx, auth.userId, body, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/me/messenger/bind-code',
      auth: 'user',
      summary: 'A 6-digit code (5 min) to send to the bot; replaces an earlier code',
      tags: ['me'],
      responses: { 201: { description: 'Code', schema: bindCodeSchema } },
      errors: ['MESSENGER_ALREADY_BOUND'],
      handler: async (c, { auth }) => c.json(await issueBindCode(ctx, auth.userId), 201),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/me/messenger',
      auth: 'user',
      summary: 'Unbind the Telegram account',
      tags: ['me'],
      responses: { 204: { description: 'Unbound' } },
      errors: ['MESSENGER_NOT_BOUND'],
      handler: (c, { auth, meta }) => noContent(c, unbindMessenger(ctx, auth.userId, meta)),
    }),
  ];
}
