// SQL of the payments module (database handle first). Row → DTO mappers live here too, so every
// route renders a plan or a payment the same way.
import type { Payment, Plan, PaymentWebhookEvent } from '@usher/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  isNull,
  lt,
  lte,
  or,
  sql,
  sum,
  type SQL,
} from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.js';
import {
  paymentWebhookEvents,
  payments,
  plans,
  type PaymentRow,
  type PlanRow,
} from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import { tablePage } from '../../db/paging.js';
export { userRow as findUser } from '../../db/users.js';

type Reader = Pick<Database, 'select' | 'execute'>;

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    days: row.days,
    price: row.price,
    currency: row.currency as Plan['currency'],
    isActive: row.isActive,
    sortOrder: row.sortOrder,
    maxStreams: row.maxStreams,
    createdAt: row.createdAt.toISOString(),
  };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * A payment as its owner or an admin sees it. `checkoutUrl` is shown only to the owner, and only
 * while the payment can still be paid.
 */
export function toPayment(
  row: PaymentRow,
  view: { owner: boolean; admin: boolean; now: Date },
): Payment {
  const resumable =
    view.owner && row.status === 'pending' && row.expiresAt.getTime() > view.now.getTime();
  return {
    id: row.id,
    planId: row.planId,
    planName: row.planName,
    amount: row.amount,
    currency: row.currency,
    days: row.days,
    status: row.status as Payment['status'],
    statusReason: row.statusReason,
    checkoutUrl: resumable ? row.checkoutUrl : null,
    expiresAt: row.expiresAt.toISOString(),
    completedAt: iso(row.completedAt),
    previousExpiresAt: iso(row.previousExpiresAt),
    newExpiresAt: iso(row.newExpiresAt),
    createdAt: row.createdAt.toISOString(),
    ...(view.admin ? { user: { id: row.userId, username: row.username } } : {}),
  };
}

export async function findPlan(db: Reader, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row;
}

/** Display order: sort_order ascending, ties by creation (10-data.md §3). */
const planOrder = [asc(plans.sortOrder), asc(plans.createdAt), asc(plans.id)];

export async function listActivePlans(db: Reader): Promise<PlanRow[]> {
  return db
    .select()
    .from(plans)
    .where(eq(plans.isActive, true))
    .orderBy(...planOrder);
}

/** The plans on sale, locked until the transaction ends (a reorder compares and rewrites them). */
export async function lockActivePlans(tx: Database): Promise<PlanRow[]> {
  return tx
    .select()
    .from(plans)
    .where(eq(plans.isActive, true))
    .orderBy(...planOrder)
    .for('update');
}

/** Writes one plan's position (a reorder's step; the caller holds the row lock). */
export async function setPlanOrder(tx: Database, id: string, sortOrder: number, now: Date) {
  await tx.update(plans).set({ sortOrder, updatedAt: now }).where(eq(plans.id, id));
}

export async function hasActivePlan(db: Reader): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(plans).where(eq(plans.isActive, true));
  return (row?.n ?? 0) > 0;
}

export function listPlans(
  db: Database,
  query: { includeInactive: boolean; page: number; pageSize: number },
) {
  const where = query.includeInactive ? undefined : eq(plans.isActive, true);
  return tablePage(
    db,
    query,
    plans,
    { where, order: [desc(plans.isActive), ...planOrder] },
    toPlan,
  );
}

export async function findPayment(db: Reader, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

/** The caller's payments that can still be paid (`GET /plans` → `pending`). */
export async function resumablePayments(db: Reader, userId: string, now: Date) {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.status, 'pending'),
        gt(payments.expiresAt, now),
        sql`${payments.checkoutUrl} is not null`,
      ),
    )
    .orderBy(desc(payments.createdAt));
}

export interface PaymentFilter {
  userId?: string;
  planId?: string;
  status?: Payment['status'];
  /** Inclusive start and exclusive end of the creation window. */
  from?: Date;
  to?: Date;
}

function paymentWhere(filter: PaymentFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.userId) parts.push(eq(payments.userId, filter.userId));
  if (filter.planId) parts.push(eq(payments.planId, filter.planId));
  if (filter.status) parts.push(eq(payments.status, filter.status));
  if (filter.from) parts.push(gte(payments.createdAt, filter.from));
  if (filter.to) parts.push(lt(payments.createdAt, filter.to));
  return parts.length ? and(...parts) : undefined;
}

export function listPayments(
  db: Database,
  filter: PaymentFilter,
  page: { page: number; pageSize: number },
  view: { owner: boolean; admin: boolean; now: Date },
) {
  const where = paymentWhere(filter);
  const order = [desc(payments.createdAt), desc(payments.id)];
  return tablePage(db, page, payments, { where, order }, (r) => toPayment(r, view));
}

/** Completed amounts of the filtered payments per currency, in minor units. */
export async function completedTotals(
  db: Reader,
  filter: PaymentFilter,
): Promise<Record<string, number>> {
  const rows = await db
    .select({ currency: payments.currency, total: sum(payments.amount) })
    .from(payments)
    .where(and(paymentWhere(filter), eq(payments.status, 'completed')))
    .groupBy(payments.currency)
    .orderBy(asc(payments.currency));
  return Object.fromEntries(rows.map((r) => [r.currency, Number(r.total ?? 0)]));
}

export async function eventsOfPayment(
  db: Reader,
  paymentId: string,
): Promise<PaymentWebhookEvent[]> {
  const rows = await db
    .select()
    .from(paymentWebhookEvents)
    .where(eq(paymentWebhookEvents.paymentId, paymentId))
    .orderBy(asc(paymentWebhookEvents.receivedAt), asc(paymentWebhookEvents.eventId));
  return rows.map((r) => ({
    eventId: r.eventId,
    type: r.type,
    status: r.status as PaymentWebhookEvent['status'],
    attempts: r.attempts,
    error: r.error,
    receivedAt: r.receivedAt.toISOString(),
  }));
}

/**
 * Pending payments whose window has passed, marked expired; returns their Stripe sessions so
 * the caller can expire those too (after the commit). `planId` limits it to one plan (withdraw).
 */
export async function expirePending(
  db: Pick<Database, 'update'>,
  where: { before?: Date; planId?: string; userId?: string },
  reason: string,
  now: Date,
): Promise<{ id: string; sessionId: string | null }[]> {
  const parts: SQL[] = [eq(payments.status, 'pending')];
  if (where.before) parts.push(lte(payments.expiresAt, where.before));
  if (where.planId) parts.push(eq(payments.planId, where.planId));
  if (where.userId) parts.push(eq(payments.userId, where.userId));
  return db
    .update(payments)
    .set({ status: 'expired', statusReason: reason, updatedAt: now })
    .where(and(...parts))
    .returning({ id: payments.id, sessionId: payments.providerSessionId });
}

// ----- plans (plans.ts)

export async function insertPlan(tx: Tx, values: typeof plans.$inferInsert): Promise<PlanRow> {
  const [row] = await tx.insert(plans).values(values).returning();
  return row!;
}

export async function lockPlan(tx: Tx, id: string): Promise<PlanRow | undefined> {
  const [row] = await tx.select().from(plans).where(eq(plans.id, id)).for('update');
  return row;
}

export async function updatePlanRow(
  tx: Tx,
  id: string,
  patch: Partial<typeof plans.$inferInsert>,
  now: Date,
): Promise<PlanRow> {
  const [row] = await tx
    .update(plans)
    .set({ ...patch, updatedAt: now })
    .where(eq(plans.id, id))
    .returning();
  return row!;
}

// ----- checkout (checkout.ts)

/**
 * A new pending payment; undefined when the member already has one for the plan (the only
 * possible conflict is the pending-per-user+plan index).
 */
export async function insertPendingPayment(
  tx: Tx,
  values: typeof payments.$inferInsert,
): Promise<PaymentRow | undefined> {
  const [row] = await tx.insert(payments).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findPendingPayment(
  tx: Tx,
  userId: string,
  planId: string,
): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(
      and(eq(payments.userId, userId), eq(payments.planId, planId), eq(payments.status, 'pending')),
    );
  return row;
}

/** Stores the session on a payment still pending and without another session; else undefined. */
export async function storeCheckoutSession(
  db: Database,
  paymentId: string,
  session: { id: string; url: string },
  now: Date,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .update(payments)
    .set({ providerSessionId: session.id, checkoutUrl: session.url, updatedAt: now })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, 'pending'),
        or(isNull(payments.providerSessionId), eq(payments.providerSessionId, session.id)),
      ),
    )
    .returning();
  return row;
}

/** A pending payment without a session is marked expired (Stripe refused to open one). */
export async function abandonPayment(
  db: Database,
  paymentId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .update(payments)
    .set({ status: 'expired', statusReason: reason, updatedAt: now })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, 'pending'),
        isNull(payments.providerSessionId),
      ),
    );
}

// ----- the Stripe webhook (webhook.ts)

/**
 * Upserts a delivery's event row (a repeat counts an attempt) and returns its status; the row
 * lock makes concurrent deliveries of one event wait for each other.
 */
export async function claimWebhookEvent(
  tx: Tx,
  event: { id: string; type: string; livemode: boolean },
  receivedAt: Date,
): Promise<string> {
  const [seen] = await queryRows<{ status: string }>(
    tx,
    sql`insert into payment_webhook_events
          (event_id, provider, type, livemode, status, attempts, received_at)
        values (${event.id}, 'stripe', ${event.type}, ${event.livemode}, 'received', 1,
          ${receivedAt.toISOString()})
        on conflict (event_id) do update
          set attempts = payment_webhook_events.attempts + 1, received_at = excluded.received_at
        returning status`,
  );
  return seen!.status;
}

export async function finishWebhookEvent(
  tx: Tx,
  eventId: string,
  outcome: { status: string; paymentId: string | null; error: string | null },
  processedAt: Date,
): Promise<void> {
  await tx
    .update(paymentWebhookEvents)
    .set({
      status: outcome.status,
      paymentId: outcome.paymentId,
      error: outcome.error?.slice(0, 500) ?? null,
      processedAt,
    })
    .where(eq(paymentWebhookEvents.eventId, eventId));
}

/** A delivery whose processing failed (its own statement, after the rollback). */
export async function recordWebhookFailure(
  db: Database,
  event: { id: string; type: string; livemode: boolean },
  message: string,
  receivedAt: Date,
): Promise<void> {
  await db.execute(
    sql`insert into payment_webhook_events
          (event_id, provider, type, livemode, status, attempts, error, received_at)
        values (${event.id}, 'stripe', ${event.type}, ${event.livemode}, 'failed', 1, ${message},
          ${receivedAt.toISOString()})
        on conflict (event_id) do update
          set status = 'failed', error = excluded.error, received_at = excluded.received_at,
            attempts = payment_webhook_events.attempts + 1
          where payment_webhook_events.status in ('received', 'failed')`,
  );
}

/** Locks the payment and re-reads it. */
export async function lockPayment(tx: Tx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

export async function updatePayment(
  tx: Tx,
  id: string,
  values: Partial<typeof payments.$inferInsert>,
): Promise<PaymentRow> {
  const [row] = await tx.update(payments).set(values).where(eq(payments.id, id)).returning();
  return row!;
}
