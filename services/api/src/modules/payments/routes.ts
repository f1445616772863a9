import {
  adminPaymentDetailSchema,
  adminPaymentListQuerySchema,
  adminPaymentListSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  createPlanSchema,
  memberPlansSchema,
  myPaymentsQuerySchema,
  pageOf,
  paymentSchema,
  planListQuerySchema,
  planOrderSchema,
  planSchema,
  reorderPlansSchema,
  stripeWebhookReplySchema,
  updatePlanSchema,
  safeString,
} from '@usher/contracts';
import { z } from 'zod';
import { defineRoute, UPSTREAM_ERRORS, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { getMyPayment, getPaymentDetail, listAllPayments, listMyPayments } from './admin.js';
import { checkout } from './checkout.js';
import { createPlan, memberPlans, reorderPlans, updatePlan, withdrawPlan } from './plans.js';
import { listPlans } from './queries.js';
import { receiveStripeEvent } from './webhook.js';

const idParams = z.strictObject({ id: safeString() });

export interface PaymentRouteOptions {
  /** How long a checkout may wait for Stripe (default 25 s); tests shorten it. */
  checkoutDeadlineMs?: number;
}

export function paymentRoutes(ctx: ModuleContext, options: PaymentRouteOptions = {}): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/plans',
      auth: 'user',
      summary: 'Plans on sale, whether they can be bought now, and the checkouts to resume',
      tags: ['payments'],
      responses: { 200: { description: 'Plans', schema: memberPlansSchema } },
      handler: async (c, { auth }) => c.json(await memberPlans(ctx, auth.userId)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/payments/checkout',
      auth: 'user',
      summary: 'Start (or resume) paying for a plan: answers the Stripe Checkout page to open',
      tags: ['payments'],
      request: { body: checkoutRequestSchema },
      responses: { 200: { description: 'Checkout page', schema: checkoutResponseSchema } },
      errors: [
        'PLAN_NOT_FOUND',
        'ACCOUNT_NEVER_EXPIRES',
        'ACCOUNT_NOT_RENEWABLE',
        'RATE_LIMITED',
        'UPSTREAM_REJECTED',
        'CONFLICT',
        ...UPSTREAM_ERRORS,
      ],
      handler: async (c, { body, auth }) =>
        c.json(
          await checkout(ctx, auth.userId, body.planId, {
            deadlineMs: options.checkoutDeadlineMs,
          }),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/payments',
      auth: 'user',
      summary: 'Own payments, newest first',
      tags: ['me'],
      request: { query: myPaymentsQuerySchema },
      responses: { 200: { description: 'Payments', schema: pageOf(paymentSchema) } },
      handler: async (c, { query, auth }) => c.json(await listMyPayments(ctx, auth.userId, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/payments/:id',
      auth: 'user',
      summary: 'One own payment (polled after returning from Stripe)',
      tags: ['me'],
      request: { params: idParams },
      responses: { 200: { description: 'Payment', schema: paymentSchema } },
      errors: ['PAYMENT_NOT_FOUND'],
      handler: async (c, { params, auth }) =>
        c.json(await getMyPayment(ctx, auth.userId, params.id)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/stripe',
      auth: 'webhook',
      summary:
        'Stripe events (raw body, Stripe-Signature, 300 s tolerance): checkout completed, ' +
        'async payment succeeded or failed, expired',
      tags: ['webhooks'],
      responses: { 200: { description: 'Received', schema: stripeWebhookReplySchema } },
      errors: [
        'WEBHOOK_SIGNATURE_INVALID',
        'WEBHOOK_PAYLOAD_INVALID',
        'PAYLOAD_TOO_LARGE',
        'NOT_CONFIGURED',
        'INTERNAL_ERROR',
      ],
      handler: async (c, { meta }) =>
        c.json(
          await receiveStripeEvent(
            ctx,
            // The raw bytes: the signature covers them exactly, so never parse and re-serialise.
            await c.req.text(),
            c.req.header('stripe-signature') ?? '',
            meta,
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/plans',
      auth: 'admin',
      summary: 'Plans, active first in display order; withdrawn ones unless excluded',
      tags: ['payments'],
      request: { query: planListQuerySchema },
      responses: { 200: { description: 'Plans', schema: pageOf(planSchema) } },
      handler: async (c, { query }) => c.json(await listPlans(ctx.db, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/plans',
      auth: 'admin',
      summary: 'Create a plan (price in minor units of its currency)',
      tags: ['payments'],
      request: { body: createPlanSchema },
      responses: { 201: { description: 'Created', schema: planSchema } },
      handler: async (c, { body, ...caller }) => c.json(await createPlan(ctx, body, caller), 201),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/admin/plans/order',
      auth: 'admin',
      summary:
        'Reorder the plans on sale: every active plan id once, in display order (one ' +
        'transaction; positions become 1..n, withdrawn plans keep theirs)',
      tags: ['payments'],
      request: { body: reorderPlansSchema },
      responses: { 200: { description: 'The plans on sale in order', schema: planOrderSchema } },
      errors: ['PLAN_ORDER_MISMATCH'],
      handler: async (c, { body, ...caller }) => c.json(await reorderPlans(ctx, body.ids, caller)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/admin/plans/:id',
      auth: 'admin',
      summary:
        'Edit a plan; isActive:false withdraws it (its pending payments and their Stripe ' +
        'sessions expire). Pending payments keep their price snapshot',
      tags: ['payments'],
      request: { params: idParams, body: updatePlanSchema },
      responses: { 200: { description: 'Updated', schema: planSchema } },
      errors: ['PLAN_NOT_FOUND'],
      handler: async (c, { params, body, ...caller }) =>
        c.json(await updatePlan(ctx, params.id, body, caller)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/admin/plans/:id',
      auth: 'admin',
      summary: 'Withdraw a plan (never deleted: payments keep pointing at it)',
      tags: ['payments'],
      request: { params: idParams },
      responses: { 200: { description: 'Withdrawn', schema: planSchema } },
      errors: ['PLAN_NOT_FOUND'],
      handler: async (c, { params, ...caller }) =>
        c.json(await withdrawPlan(ctx, params.id, caller)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/payments',
      auth: 'admin',
      summary: 'Payments with filters, newest first, and completed totals per currency',
      tags: ['payments'],
      request: { query: adminPaymentListQuerySchema },
      responses: { 200: { description: 'Payments', schema: adminPaymentListSchema } },
      handler: async (c, { query }) => c.json(await listAllPayments(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/payments/:id',
      auth: 'admin',
      summary: 'One payment with the Stripe events received for it',
      tags: ['payments'],
      request: { params: idParams },
      responses: { 200: { description: 'Payment', schema: adminPaymentDetailSchema } },
      errors: ['PAYMENT_NOT_FOUND'],
      handler: async (c, { params }) => c.json(await getPaymentDetail(ctx, params.id)),
    }),
  ];
}
