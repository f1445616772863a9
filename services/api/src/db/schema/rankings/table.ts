import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  integer,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant, ownerId } from '../columns.js';
import { users } from '../users/table.js';

/** A calendar day in the business timezone, kept as `YYYY-MM-DD` (never converted to an instant). */
const day = (name: string) => date(name, { mode: 'string' });

/**
 * One stored ranking of a period (10-data.md `ranking_batches`); regenerating a period replaces
 * its batch in one transaction. Kept 400 days by `cleanup`.
 */
export const rankingBatches = pgTable(
  'ranking_batches',
  {
    id: uuid('id').primaryKey(),
    period: text('period').notNull(),
    /** The day itself (daily) or Monday (weekly), in `timezone`. */
    periodStart: day('period_start').notNull(),
    /** The day itself (daily) or Sunday (weekly), in `timezone`. */
    periodEnd: day('period_end').notNull(),
    timezone: text('timezone').notNull(),
    /** End of the counted window (generation time for the current period). */
    cutoffAt: instant('cutoff_at').notNull(),
    /** All play time in the window, every item. */
    totalDurationS: bigint('total_duration_s', { mode: 'number' }).notNull(),
    trigger: text('trigger').notNull(),
    generatedBy: uuid('generated_by').references(() => users.id, { onDelete: 'set null' }),
    /** Null = not pushed. */
    pushOutcome: text('push_outcome'),
    generatedAt: instant('generated_at').notNull(),
  },
  (t) => [
    uniqueIndex('ranking_batches_period_start_uq').on(t.period, t.periodStart),
    check('ranking_batches_period_ck', sql`${t.period} in ('daily', 'weekly')`),
    check('ranking_batches_trigger_ck', sql`${t.trigger} in ('schedule', 'manual')`),
    check(
      'ranking_batches_push_outcome_ck',
      sql`${t.pushOutcome} is null or ${t.pushOutcome} in ('sent', 'skipped', 'failed')`,
    ),
    check('ranking_batches_period_range_ck', sql`${t.periodEnd} >= ${t.periodStart}`),
    check('ranking_batches_total_duration_ck', sql`${t.totalDurationS} >= 0`),
  ],
);
export type RankingBatchRow = typeof rankingBatches.$inferSelect;
export type NewRankingBatchRow = typeof rankingBatches.$inferInsert;

/** The ranked items of a batch (10-data.md `playback_rankings`); episodes aggregate to their series. */
export const playbackRankings = pgTable(
  'playback_rankings',
  {
    id: uuid('id').primaryKey(),
    batchId: ownerId('batch_id', () => rankingBatches.id),
    category: text('category').notNull(),
    /** 1..`RANKING_TOP_N`. */
    rank: smallint('rank').notNull(),
    /** Media-server movie id or series id. */
    itemKey: text('item_key').notNull(),
    itemName: text('item_name').notNull(),
    playCount: integer('play_count').notNull(),
    durationS: bigint('duration_s', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('playback_rankings_batch_rank_uq').on(t.batchId, t.category, t.rank),
    check('playback_rankings_category_ck', sql`${t.category} in ('movie', 'series')`),
    check('playback_rankings_rank_ck', sql`${t.rank} >= 1`),
    check('playback_rankings_item_name_len_ck', sql`char_length(${t.itemName}) <= 300`),
    check('playback_rankings_counts_ck', sql`${t.playCount} >= 0 and ${t.durationS} >= 0`),
  ],
);
export type PlaybackRankingRow = typeof playbackRankings.$inferSelect;
export type NewPlaybackRankingRow = typeof playbackRankings.$inferInsert;
