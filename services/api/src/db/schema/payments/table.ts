import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant, timestamps } from '../columns.js';
import { PLAN_CURRENCIES } from '@usher/contracts/values';
import { users } from '../users/table.js';

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** What members can buy (10-data.md §3). Never hard-deleted: withdrawn = `is_active=false`. */
export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    days: integer('days').notNull(),
    /** Minor units of `currency` (cents; whole yen; fils). */
    price: bigint('price', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Streams at once a member of this plan may play (docs/sharing.md); null = `SHARING_MAX_STREAMS`. */
    maxStreams: integer('max_streams'),
    ...timestamps(),
  },
  (t) => [
    index('plans_active_sort_idx').on(t.isActive, t.sortOrder),
    check('plans_name_len_ck', sql`char_length(${t.name}) between 1 and 60`),
    check('plans_description_len_ck', sql`char_length(${t.description}) <= 500`),
    check('plans_days_ck', sql`${t.days} between 1 and 3650`),
    check(
      'plans_max_streams_ck',
      sql`${t.maxStreams} is null or ${t.maxStreams} between 1 and 100`,
    ),
    check('plans_price_ck', sql`${t.price} between 1 and 99999999`),
    check('plans_currency_ck', sql`${t.currency} in (${quoted(PLAN_CURRENCIES)})`),
  ],
);
export type PlanRow = typeof plans.$inferSelect;

/** One checkout of a plan by a member, with snapshots of what was bought (10-data.md §3). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    username: text('username').notNull(),
    planName: text('plan_name').notNull(),
    provider: text('provider').notNull().default('stripe'),
    providerSessionId: text('provider_session_id'),
    paymentIntent: text('payment_intent'),
    checkoutUrl: text('checkout_url'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    days: integer('days').notNull(),
    status: text('status').notNull().default('pending'),
    statusReason: text('status_reason'),
    expiresAt: instant('expires_at').notNull(),
    completedAt: instant('completed_at'),
    previousExpiresAt: instant('previous_expires_at'),
    newExpiresAt: instant('new_expires_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('payments_provider_session_uq')
      .on(t.providerSessionId)
      .where(sql`${t.providerSessionId} is not null`),
    uniqueIndex('payments_pending_user_plan_uq')
      .on(t.userId, t.planId)
      .where(sql`${t.status} = 'pending'`),
    // `desc` indexes are written `nulls first`, as `order by … desc` reads (issue 33).
    index('payments_user_created_idx').on(
      t.userId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('payments_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('payments_status_created_idx').on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Revenue by month on the admin dashboard (issue 36): completed payments by completion.
    index('payments_completed_at_idx')
      .on(t.completedAt)
      .where(sql`${t.status} = 'completed'`),
    index('payments_pending_expiry_idx')
      .on(t.status, t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
    check('payments_status_ck', sql`${t.status} in ('pending', 'completed', 'expired', 'failed')`),
    check('payments_provider_ck', sql`${t.provider} in ('stripe')`),
    check('payments_status_reason_len_ck', sql`char_length(${t.statusReason}) <= 500`),
  ],
);
export type PaymentRow = typeof payments.$inferSelect;

/** Every Stripe event seen, keyed by its id: the dedupe table of the webhook (10-data.md §3). */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    eventId: text('event_id').primaryKey(),
    provider: text('provider').notNull().default('stripe'),
    type: text('type').notNull(),
    livemode: boolean('livemode').notNull(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('received'),
    attempts: integer('attempts').notNull().default(1),
    error: text('error'),
    receivedAt: instant('received_at').notNull(),
    processedAt: instant('processed_at'),
  },
  (t) => [
    index('payment_webhook_events_payment_idx').on(t.paymentId),
    index('payment_webhook_events_received_idx').on(t.receivedAt),
    check(
      'payment_webhook_events_status_ck',
      sql`${t.status} in ('received', 'processed', 'skipped', 'failed')`,
    ),
    check('payment_webhook_events_error_len_ck', sql`char_length(${t.error}) <= 500`),
  ],
);
export type PaymentWebhookEventRow = typeof paymentWebhookEvents.$inferSelect;
