import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';

/**
 * Usher's indexed copy of the Playback Reporting plugin's `PlaybackActivity` (issue 33,
 * docs/media.md "The plays copy"): the plugin's SQLite has no index, so every playback page read
 * there scanned two million rows. Filled by the `playback_sync` job from the plugin's rowid;
 * `played_at` is the plugin's server-local `DateCreated` converted to UTC once, at sync time.
 * Kept `PLAYS_RETENTION_DAYS` by `cleanup`.
 */
export const playbackPlays = pgTable(
  'playback_plays',
  {
    /**
     * The key `cleanup` deletes by. A uuid made by the database, like every other table's key, so
     * a backup restores it as is (an identity column would refuse the restored value, and a
     * sequence would not be moved past it).
     */
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** The plugin row's rowid when it was copied (the sync's cursor; not a key: a rebuilt plugin table reuses them). */
    sourceRowid: bigint('source_rowid', { mode: 'number' }).notNull(),
    playedAt: instant('played_at').notNull(),
    /** Lower-cased, as the playback pages compare it with `users.media_user_id`. */
    mediaUserId: text('media_user_id').notNull(),
    itemId: text('item_id').notNull(),
    itemType: text('item_type').notNull(),
    itemName: text('item_name').notNull(),
    /** `DirectPlay`, `DirectStream`, `Transcode` or `unknown` (the plugin's text by prefix). */
    playMethod: text('play_method').notNull(),
    client: text('client').notNull(),
    device: text('device').notNull(),
    /** `PlayDuration`, negative or unreadable as 0. */
    seconds: integer('seconds').notNull(),
  },
  (t) => [
    // The idempotence key of the upsert, and the date index of every range read (history pages
    // newest first by scanning it backwards; the summary's and profiles' ranges).
    uniqueIndex('playback_plays_key_uq').on(t.playedAt, t.mediaUserId, t.itemId),
    // A member's plays in a range: the portrait, history by user, the profiles page's users.
    index('playback_plays_user_at_idx').on(t.mediaUserId, t.playedAt),
    // An item's plays (rankings and quality look-ups by item).
    index('playback_plays_item_at_idx').on(t.itemId, t.playedAt),
  ],
);
export type PlaybackPlayRow = typeof playbackPlays.$inferSelect;
export type NewPlaybackPlayRow = typeof playbackPlays.$inferInsert;

/**
 * Where the sync stands (one row, `source = 'plugin'`): the last plugin rowid copied, and when the
 * first pass reached the plugin's last row — until then the playback pages read the plugin.
 */
export const playbackSync = pgTable('playback_sync', {
  source: text('source').primaryKey(),
  cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
  /** Rows copied in all (upserts, so a row read twice counts twice). */
  rowsCopied: bigint('rows_copied', { mode: 'number' }).notNull().default(0),
  backfilledAt: instant('backfilled_at'),
  syncedAt: instant('synced_at'),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});
export type PlaybackSyncRow = typeof playbackSync.$inferSelect;
