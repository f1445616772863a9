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
import { type RouteDef, routeGroup } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import type { AccountLimiters } from '../limits.js';
import {
  bindMessenger,
  lookupMessenger,
  redeemForMessenger,
  resetPasswordForMessenger,
} from '../messenger.js';

const api = routeGroup('internal');

export function internalAccountRoutes(ctx: ModuleContext, limiters: AccountLimiters): RouteDef[] {
  return [
    api.internal.post('/api/v1/internal/messenger/bind', {
      summary: 'Bind a Telegram account with the code the member got on the web',
      request: { body: messengerBindSchema },
      responses: { 200: { description: 'Bound', schema: messengerBindResponseSchema } },
      errors: [
        'BIND_CODE_INVALID',
        'MESSENGER_ID_IN_USE',
        'MESSENGER_ALREADY_BOUND',
        'RATE_LIMITED',
      ],
      json: ({ body, meta }) => bindMessenger(ctx, limiters.messengerBind, body, meta),
    }),
    api.internal.post('/api/v1/internal/messenger/lookup', {
      summary: 'The account bound to a Telegram id',
      request: { body: messengerLookupSchema },
      responses: { 200: { description: 'Account', schema: messengerLookupResponseSchema } },
      errors: ['MESSENGER_NOT_BOUND'],
      json: ({ body }) => lookupMessenger(ctx, body),
    }),
    api.internal.post('/api/v1/internal/messenger/redeem', {
      summary: 'Redeem a code for the account bound to a Telegram id',
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
      json: ({ body, meta }) => redeemForMessenger(ctx, body, meta),
    }),
    api.internal.post('/api/v1/internal/messenger/reset-password', {
      summary: 'Generate a new password for the bound account (shown once; change forced)',
      request: { body: messengerResetPasswordSchema },
      responses: {
        200: { description: 'New password', schema: messengerResetPasswordResponseSchema },
      },
      errors: ['MESSENGER_NOT_BOUND', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE'],
      json: ({ body, meta }) =>
        resetPasswordForMessenger(ctx, limiters.botPasswordReset, body, meta),
    }),
  ];
}
