import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../users/table.js';

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** What a notice is (docs/lifecycle.md): the reminder before the end of a membership. */
export const NOTICE_KINDS = ['expiry_reminder'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NOTICE_CHANNELS = ['email', 'messenger', 'webhook'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];
/**
 * `sending` while a run delivers it; then `sent`, `failed` (tried again by the next run, three
 * tries in all) or `skipped` (the channel could not reach the member: no address, not linked,
 * opted out, or the channel not configured — recorded, never tried again).
 */
export const NOTICE_STATUSES = ['sending', 'sent', 'failed', 'skipped'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
/** Tries of one notice on one channel before it stays `failed`. */
export const NOTICE_MAX_ATTEMPTS = 3;

/**
 * One row per (member, notice, channel) (docs/lifecycle.md): the claim that makes a notice go
 * out once per channel across runs, reruns, restarts and replicas. A row is written before the
 * notice is sent (`sending`), so a second run finds it taken; `ref` names what the notice is
 * about — for a reminder the membership end and the threshold (`2026-03-10T00:00:00.000Z/7`) —
 * so a renewal, which moves the end, starts a new cycle and leaves the old one's rows unsent.
 */
export const memberNotices = pgTable(
  'member_notices',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NoticeKind>().notNull(),
    ref: text('ref').notNull(),
    channel: text('channel').$type<NoticeChannel>().notNull(),
    status: text('status').$type<NoticeStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Why it was skipped or failed, in words an operator can act on (never a secret). */
    detail: text('detail'),
    /** The membership end the notice was about (a copy of `users.expires_at` then). */
    expiresAt: instant('expires_at'),
    /** The `REMINDER_DAYS` threshold a reminder was for. */
    days: integer('days'),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('member_notices_uq').on(t.userId, t.kind, t.ref, t.channel),
    index('member_notices_created_idx').on(t.createdAt),
    index('member_notices_user_idx').on(t.userId, t.createdAt),
    check('member_notices_kind_ck', sql`${t.kind} in ('expiry_reminder')`),
    check('member_notices_channel_ck', sql`${t.channel} in ('email', 'messenger', 'webhook')`),
    check('member_notices_status_ck', sql`${t.status} in ('sending', 'sent', 'failed', 'skipped')`),
    check('member_notices_attempts_ck', sql`${t.attempts} between 0 and 3`),
    check('member_notices_days_ck', sql`${t.days} is null or ${t.days} between 1 and 60`),
  ],
);

export type MemberNoticeRow = typeof memberNotices.$inferSelect;
