// Payment lists: the member's own, and the admin's with filters, totals and webhook events.
import type { AdminPaymentDetail, AdminPaymentList, Payment } from '@usher/contracts';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { nextDay, startOfZonedDay } from '../../time/zoned-day.js';
import type { ModuleContext } from '../context.js';
import {
  completedTotals,
  eventsOfPayment,
  findPayment,
  listPayments,
  toPayment,
  type PaymentFilter,
} from './queries.js';

const paymentNotFound = () => new AppError('PAYMENT_NOT_FOUND', 'No such payment');
const isUuid = (id: string) => z.uuid().safeParse(id).success;

export function listMyPayments(
  ctx: ModuleContext,
  userId: string,
  query: { status?: Payment['status']; page: number; pageSize: number },
) {
  return listPayments(ctx.db, { userId, status: query.status }, query, {
    owner: true,
    admin: false,
    now: ctx.now(),
  });
}

/** `GET /me/payments/:id`: another member's payment is as unknown as a missing one. */
export async function getMyPayment(ctx: ModuleContext, userId: string, id: string) {
  const row = isUuid(id) ? await findPayment(ctx.db, id) : undefined;
  if (!row || row.userId !== userId) throw paymentNotFound();
  return toPayment(row, { owner: true, admin: false, now: ctx.now() });
}

export async function listAllPayments(
  ctx: ModuleContext,
  query: Omit<PaymentFilter, 'from' | 'to'> & {
    from?: string;
    to?: string;
    page: number;
    pageSize: number;
  },
): Promise<AdminPaymentList> {
  const zone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
  const filter: PaymentFilter = {
    userId: query.userId,
    planId: query.planId,
    status: query.status,
    from: query.from ? startOfZonedDay(query.from, zone) : undefined,
    to: query.to ? startOfZonedDay(nextDay(query.to), zone) : undefined,
  };
  const [page, totals] = await Promise.all([
    listPayments(ctx.db, filter, query, { owner: false, admin: true, now: ctx.now() }),
    completedTotals(ctx.db, filter),
  ]);
  return { ...page, summary: { completedAmountByCurrency: totals } };
}

export async function getPaymentDetail(
  ctx: ModuleContext,
  id: string,
): Promise<AdminPaymentDetail> {
  const row = isUuid(id) ? await findPayment(ctx.db, id) : undefined;
  if (!row) throw paymentNotFound();
  return {
    ...toPayment(row, { owner: false, admin: true, now: ctx.now() }),
    webhookEvents: await eventsOfPayment(ctx.db, id),
  };
}
