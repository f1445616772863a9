import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../users/table.js';

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per membership reminder sent (docs/lifecycle.md): a member is reminded once per
 * (membership end, threshold). The row is claimed before anything is sent, so two runs or two
 * replicas never remind twice; a renewal moves `expires_at`, so the next cycle reminds again.
 */
export const membershipReminders = pgTable(
  'membership_reminders',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The membership end the reminder was about (a copy of `users.expires_at` at the time). */
    expiresAt: instant('expires_at').notNull(),
    /** The `REMINDER_DAYS` threshold it was sent for. */
    days: integer('days').notNull(),
    /** Per channel: `sent`, `failed` or `skipped` (`{"email":"sent","messenger":"failed"}`). */
    channels: jsonb('channels').$type<Record<string, string>>().notNull().default({}),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('membership_reminders_uq').on(t.userId, t.expiresAt, t.days),
    index('membership_reminders_created_idx').on(t.createdAt),
    check('membership_reminders_days_ck', sql`${t.days} between 1 and 60`),
  ],
);

export type MembershipReminderRow = typeof membershipReminders.$inferSelect;
