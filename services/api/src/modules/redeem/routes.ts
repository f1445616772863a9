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
import { defineRoute, noContent, type RouteDef } from '../../http/route.js';
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

const idParams = z.strictObject({ id: safeString() });

export function redeemRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/register/validate-code',
      auth: 'public',
      summary: 'Check an invite code before registering (no writes)',
      tags: ['auth'],
      request: { body: validateInviteCodeRequestSchema },
      responses: { 200: { description: 'Usable', schema: validateInviteCodeResponseSchema } },
      errors: ['REDEEM_CODE_INVALID', 'RATE_LIMITED'],
      handler: async (c, { body, meta }) => c.json(await validateInviteCode(ctx, body.code, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/me/redeem',
      auth: 'user',
      summary: 'Redeem a code: adds its days to max(now, expiry) and re-enables media access',
      tags: ['me'],
      request: { body: redeemRequestSchema },
      responses: { 200: { description: 'Renewed', schema: redeemResponseSchema } },
      errors: [
        'REDEEM_CODE_INVALID',
        'REDEEM_CODE_ALREADY_USED',
        'ACCOUNT_NEVER_EXPIRES',
        'ACCOUNT_NOT_RENEWABLE',
        'RATE_LIMITED',
      ],
      handler: async (c, { body, auth, meta }) =>
        c.json(
          await redeem(ctx, auth.userId, body.code, {
            ...meta,
            actor: 'user',
            actorLabel: auth.username,
          }),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/me/redeem/validate',
      auth: 'user',
      summary: 'Preview a redemption (no writes)',
      tags: ['me'],
      request: { body: redeemRequestSchema },
      responses: { 200: { description: 'What redeeming would do', schema: redeemPreviewSchema } },
      errors: [
        'REDEEM_CODE_INVALID',
        'REDEEM_CODE_ALREADY_USED',
        'ACCOUNT_NEVER_EXPIRES',
        'ACCOUNT_NOT_RENEWABLE',
        'RATE_LIMITED',
      ],
      handler: async (c, { body, auth }) =>
        c.json(await previewRedeem(ctx, auth.userId, body.code)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/redemptions',
      auth: 'user',
      summary: 'Own redemptions, newest first',
      tags: ['me'],
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Redemptions', schema: cappedPageOf(redemptionSchema) } },
      handler: async (c, { query, auth }) =>
        c.json(await listRedemptions(ctx, { ...query, userId: auth.userId })),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/redeem-codes',
      auth: 'admin',
      summary: 'Redeem codes by status (default active) and search over code and notes',
      tags: ['redeem-codes'],
      request: { query: redeemCodeListQuerySchema },
      responses: { 200: { description: 'Codes', schema: pageOf(redeemCodeSchema) } },
      handler: async (c, { query }) => c.json(await listCodes(ctx, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/redeem-codes',
      auth: 'admin',
      summary: 'Create one code',
      tags: ['redeem-codes'],
      request: { body: createRedeemCodeSchema },
      responses: { 201: { description: 'Created', schema: redeemCodeSchema } },
      handler: async (c, { body, ...caller }) => c.json(await createOne(ctx, body, caller), 201),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/redeem-codes/batch',
      auth: 'admin',
      summary: 'Create up to 100 codes in one transaction',
      tags: ['redeem-codes'],
      request: { body: batchRedeemCodesSchema },
      responses: {
        201: {
          description: 'Created',
          schema: z.object({ data: z.array(redeemCodeSchema), count: z.number().int() }),
        },
      },
      handler: async (c, { body, ...caller }) => c.json(await batchCreate(ctx, body, caller), 201),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/admin/redeem-codes/:id',
      auth: 'admin',
      summary: 'Change days, uses, expiry or notes; applies to future uses',
      tags: ['redeem-codes'],
      request: { params: idParams, body: updateRedeemCodeSchema },
      responses: { 200: { description: 'Updated', schema: redeemCodeSchema } },
      errors: ['REDEEM_CODE_NOT_FOUND', 'MAX_USES_BELOW_USED'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await updateCode(ctx, params.id, body, caller)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/admin/redeem-codes/:id',
      auth: 'admin',
      summary: 'Delete a code (its redemption history stays)',
      tags: ['redeem-codes'],
      request: { params: idParams },
      responses: { 204: { description: 'Deleted' } },
      errors: ['REDEEM_CODE_NOT_FOUND'],
      handler: (c, { params, ...caller }) => noContent(c, deleteCode(ctx, params.id, caller)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/redemptions',
      auth: 'admin',
      summary: 'Every redemption, newest first, with filters',
      tags: ['redeem-codes'],
      request: { query: redemptionListQuerySchema },
      responses: { 200: { description: 'Redemptions', schema: cappedPageOf(redemptionSchema) } },
      handler: async (c, { query }) => c.json(await listRedemptions(ctx, query)),
    }),
  ];
}
