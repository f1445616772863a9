import { sql } from 'drizzle-orm';
import {
  boolean,
  char,
  check,
  index,
  inet,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';
import { users } from '../users/table.js';

/** One live 6-digit code per user for binding a Telegram account (10-data.md §2). */
export const messengerBindCodes = pgTable(
  'messenger_bind_codes',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: char('code', { length: 6 }).notNull(),
    expiresAt: instant('expires_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('messenger_bind_codes_code_uq').on(t.code)],
);

/** Emailed verification codes for registration, password reset and email change. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: uuid('id').primaryKey(),
    purpose: text('purpose').notNull(),
    email: text('email').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    code: char('code', { length: 6 }).notNull(),
    sent: boolean('sent').notNull(),
    ip: inet('ip').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: instant('expires_at').notNull(),
    consumedAt: instant('consumed_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('email_codes_email_idx').on(t.email, t.purpose, t.createdAt.desc()),
    index('email_codes_ip_idx').on(t.ip, t.purpose, t.createdAt.desc()),
    check('email_codes_purpose_ck', sql`${t.purpose} in ('register', 'reset', 'change_email')`),
  ],
);
