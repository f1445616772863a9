// Play rankings (20-api.md "Rankings", `/admin/rankings/*`; 10-data.md §7 ranking_batches and
// playback_rankings). Days are business-timezone calendar days (`SCHEDULE_TIMEZONE`).
import { z } from 'zod';
import { calendarDaySchema, requestDaySchema } from './audit.js';
import { isoInstant, pageOf, paginationQuerySchema, safeString, uuidSchema } from './common.js';
import { RANKING_PERIODS } from './values.js';

export type RankingPeriod = (typeof RANKING_PERIODS)[number];
export const RANKING_CATEGORIES = ['movie', 'series'] as const;
export type RankingCategory = (typeof RANKING_CATEGORIES)[number];
export const RANKING_PUSH_OUTCOMES = ['sent', 'skipped', 'failed'] as const;
export type RankingPushOutcome = (typeof RANKING_PUSH_OUTCOMES)[number];
export const RANKING_TRIGGERS = ['schedule', 'manual'] as const;
/** `RANKING_TOP_N` bounds (30-settings.md): entries per category. */
export const RANKING_TOP_N_MAX = 25;

const period = z.enum(RANKING_PERIODS);

/** `GET /rankings/latest?period=` */
export const rankingLatestQuerySchema = z.strictObject({
  period: period.default('daily'),
});
export type RankingLatestQuery = z.infer<typeof rankingLatestQuerySchema>;

/** `GET /rankings/history?period=&page=&pageSize=` */
export const rankingHistoryQuerySchema = paginationQuerySchema.extend({
  period: period.default('daily'),
});
export type RankingHistoryQuery = z.infer<typeof rankingHistoryQuerySchema>;

/** A malformed id is the same 404 `RANKING_NOT_FOUND` as an unknown one (20-api.md §1.1). */
export const rankingBatchParamsSchema = z.strictObject({ batchId: safeString() });

/** One ranked movie or series. */
export const rankingEntrySchema = z
  .object({
    rank: z.number().int().min(1),
    /** The media server's movie id or series id (`name:<series>` when the series is gone). */
    itemKey: safeString(),
    name: safeString(),
    playCount: z.number().int().min(0),
    durationSeconds: z.number().int().min(0),
    /** Signed for the caller (valid 24 h), or null when the item has no id on the server. */
    posterUrl: safeString().nullable(),
  })
  .meta({ id: 'RankingEntry' });
export type RankingEntry = z.infer<typeof rankingEntrySchema>;

const batchFields = {
  period,
  /** The day itself (daily) or Monday (weekly). */
  periodStart: calendarDaySchema,
  /** The day itself (daily) or Sunday (weekly). */
  periodEnd: calendarDaySchema,
  /** End of the counted window: the period's end, or the generation time for the current one. */
  cutoffAt: isoInstant,
  timezone: safeString(),
  /** All play time in the window, every item. */
  totalDurationSeconds: z.number().int().min(0),
  generatedAt: isoInstant,
  /** Null: not pushed (or, for a fresh push, no reply yet). */
  pushOutcome: z.enum(RANKING_PUSH_OUTCOMES).nullable(),
  trigger: z.enum(RANKING_TRIGGERS),
};

/** `RankingBatch` (20-api.md §2); `id` is null on a preview (computed, not stored). */
export const rankingBatchSchema = z
  .object({
    id: uuidSchema.nullable(),
    ...batchFields,
    movies: z.array(rankingEntrySchema),
    series: z.array(rankingEntrySchema),
  })
  .meta({ id: 'RankingBatch' });
export type RankingBatch = z.infer<typeof rankingBatchSchema>;

/** A history row: the batch without its entries, with the leaders' names. */
export const rankingBatchSummarySchema = z
  .object({
    id: uuidSchema,
    ...batchFields,
    movieCount: z.number().int().min(0),
    seriesCount: z.number().int().min(0),
    topMovie: safeString().nullable(),
    topSeries: safeString().nullable(),
  })
  .meta({ id: 'RankingBatchSummary' });
export type RankingBatchSummary = z.infer<typeof rankingBatchSummarySchema>;

export const rankingHistoryPageSchema = pageOf(rankingBatchSummarySchema);
export type RankingHistoryPage = z.infer<typeof rankingHistoryPageSchema>;

export const rankingLatestSchema = z.object({ batch: rankingBatchSchema.nullable() });
export type RankingLatest = z.infer<typeof rankingLatestSchema>;

/** `POST /admin/rankings/preview`: the period containing `date` (default today). */
export const rankingPreviewBodySchema = z.strictObject({
  period,
  date: requestDaySchema.optional(),
});
export type RankingPreviewBody = z.infer<typeof rankingPreviewBodySchema>;

/** `POST /admin/rankings/generate`: as preview, stored (replacing the period's batch). */
export const rankingGenerateBodySchema = rankingPreviewBodySchema.extend({
  /** Push to the group chat after storing (default true). */
  push: z.boolean().default(true),
});
export type RankingGenerateBody = z.infer<typeof rankingGenerateBodySchema>;
