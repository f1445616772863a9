import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';
import { users } from '../users/table.js';
import type { SharingAction, SharingEventStatus, SharingRule } from './constants.js';

export * from './constants.js';

/**
 * What `sharing_watch` saw (docs/sharing.md): one row per stream of a member from one device at
 * one address, open (`ended_at` null) while the media server lists it playing. The same device
 * reconnecting from the same address continues its row, whatever session id it gets.
 */
export const sharingObservations = pgTable(
  'sharing_observations',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The media server's session id when last seen (what a message or stop is sent to). */
    sessionId: text('session_id').notNull(),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name'),
    client: text('client'),
    address: text('address').notNull(),
    /** An IPv4 address, an IPv6 /64 (`2001:db8:1:2::/64`), or `home` for private addresses. */
    network: text('network').notNull(),
    home: boolean('home').notNull(),
    city: text('city'),
    /** ISO 3166-1 alpha-2. */
    country: text('country'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    itemName: text('item_name'),
    startedAt: instant('started_at').notNull(),
    lastSeenAt: instant('last_seen_at').notNull(),
    endedAt: instant('ended_at'),
  },
  (t) => [
    index('sharing_observations_user_seen_idx').on(t.userId, t.lastSeenAt.desc()),
    index('sharing_observations_open_idx')
      .on(t.userId)
      .where(sql`${t.endedAt} is null`),
    // One open row per stream: two replicas seeing the same new stream in one tick insert it once.
    uniqueIndex('sharing_observations_live_key')
      .on(t.userId, t.deviceId, t.address)
      .where(sql`${t.endedAt} is null`),
    index('sharing_observations_ended_idx').on(t.endedAt),
  ],
);
export type SharingObservationRow = typeof sharingObservations.$inferSelect;

/**
 * One per member, rule and cooldown hour (docs/sharing.md): the unique index is what makes two
 * replicas, or two ticks in one hour, record one event and act once.
 */
export const sharingEvents = pgTable(
  'sharing_events',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rule: text('rule').$type<SharingRule>().notNull(),
    /** The hour the event was detected in, truncated: the cooldown key. */
    cooldownHour: instant('cooldown_hour').notNull(),
    detectedAt: instant('detected_at').notNull(),
    /** Sessions, addresses, networks, devices and places that made the rule fire. */
    evidence: jsonb('evidence').notNull(),
    /** The action `SHARING_ACTION` named when the event was recorded. */
    action: text('action').$type<SharingAction>().notNull(),
    status: text('status').$type<SharingEventStatus>().notNull().default('open'),
    /** The action carried out (by the job or an admin's `act`), when it was, and by whom. */
    actionTaken: text('action_taken').$type<SharingAction>(),
    actionedAt: instant('actioned_at'),
    actionedBy: uuid('actioned_by').references(() => users.id, { onDelete: 'set null' }),
    /** Why the last attempt at the action failed (upstream words, never a secret). */
    actionError: text('action_error'),
    dismissedAt: instant('dismissed_at'),
    dismissedBy: uuid('dismissed_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('sharing_events_member_rule_hour_uq').on(t.userId, t.rule, t.cooldownHour),
    index('sharing_events_status_detected_idx').on(t.status, t.detectedAt.desc()),
    index('sharing_events_user_detected_idx').on(t.userId, t.detectedAt.desc()),
    check('sharing_events_rule_ck', sql`${t.rule} in ('streams', 'networks', 'devices', 'travel')`),
    check('sharing_events_action_ck', sql`${t.action} in ('notify', 'message', 'stop', 'suspend')`),
    check(
      'sharing_events_action_taken_ck',
      sql`${t.actionTaken} is null or ${t.actionTaken} in ('notify', 'message', 'stop', 'suspend')`,
    ),
    check('sharing_events_status_ck', sql`${t.status} in ('open', 'actioned', 'dismissed')`),
    check('sharing_events_note_len_ck', sql`${t.note} is null or char_length(${t.note}) <= 500`),
  ],
);
export type SharingEventRow = typeof sharingEvents.$inferSelect;
