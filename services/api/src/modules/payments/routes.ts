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
import { UPSTREAM_ERRORS, type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { getMyPayment, getPaymentDetail, listAllPayments, listMyPayments } from './admin.js';
import { checkout } from './checkout.js';
import { createPlan, memberPlans, reorderPlans, updatePlan, withdrawPlan } from './plans.js';
import { listPlans } from './queries.js';
import { receiveStripeEvent } from './webhook.js';

const api = routeGroup('payments');

const idParams = z.strictObject({ id: safeString() });

export interface PaymentRouteOptions {
  /** How long a checkout may wait for Stripe (default 25 s); tests shorten it. */
  checkoutDeadlineMs?: number;
}

export function paymentRoutes(ctx: ModuleContext, options: PaymentRouteOptions = {}): RouteDef[] {
  return [
    api.user.get('/api/v1/plans', {
      summary: 'Plans on sale, whether they can be bought now, and the checkouts to resume',
      responses: { 200: { description: 'Plans', schema: memberPlansSchema } },
      json: ({ auth }) => memberPlans(ctx, auth.userId),
    }),
    api.user.post('/api/v1/payments/checkout', {
      summary: 'Start (or resume) paying for a plan: answers the Stripe Checkout page to open',
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
    api.user.get('/api/v1/me/payments', {
      summary: 'Own payments, newest first',
      tags: ['me'],
      request: { query: myPaymentsQuerySchema },
      responses: { 200: { description: 'Payments', schema: pageOf(paymentSchema) } },
      json: ({ query, auth }) => listMyPayments(ctx, auth.userId, query),
    }),
    api.user.get('/api/v1/me/payments/:id', {
      summary: 'One own payment (polled after returning from Stripe)',
      tags: ['me'],
      request: { params: idParams },
      responses: { 200: { description: 'Payment', schema: paymentSchema } },
      errors: ['PAYMENT_NOT_FOUND'],
      json: ({ params, auth }) => getMyPayment(ctx, auth.userId, params.id),
    }),
    api.webhook.post('/api/v1/webhooks/stripe', {
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
    api.admin.get('/api/v1/admin/plans', {
      summary: 'Plans, active first in display order; withdrawn ones unless excluded',
      request: { query: planListQuerySchema },
      responses: { 200: { description: 'Plans', schema: pageOf(planSchema) } },
      json: ({ query }) => listPlans(ctx.db, query),
    }),
    api.admin.post('/api/v1/admin/plans', {
      summary: 'Create a plan (price in minor units of its currency)',
      request: { body: createPlanSchema },
      responses: { 201: { description: 'Created', schema: planSchema } },
      handler: async (c, { body, ...caller }) => c.json(await createPlan(ctx, body, caller), 201),
    }),
    api.admin.put('/api/v1/admin/plans/order', {
      summary:
        'Reorder the plans on sale: every active plan id once, in display order (one ' +
        'transaction; positions become 1..n, withdrawn plans keep theirs)',
      request: { body: reorderPlansSchema },
      responses: { 200: { description: 'The plans on sale in order', schema: planOrderSchema } },
      errors: ['PLAN_ORDER_MISMATCH'],
      json: ({ body, ...caller }) => reorderPlans(ctx, body.ids, caller),
    }),
    api.admin.patch('/api/v1/admin/plans/:id', {
      summary:
        'Edit a plan; isActive:false withdraws it (its pending payments and their Stripe ' +
        'sessions expire). Pending payments keep their price snapshot',
      request: { params: idParams, body: updatePlanSchema },
      responses: { 200: { description: 'Updated', schema: planSchema } },
      errors: ['PLAN_NOT_FOUND'],
      json: ({ params, body, ...caller }) => updatePlan(ctx, params.id, body, caller),
    }),
    api.admin.delete('/api/v1/admin/plans/:id', {
      summary: 'Withdraw a plan (never deleted: payments keep pointing at it)',
      request: { params: idParams },
      responses: { 200: { description: 'Withdrawn', schema: planSchema } },
      errors: ['PLAN_NOT_FOUND'],
      json: ({ params, ...caller }) => withdrawPlan(ctx, params.id, caller),
    }),
    api.admin.get('/api/v1/admin/payments', {
      summary: 'Payments with filters, newest first, and completed totals per currency',
      request: { query: adminPaymentListQuerySchema },
      responses: { 200: { description: 'Payments', schema: adminPaymentListSchema } },
      json: ({ query }) => listAllPayments(ctx, query),
    }),
    api.admin.get('/api/v1/admin/payments/:id', {
      summary: 'One payment with the Stripe events received for it',
      request: { params: idParams },
      responses: { 200: { description: 'Payment', schema: adminPaymentDetailSchema } },
      errors: ['PAYMENT_NOT_FOUND'],
      json: ({ params }) => getPaymentDetail(ctx, params.id),
    }),
  ];
}
