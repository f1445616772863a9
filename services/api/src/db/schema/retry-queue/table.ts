import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant, timestamps } from '../columns.js';
import { users } from '../users/table.js';

/** Media-server calls to retry after Usher already committed its own change (10-data.md §9). */
export const mediaServerRetryQueue = pgTable(
  'media_server_retry_queue',
  {
    id: uuid('id').primaryKey(),
    operation: text('operation').notNull(),
    mediaUserId: text('media_user_id').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    origin: text('origin').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    lastError: text('last_error'),
    ...timestamps(),
  },
  (t) => [
    index('media_retry_due_idx').on(t.status, t.nextAttemptAt),
    // A new access change for the same media user overwrites the pending one.
    uniqueIndex('media_retry_pending_access_uq')
      .on(t.mediaUserId)
      .where(sql`${t.status} = 'pending' and ${t.operation} in ('enable', 'disable')`),
    // A member's failed template write is queued once however often `media_policy_apply` runs.
    uniqueIndex('media_retry_pending_policy_uq')
      .on(t.mediaUserId)
      .where(sql`${t.status} = 'pending' and ${t.operation} = 'policy'`),
    check(
      'media_retry_operation_ck',
      sql`${t.operation} in ('enable', 'disable', 'delete', 'policy')`,
    ),
    check(
      'media_retry_origin_ck',
      sql`${t.origin} in ('register_cleanup', 'renewal', 'expiry', 'admin_access', 'user_delete', 'policy_apply', 'grace_delete', 'inactivity', 'sharing')`,
    ),
    check('media_retry_status_ck', sql`${t.status} in ('pending', 'done', 'gave_up')`),
    check(
      'media_retry_error_len_ck',
      sql`${t.lastError} is null or char_length(${t.lastError}) <= 500`,
    ),
  ],
);
export type RetryRow = typeof mediaServerRetryQueue.$inferSelect;
