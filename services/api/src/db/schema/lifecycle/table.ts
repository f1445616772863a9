import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AnnouncementAudience, NoticeKind, NoticeStatus } from '@usher/contracts/values';
import { instant, ownerId, timestamps } from '../columns.js';
import { users } from '../users/table.js';

/**
 * What a notice is (docs/lifecycle.md): the reminder before the end of a membership, an
 * operator's announcement, or the warning before an expired member's media account is deleted.
 * `sending` while a run delivers it; then `sent`, `failed` (tried again by the next run, three
 * tries in all) or `skipped` (the channel could not reach the member: no address, not linked,
 * opted out, or the channel not configured — recorded, never tried again). Shared with the web
 * through the contracts.
 */
export {
  ANNOUNCEMENT_AUDIENCES,
  type AnnouncementAudience,
  NOTICE_KINDS,
  NOTICE_STATUSES,
  type NoticeKind,
  type NoticeStatus,
} from '@usher/contracts/values';
export const NOTICE_CHANNELS = ['email', 'messenger', 'webhook'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];
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
    userId: ownerId('user_id', () => users.id),
    kind: text('kind').$type<NoticeKind>().notNull(),
    ref: text('ref').notNull(),
    channel: text('channel').$type<NoticeChannel>().notNull(),
    status: text('status').$type<NoticeStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Why it was skipped or failed, in words an operator can act on (never a secret). */
    detail: text('detail'),
    /**
     * The membership end a reminder was about (a copy of `users.expires_at` then); null for an
     * announcement.
     */
    expiresAt: instant('expires_at'),
    /** The `REMINDER_DAYS` threshold a reminder was for. */
    days: integer('days'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('member_notices_uq').on(t.userId, t.kind, t.ref, t.channel),
    index('member_notices_created_idx').on(t.createdAt, t.id),
    index('member_notices_user_idx').on(t.userId, t.createdAt),
    check(
      'member_notices_kind_ck',
      sql`${t.kind} in ('expiry_reminder', 'announcement', 'deletion_warning', 'inactivity_warning', 'sharing_suspension')`,
    ),
    check('member_notices_channel_ck', sql`${t.channel} in ('email', 'messenger', 'webhook')`),
    check('member_notices_status_ck', sql`${t.status} in ('sending', 'sent', 'failed', 'skipped')`),
    check('member_notices_attempts_ck', sql`${t.attempts} between 0 and 3`),
    check('member_notices_days_ck', sql`${t.days} is null or ${t.days} between 1 and 60`),
  ],
);

export type MemberNoticeRow = typeof memberNotices.$inferSelect;

/** The channels an announcement goes out on besides the console, where every recipient sees it. */
export type AnnouncementChannel = 'email' | 'messenger';

/**
 * An operator's message to the community: shown in the console to every recipient until read,
 * and sent on `channels` by the `announcements` job (one `member_notices` row per recipient and
 * channel, `ref` = the announcement's id). `status` is `sending` until a pass of the job finds
 * nothing left to send or retry.
 */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    audience: text('audience').$type<AnnouncementAudience>().notNull(),
    channels: jsonb('channels').$type<AnnouncementChannel[]>().notNull().default([]),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    recipients: integer('recipients').notNull().default(0),
    status: text('status').$type<'sending' | 'done'>().notNull().default('sending'),
    createdAt: instant('created_at').notNull().defaultNow(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    index('announcements_created_idx').on(t.createdAt),
    check(
      'announcements_audience_ck',
      sql`${t.audience} in ('all', 'active', 'expiring', 'expired')`,
    ),
    check('announcements_status_ck', sql`${t.status} in ('sending', 'done')`),
  ],
);

/** The members an announcement was for (fixed when posted), and when each read it. */
export const announcementRecipients = pgTable(
  'announcement_recipients',
  {
    announcementId: ownerId('announcement_id', () => announcements.id),
    userId: ownerId('user_id', () => users.id),
    readAt: instant('read_at'),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.userId] }),
    index('announcement_recipients_user_idx').on(t.userId, t.readAt),
  ],
);

export type AnnouncementRow = typeof announcements.$inferSelect;

/**
 * The grace period after a membership ended (`MEDIA_ACCOUNT_DELETE_AFTER_DAYS`, docs/lifecycle.md):
 * one row per (member, membership end) once the member was warned; `deleted_at` when the media
 * account was deleted. A renewal moves `users.expires_at`, so the row no longer matches and the
 * account is kept.
 */
export const mediaAccountDeletions = pgTable(
  'media_account_deletions',
  {
    userId: ownerId('user_id', () => users.id),
    expiresAt: instant('expires_at').notNull(),
    mediaUserId: text('media_user_id').notNull(),
    warnedAt: instant('warned_at').notNull(),
    deletedAt: instant('deleted_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.expiresAt] })],
);

/**
 * Members without playback for `INACTIVITY_DISABLE_DAYS` (docs/lifecycle.md): warned at
 * `warned_at`, switched off at `disabled_at` seven days later unless they played in between (the
 * row is then removed) or an admin exempted them (`users.inactivity_exempt`).
 */
export const inactivityWatch = pgTable('inactivity_watch', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  warnedAt: instant('warned_at').notNull(),
  disabledAt: instant('disabled_at'),
});
