// Own account routes (20-api.md §5 "Account"); GET /me and PUT /me/password live in auth.
import {
  bindCodeSchema,
  emailChangeSchema,
  emailChangeSendCodeSchema,
  emailCodeSentSchema,
  updateMeSchema,
  userSchema,
} from '@usher/contracts';
import { noContent, type RouteDef, routeGroup } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import { issueBindCode, unbindMessenger } from '../messenger.js';
import { changeEmail, sendEmailChangeCode, updateLocale } from '../profile.js';
import { browserLocale } from '../mail.js';

const api = routeGroup('me');

export function meAccountRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.user.patch('/api/v1/me', {
      summary: 'Change the own profile (language)',
      request: { body: updateMeSchema },
      responses: { 200: { description: 'The account', schema: userSchema } },
      json: ({ body, auth }) => updateLocale(ctx, auth.userId, body.locale),
    }),
    api.user.post('/api/v1/me/email/send-code', {
      summary: 'Email a code to the new address to confirm an email change',
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
    api.user.put('/api/v1/me/email', {
      summary: 'Change the email address with the code sent to it',
      request: { body: emailChangeSchema },
      responses: { 200: { description: 'The account', schema: userSchema } },
      errors: ['EMAIL_TAKEN', 'EMAIL_CODE_INVALID'],
      json: ({ body, auth, meta }) => changeEmail(ctx, auth.userId, body, meta),
    }),
    api.user.post('/api/v1/me/messenger/bind-code', {
      summary: 'A 6-digit code (5 min) to send to the bot; replaces an earlier code',
      responses: { 201: { description: 'Code', schema: bindCodeSchema } },
      errors: ['MESSENGER_ALREADY_BOUND'],
      handler: async (c, { auth }) => c.json(await issueBindCode(ctx, auth.userId), 201),
    }),
    api.user.delete('/api/v1/me/messenger', {
      summary: 'Unbind the Telegram account',
      responses: { 204: { description: 'Unbound' } },
      errors: ['MESSENGER_NOT_BOUND'],
      handler: (c, { auth, meta }) => noContent(c, unbindMessenger(ctx, auth.userId, meta)),
    }),
  ];
}
