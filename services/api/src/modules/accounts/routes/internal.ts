// The bot's account routes (20-api.md §7), behind `X-Internal-Secret`.
import {
  messengerBindResponseSchema,
  messengerBindSchema,
  messengerLookupResponseSchema,
  messengerLookupSchema,
  messengerRedeemResponseSchema,
  messengerRedeemSchema,
  messengerResetPasswordResponseSchema,
  messengerResetPasswordSchema,
} from '@usher/contracts';
import { defineRoute, type RouteDef } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import type { AccountLimiters } from '../limits.js';
import {
  bindMessenger,
  lookupMessenger,
  redeemForMessenger,
  resetPasswordForMessenger,
} from '../messenger.js';

export function internalAccountRoutes(ctx: ModuleContext, limiters: AccountLimiters): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/messenger/bind',
      auth: 'internal',
      summary: 'Bind a Telegram account with the code the member got on the web',
      tags: ['internal'],
      request: { body: messengerBindSchema },
      responses: { 200: { description: 'Bound', schema: messengerBindResponseSchema } },
      errors: [
        'BIND_CODE_INVALID',
        'MESSENGER_ID_IN_USE',
        'MESSENGER_ALREADY_BOUND',
        'RATE_LIMITED',
      ],
      handler: async (c, { body, meta }) =>
        c.json(await bindMessenger(ctx, limiters.messengerBind, body, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/messenger/lookup',
      auth: 'internal',
      summary: 'The account bound to a Telegram id',
      tags: ['internal'],
      request: { body: messengerLookupSchema },
      responses: { 200: { description: 'Account', schema: messengerLookupResponseSchema } },
      errors: ['MESSENGER_NOT_BOUND'],
      handler: async (c, { body }) => c.json(await lookupMessenger(ctx, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/messenger/redeem',
      auth: 'internal',
      summary: 'Redeem a code for the account bound to a Telegram id',
      tags: ['internal'],
      request: { body: messengerRedeemSchema },
      responses: { 200: { description: 'Renewed', schema: messengerRedeemResponseSchema } },
      errors: [
        'MESSENGER_NOT_BOUND',
        'REDEEM_CODE_INVALID',
        'REDEEM_CODE_ALREADY_USED',
        'ACCOUNT_NEVER_EXPIRES',
        'ACCOUNT_NOT_RENEWABLE',
        'RATE_LIMITED',
      ],
      handler: async (c, { body, meta }) => c.json(await redeemForMessenger(ctx, body, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/internal/messenger/reset-password',
      auth: 'internal',
      summary: 'Generate a new password for the bound account (shown once; change forced)',
      tags: ['internal'],
      request: { body: messengerResetPasswordSchema },
      responses: {
        200: { description: 'New password', schema: messengerResetPasswordResponseSchema },
      },
      errors: ['MESSENGER_NOT_BOUND', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE'],
      handler: async (c, { body, meta }) =>
        c.json(await resetPasswordForMessenger(ctx, limiters.botPasswordReset, body, meta)),
    }),
  ];
}
