import {
  batchRedeemCodesSchema,
  createRedeemCodeSchema,
  cappedPageOf,
  pageOf,
  redeemCodeListQuerySchema,
  redeemCodeSchema,
  redeemPreviewSchema,
  redeemRequestSchema,
  redeemResponseSchema,
  redemptionListQuerySchema,
  redemptionSchema,
  updateRedeemCodeSchema,
  validateInviteCodeRequestSchema,
  validateInviteCodeResponseSchema,
  paginationQuerySchema,
  safeString,
} from '@usher/contracts';
import { z } from 'zod';
import { noContent, type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { previewRedeem, redeem, validateInviteCode } from './service.js';
import {
  batchCreate,
  createOne,
  deleteCode,
  listCodes,
  listRedemptions,
  updateCode,
} from './admin.js';

const api = routeGroup('redeem-codes');
/** Why a code cannot be redeemed (the preview answers the same). */
const REDEEM_ERRORS = [
  'REDEEM_CODE_INVALID',
  'REDEEM_CODE_ALREADY_USED',
  'ACCOUNT_NEVER_EXPIRES',
  'ACCOUNT_NOT_RENEWABLE',
  'RATE_LIMITED',
];

const idParams = z.strictObject({ id: safeString() });

export function redeemRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.public.post('/api/v1/auth/register/validate-code', {
      summary: 'Check an invite code before registering (no writes)',
      tags: ['auth'],
      request: { body: validateInviteCodeRequestSchema },
      responses: { 200: { description: 'Usable', schema: validateInviteCodeResponseSchema } },
      errors: ['REDEEM_CODE_INVALID', 'RATE_LIMITED'],
      json: ({ body, meta }) => validateInviteCode(ctx, body.code, meta),
    }),
    api.user.post('/api/v1/me/redeem', {
      summary: 'Redeem a code: adds its days to max(now, expiry) and re-enables media access',
      tags: ['me'],
      request: { body: redeemRequestSchema },
      responses: { 200: { description: 'Renewed', schema: redeemResponseSchema } },
      errors: REDEEM_ERRORS,
      handler: async (c, { body, auth, meta }) =>
        c.json(
          await redeem(ctx, auth.userId, body.code, {
            ...meta,
            actor: 'user',
            actorLabel: auth.username,
          }),
        ),
    }),
    api.user.post('/api/v1/me/redeem/validate', {
      summary: 'Preview a redemption (no writes)',
      tags: ['me'],
      request: { body: redeemRequestSchema },
      responses: { 200: { description: 'What redeeming would do', schema: redeemPreviewSchema } },
      errors: REDEEM_ERRORS,
      json: ({ body, auth }) => previewRedeem(ctx, auth.userId, body.code),
    }),
    api.user.get('/api/v1/me/redemptions', {
      summary: 'Own redemptions, newest first',
      tags: ['me'],
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Redemptions', schema: cappedPageOf(redemptionSchema) } },
      json: ({ query, auth }) => listRedemptions(ctx, { ...query, userId: auth.userId }),
    }),
    api.admin.get('/api/v1/admin/redeem-codes', {
      summary: 'Redeem codes by status (default active) and search over code and notes',
      request: { query: redeemCodeListQuerySchema },
      responses: { 200: { description: 'Codes', schema: pageOf(redeemCodeSchema) } },
      json: ({ query }) => listCodes(ctx, query),
    }),
    api.admin.post('/api/v1/admin/redeem-codes', {
      summary: 'Create one code',
      request: { body: createRedeemCodeSchema },
      responses: { 201: { description: 'Created', schema: redeemCodeSchema } },
      handler: async (c, { body, ...caller }) => c.json(await createOne(ctx, body, caller), 201),
    }),
    api.admin.post('/api/v1/admin/redeem-codes/batch', {
      summary: 'Create up to 100 codes in one transaction',
      request: { body: batchRedeemCodesSchema },
      responses: {
        201: {
          description: 'Created',
          schema: z.object({ data: z.array(redeemCodeSchema), count: z.number().int() }),
        },
      },
      handler: async (c, { body, ...caller }) => c.json(await batchCreate(ctx, body, caller), 201),
    }),
    api.admin.patch('/api/v1/admin/redeem-codes/:id', {
      summary: 'Change days, uses, expiry or notes; applies to future uses',
      request: { params: idParams, body: updateRedeemCodeSchema },
      responses: { 200: { description: 'Updated', schema: redeemCodeSchema } },
      errors: ['REDEEM_CODE_NOT_FOUND', 'MAX_USES_BELOW_USED'],
      json: ({ params, body, ...caller }) => updateCode(ctx, params.id, body, caller),
    }),
    api.admin.delete('/api/v1/admin/redeem-codes/:id', {
      summary: 'Delete a code (its redemption history stays)',
      request: { params: idParams },
      responses: { 204: { description: 'Deleted' } },
      errors: ['REDEEM_CODE_NOT_FOUND'],
      handler: (c, { params, ...caller }) => noContent(c, deleteCode(ctx, params.id, caller)),
    }),
    api.admin.get('/api/v1/admin/redemptions', {
      summary: 'Every redemption, newest first, with filters',
      request: { query: redemptionListQuerySchema },
      responses: { 200: { description: 'Redemptions', schema: cappedPageOf(redemptionSchema) } },
      json: ({ query }) => listRedemptions(ctx, query),
    }),
  ];
}
