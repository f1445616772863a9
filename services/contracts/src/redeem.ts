import { z } from 'zod';
import {
  CODE_STATUS_FILTERS,
  MEDIA_SYNC_OUTCOMES,
  REDEEM_CODE_STATUSES,
  REDEMPTION_KINDS,
} from './values.js';
import { isoInstant, paginationQuerySchema, uuidSchema, safeString } from './common.js';
import { requestDaySchema, requestInstantSchema } from './audit.js';

/** 16 hex characters, any case on input (stored uppercase). */
export const redeemCodeTextSchema = safeString()
  .trim()
  .regex(/^[0-9A-Fa-f]{16}$/, { message: 'A code is 16 characters 0-9 and A-F' })
  .transform((s) => s.toUpperCase());

export const redeemCodeSchema = z
  .object({
    id: uuidSchema,
    code: safeString(),
    days: z.number().int(),
    maxUses: z.number().int(),
    usedCount: z.number().int(),
    expiresAt: isoInstant.nullable(),
    status: z.enum(REDEEM_CODE_STATUSES),
    notes: safeString(),
    createdBy: z.object({ id: uuidSchema, username: safeString() }).nullable(),
    createdAt: isoInstant,
  })
  .meta({ id: 'RedeemCode' });
export type RedeemCode = z.infer<typeof redeemCodeSchema>;

export const redemptionSchema = z
  .object({
    id: uuidSchema,
    code: safeString(),
    kind: z.enum(REDEMPTION_KINDS),
    days: z.number().int(),
    previousExpiresAt: isoInstant.nullable(),
    newExpiresAt: isoInstant,
    createdAt: isoInstant,
    user: z.object({ id: uuidSchema, username: safeString() }),
  })
  .meta({ id: 'Redemption' });
export type Redemption = z.infer<typeof redemptionSchema>;

const codeFields = {
  days: z.number().int().min(1).max(3650),
  maxUses: z.number().int().min(1).max(10000).default(1),
  expiresAt: requestInstantSchema.nullable().optional(),
  notes: safeString().max(500).default(''),
};

export const createRedeemCodeSchema = z.strictObject(codeFields);
export const batchRedeemCodesSchema = z.strictObject({
  count: z.number().int().min(1).max(100),
  ...codeFields,
});
export const updateRedeemCodeSchema = z.strictObject({
  days: codeFields.days.optional(),
  maxUses: z.number().int().min(1).max(10000).optional(),
  expiresAt: requestInstantSchema.nullable().optional(),
  notes: safeString().max(500).optional(),
});
export const redeemCodeListQuerySchema = paginationQuerySchema.extend({
  search: safeString().trim().max(100).optional(),
  status: z.enum(CODE_STATUS_FILTERS).default('active'),
});
export const redemptionListQuerySchema = paginationQuerySchema.extend({
  userId: uuidSchema.optional(),
  username: safeString().trim().max(32).optional(),
  code: safeString().trim().max(16).optional(),
  kind: z.enum(REDEMPTION_KINDS).optional(),
  from: requestDaySchema.optional(),
  to: requestDaySchema.optional(),
});

export const redeemRequestSchema = z.strictObject({ code: safeString().trim().min(1).max(64) });
export const redeemResponseSchema = z.object({
  days: z.number().int(),
  previousExpiresAt: isoInstant.nullable(),
  expiresAt: isoInstant,
  mediaSync: z.enum(MEDIA_SYNC_OUTCOMES),
});
export const redeemPreviewSchema = z.object({
  valid: z.literal(true),
  days: z.number().int(),
  codeExpiresAt: isoInstant.nullable(),
  newExpiresAt: isoInstant,
});
export const validateInviteCodeRequestSchema = z.strictObject({ code: redeemCodeTextSchema });
export const validateInviteCodeResponseSchema = z.object({
  valid: z.literal(true),
  days: z.number().int(),
  expiresAt: isoInstant.nullable(),
  remainingUses: z.number().int(),
});
