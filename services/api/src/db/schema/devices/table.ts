import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';
import { users } from '../users/table.js';

/** Client apps whose devices are signed out on sight (10-data.md `client_blacklist`). */
export const clientBlacklist = pgTable(
  'client_blacklist',
  {
    id: uuid('id').primaryKey(),
    /** As entered, e.g. `Infuse`. */
    clientName: text('client_name').notNull(),
    /** Lowercased, trimmed, inner spaces collapsed; matched exactly against device app names. */
    normalizedName: text('normalized_name').notNull(),
    reason: text('reason').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('client_blacklist_normalized_name_uq').on(t.normalizedName),
    check(
      'client_blacklist_client_name_len_ck',
      sql`char_length(${t.clientName}) between 1 and 100`,
    ),
    check('client_blacklist_reason_len_ck', sql`char_length(${t.reason}) <= 255`),
  ],
);
export type ClientBlacklistRow = typeof clientBlacklist.$inferSelect;

export const DEVICE_ACTIONS = [
  'logout',
  'blacklist_add',
  'blacklist_remove',
  'enforce_blacklist',
] as const;
export type DeviceActionKind = (typeof DEVICE_ACTIONS)[number];

/** The device action log (10-data.md `device_actions`); kept 90 days by `cleanup`. */
export const deviceActions = pgTable(
  'device_actions',
  {
    id: uuid('id').primaryKey(),
    action: text('action').notNull(),
    deviceId: text('device_id'),
    deviceName: text('device_name'),
    clientName: text('client_name'),
    mediaUserId: text('media_user_id'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Null = the scheduled job. */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    outcome: text('outcome').notNull(),
    note: text('note'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    // `desc` indexes are written `nulls first`, as `order by … desc` reads (issue 33).
    index('device_actions_created_at_idx').on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('device_actions_device_id_idx').on(t.deviceId),
    index('device_actions_user_id_idx').on(t.userId),
    check(
      'device_actions_action_ck',
      sql`${t.action} in ('logout', 'blacklist_add', 'blacklist_remove', 'enforce_blacklist')`,
    ),
    check('device_actions_outcome_ck', sql`${t.outcome} in ('ok', 'failed')`),
    check('device_actions_note_len_ck', sql`char_length(${t.note}) <= 500`),
  ],
);
export type DeviceActionRow = typeof deviceActions.$inferSelect;
