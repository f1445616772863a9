import { sql } from 'drizzle-orm';
import { char, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant, ownerId, timestamps } from '../columns.js';
import { users } from '../users/table.js';

/** Codes that grant membership days at registration or renewal (10-data.md §2). */
export const redeemCodes = pgTable(
  'redeem_codes',
  {
    id: uuid('id').primaryKey(),
    code: char('code', { length: 16 }).notNull(),
    maxUses: integer('max_uses').notNull().default(1),
    usedCount: integer('used_count').notNull().default(0),
    days: integer('days').notNull(),
    expiresAt: instant('expires_at'),
    notes: text('notes').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('redeem_codes_code_uq').on(t.code),
    // `desc` indexes are written `nulls first`, as `order by … desc` reads (issue 33).
    index('redeem_codes_created_at_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('redeem_codes_max_uses_ck', sql`${t.maxUses} between 1 and 10000`),
    check('redeem_codes_used_count_ck', sql`${t.usedCount} between 0 and ${t.maxUses}`),
    check('redeem_codes_days_ck', sql`${t.days} between 1 and 3650`),
    check('redeem_codes_notes_len_ck', sql`char_length(${t.notes}) <= 500`),
    check('redeem_codes_code_ck', sql`${t.code} ~ '^[0-9A-F]{16}$'`),
  ],
);
export type RedeemCodeRow = typeof redeemCodes.$inferSelect;

/** Each use of a code: a user uses a given code once (10-data.md §2). */
export const redemptions = pgTable(
  'redemptions',
  {
    id: uuid('id').primaryKey(),
    userId: ownerId('user_id', () => users.id),
    codeId: uuid('code_id').references(() => redeemCodes.id, { onDelete: 'set null' }),
    code: char('code', { length: 16 }).notNull(),
    kind: text('kind').notNull(),
    days: integer('days').notNull(),
    previousExpiresAt: instant('previous_expires_at'),
    newExpiresAt: instant('new_expires_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('redemptions_user_code_uq').on(t.userId, t.code),
    index('redemptions_code_id_idx').on(t.codeId),
    index('redemptions_created_at_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('redemptions_kind_ck', sql`${t.kind} in ('register', 'renew')`),
  ],
);
export type RedemptionRow = typeof redemptions.$inferSelect;
