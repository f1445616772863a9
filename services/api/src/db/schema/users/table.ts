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

/** Members and admins (10-data.md §2). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    /**
     * Whether the owner knows the password: false for accounts created by a single sign-on,
     * whose hash is of a random secret nobody saw, until a password is set (docs/sso.md).
     */
    hasPassword: boolean('has_password').notNull().default(true),
    role: text('role').notNull().default('user'),
    isActive: boolean('is_active').notNull().default(true),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    tokenVersion: integer('token_version').notNull().default(0),
    expiresAt: instant('expires_at'),
    mediaUserId: text('media_user_id'),
    mediaDisabled: boolean('media_disabled').notNull().default(false),
    mediaAccessDisabled: boolean('media_access_disabled').notNull().default(false),
    messengerId: bigint('messenger_id', { mode: 'number' }),
    messengerBoundAt: instant('messenger_bound_at'),
    registeredVia: text('registered_via').notNull(),
    locale: text('locale'),
    /** The member's notice preferences (`/me/notifications`, docs/lifecycle.md): mail, bot. */
    notifyEmail: boolean('notify_email').notNull().default(true),
    notifyMessenger: boolean('notify_messenger').notNull().default(true),
    /** Never switched off for inactivity (`INACTIVITY_DISABLE_DAYS`), by an admin's choice. */
    inactivityExempt: boolean('inactivity_exempt').notNull().default(false),
    /** Never judged by the sharing watch (docs/sharing.md), by an admin's choice. */
    sharingExempt: boolean('sharing_exempt').notNull().default(false),
    /** Media access off until then for account sharing (`SHARING_SUSPEND_HOURS`); access sync restores it. */
    sharingSuspendedUntil: instant('sharing_suspended_until'),
    lastLoginAt: instant('last_login_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_uq')
      .on(t.email)
      .where(sql`${t.email} is not null`),
    uniqueIndex('users_media_user_id_uq')
      .on(t.mediaUserId)
      .where(sql`${t.mediaUserId} is not null`),
    uniqueIndex('users_messenger_id_uq')
      .on(t.messengerId)
      .where(sql`${t.messengerId} is not null`),
    index('users_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.role} = 'user' and ${t.mediaDisabled} = false`),
    // The admin list's sorts exactly as it orders (nulls last, ties by id), so each page is an
    // index walk, not a sort of every matching member (issue 33).
    index('users_created_at_idx').on(t.createdAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('users_expires_at_sort_idx').on(t.expiresAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('users_expires_at_asc_idx').on(t.expiresAt.asc().nullsLast(), t.id.asc()),
    // The members the reminders reach, by the membership's end: `lifecycle/upcoming` walks one
    // range of it per threshold and counts from it without reading the table (issue 33).
    index('users_reminder_idx')
      .on(t.expiresAt.asc().nullsLast(), t.id.asc())
      .where(sql`${t.role} = 'user' and ${t.isActive} and not ${t.mediaAccessDisabled}`),
    index('users_last_login_sort_idx').on(
      t.lastLoginAt.desc().nullsLast(),
      t.id.desc().nullsFirst(),
    ),
    index('users_sharing_suspended_idx')
      .on(t.sharingSuspendedUntil)
      .where(sql`${t.sharingSuspendedUntil} is not null`),
    // Admin user search is a substring match (`ilike '%…%'`, users/queries.ts): trigram indexes
    // answer it without a sequential scan (issue 21). Needs pg_trgm (migration 0006).
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    check('users_role_ck', sql`${t.role} in ('admin', 'user')`),
    check(
      'users_registered_via_ck',
      sql`${t.registeredVia} in ('bootstrap', 'open', 'invite', 'admin')`,
    ),
    check('users_locale_ck', sql`${t.locale} is null or ${t.locale} in ('en', 'zh-CN')`),
    check('users_admin_never_expires_ck', sql`${t.role} = 'user' or ${t.expiresAt} is null`),
    check('users_username_len_ck', sql`char_length(${t.username}) between 3 and 32`),
    check('users_email_len_ck', sql`${t.email} is null or char_length(${t.email}) <= 254`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
