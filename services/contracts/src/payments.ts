import { z } from 'zod';
import {
  CURRENCY_EXPONENTS,
  MAX_PLAN_PRICE,
  PAYMENT_STATUSES,
  PLAN_CURRENCIES,
  WEBHOOK_EVENT_STATUSES,
} from './values.js';
import { isoInstant, pageOf, paginationQuerySchema, safeString, uuidSchema } from './common.js';
import { requestDaySchema } from './audit.js';

// ---- Plans (20-api.md §2, §5 "Plans and checkout", §6 "Plans and payments") ----

export const planSchema = z
  .object({
    id: uuidSchema,
    name: safeString(),
    description: safeString(),
    days: z.number().int(),
    /** Minor units of `currency`, as Stripe counts them. */
    price: z.number().int(),
    currency: z.enum(PLAN_CURRENCIES),
    isActive: z.boolean(),
    sortOrder: z.number().int(),
    /** Streams at once for members of this plan (docs/sharing.md); null = `SHARING_MAX_STREAMS`. */
    maxStreams: z.number().int().nullable(),
    createdAt: isoInstant,
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof planSchema>;

/**
 * Stripe takes three-decimal currencies (kwd) only in whole hundredths: the last digit of the
 * minor-unit amount must be 0. Checked wherever a price and its currency meet.
 */
export function priceIssue(price: number, currency: string): string | null {
  if (CURRENCY_EXPONENTS[currency as keyof typeof CURRENCY_EXPONENTS] === 3 && price % 10 !== 0) {
    return 'must end in 0 for a three-decimal currency (Stripe rounds to hundredths)';
  }
  return null;
}

const planFields = {
  name: safeString().trim().min(1).max(60),
  description: safeString().trim().max(500),
  days: z.number().int().min(1).max(3650),
  price: z.number().int().min(1).max(MAX_PLAN_PRICE),
  currency: z.enum(PLAN_CURRENCIES),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000),
  isActive: z.boolean(),
  maxStreams: z.number().int().min(1).max(100).nullable(),
};

export const createPlanSchema = z
  .strictObject({
    ...planFields,
    description: planFields.description.default(''),
    sortOrder: planFields.sortOrder.default(0),
    isActive: planFields.isActive.default(true),
    maxStreams: planFields.maxStreams.default(null),
  })
  .superRefine((plan, ctx) => {
    const issue = priceIssue(plan.price, plan.currency);
    if (issue) ctx.addIssue({ code: 'custom', path: ['price'], message: issue });
  });
export type CreatePlan = z.input<typeof createPlanSchema>;

export const updatePlanSchema = z
  .strictObject({
    name: planFields.name.optional(),
    description: planFields.description.optional(),
    days: planFields.days.optional(),
    price: planFields.price.optional(),
    currency: planFields.currency.optional(),
    sortOrder: planFields.sortOrder.optional(),
    isActive: planFields.isActive.optional(),
    maxStreams: planFields.maxStreams.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change' });
export type UpdatePlan = z.infer<typeof updatePlanSchema>;

/**
 * `PUT /admin/plans/order`: every plan on sale, each once, in the order members see them. The
 * whole list, so a move is one write that cannot leave half a swap behind.
 */
export const reorderPlansSchema = z.strictObject({
  ids: z.array(uuidSchema).min(1).max(1000),
});
export type ReorderPlans = z.infer<typeof reorderPlansSchema>;

/** The plans on sale in their new order (the reply of `PUT /admin/plans/order`). */
export const planOrderSchema = z.object({ data: z.array(planSchema) });
export type PlanOrder = z.infer<typeof planOrderSchema>;

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const planListQuerySchema = paginationQuerySchema.extend({
  includeInactive: booleanQuery.default(true),
});

/** One pending checkout of the caller, resumable while it lasts. */
export const pendingCheckoutSchema = z.object({
  planId: uuidSchema,
  paymentId: uuidSchema,
  checkoutUrl: safeString(),
  expiresAt: isoInstant,
});

/** `GET /plans`: the active plans, whether they can be bought now, and resumable checkouts. */
export const memberPlansSchema = z.object({
  data: z.array(planSchema),
  paymentsEnabled: z.boolean(),
  pending: z.array(pendingCheckoutSchema),
});
export type MemberPlans = z.infer<typeof memberPlansSchema>;

export const checkoutRequestSchema = z.strictObject({ planId: safeString().trim().min(1).max(64) });
export const checkoutResponseSchema = z.object({
  paymentId: uuidSchema,
  url: safeString(),
  expiresAt: isoInstant,
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

// ---- Payments ----

export const paymentSchema = z
  .object({
    id: uuidSchema,
    planId: uuidSchema,
    planName: safeString(),
    amount: z.number().int(),
    currency: safeString(),
    days: z.number().int(),
    status: z.enum(PAYMENT_STATUSES),
    statusReason: safeString().nullable(),
    /** Only on the member's own pending payments; null otherwise. */
    checkoutUrl: safeString().nullable(),
    expiresAt: isoInstant,
    completedAt: isoInstant.nullable(),
    previousExpiresAt: isoInstant.nullable(),
    newExpiresAt: isoInstant.nullable(),
    createdAt: isoInstant,
    /** Admin lists only; `id` is null once the user was deleted (the name is a snapshot). */
    user: z.object({ id: uuidSchema.nullable(), username: safeString() }).optional(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof paymentSchema>;

export const myPaymentsQuerySchema = paginationQuerySchema.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
});

export const adminPaymentListQuerySchema = paginationQuerySchema.extend({
  userId: uuidSchema.optional(),
  planId: uuidSchema.optional(),
  status: z.enum(PAYMENT_STATUSES).optional(),
  from: requestDaySchema.optional(),
  to: requestDaySchema.optional(),
});

export const adminPaymentListSchema = pageOf(paymentSchema).extend({
  /** Completed amounts of the filtered payments, per currency, in minor units. */
  summary: z.object({ completedAmountByCurrency: z.record(safeString(), z.number().int()) }),
});
export type AdminPaymentList = z.infer<typeof adminPaymentListSchema>;

export const paymentWebhookEventSchema = z.object({
  eventId: safeString(),
  type: safeString(),
  status: z.enum(WEBHOOK_EVENT_STATUSES),
  attempts: z.number().int(),
  error: safeString().nullable(),
  receivedAt: isoInstant,
});
export type PaymentWebhookEvent = z.infer<typeof paymentWebhookEventSchema>;

export const adminPaymentDetailSchema = paymentSchema.extend({
  webhookEvents: z.array(paymentWebhookEventSchema),
});
export type AdminPaymentDetail = z.infer<typeof adminPaymentDetailSchema>;

export const stripeWebhookReplySchema = z.object({ received: z.literal(true) });
