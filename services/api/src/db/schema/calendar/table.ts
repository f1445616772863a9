import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant, ownerId, timestamps, tmdbPathCheck } from '../columns.js';
import { users } from '../users/table.js';

/** A calendar day as TMDB gives it, kept as `YYYY-MM-DD` (read in the business timezone). */
const day = (name: string) => date(name, { mode: 'string' });

/** Series the watch calendar tracks (10-data.md `calendar_series`). */
export const calendarSeries = pgTable(
  'calendar_series',
  {
    id: uuid('id').primaryKey(),
    tmdbId: integer('tmdb_id').notNull(),
    /** Series id in the media server. */
    mediaSeriesId: text('media_series_id'),
    name: text('name').notNull(),
    /** TMDB path. */
    posterPath: text('poster_path'),
    /** TMDB show status (`Returning Series`, `Ended`, …). */
    tmdbStatus: text('tmdb_status'),
    /** False → no longer synced, kept while followed. */
    isContinuing: boolean('is_continuing').notNull().default(true),
    lastSyncedAt: instant('last_synced_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('calendar_series_tmdb_id_uq').on(t.tmdbId),
    check('calendar_series_tmdb_id_ck', sql`${t.tmdbId} > 0`),
    tmdbPathCheck('calendar_series_poster_path_ck', t.posterPath),
  ],
);
export type CalendarSeriesRow = typeof calendarSeries.$inferSelect;
export type NewCalendarSeriesRow = typeof calendarSeries.$inferInsert;

/** Episodes of tracked series (10-data.md `calendar_episodes`); the status is derived on read. */
export const calendarEpisodes = pgTable(
  'calendar_episodes',
  {
    id: uuid('id').primaryKey(),
    seriesId: ownerId('series_id', () => calendarSeries.id),
    season: integer('season').notNull(),
    episode: integer('episode').notNull(),
    name: text('name'),
    overview: text('overview'),
    airDate: day('air_date'),
    /** Episode present in the library; null = not (yet) there. */
    mediaItemId: text('media_item_id'),
    /** When Usher first saw it in the library. */
    availableAt: instant('available_at'),
    lastCheckedAt: instant('last_checked_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('calendar_episodes_series_episode_uq').on(t.seriesId, t.season, t.episode),
    index('calendar_episodes_air_date_idx').on(t.airDate),
    check('calendar_episodes_season_ck', sql`${t.season} >= 1`),
    check('calendar_episodes_episode_ck', sql`${t.episode} >= 1`),
    check(
      'calendar_episodes_overview_len_ck',
      sql`${t.overview} is null or char_length(${t.overview}) <= 1000`,
    ),
  ],
);
export type CalendarEpisodeRow = typeof calendarEpisodes.$inferSelect;
export type NewCalendarEpisodeRow = typeof calendarEpisodes.$inferInsert;

/** Who follows which tracked series (10-data.md `calendar_follows`). */
export const calendarFollows = pgTable(
  'calendar_follows',
  {
    userId: ownerId('user_id', () => users.id),
    seriesId: ownerId('series_id', () => calendarSeries.id),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.seriesId] }),
    index('calendar_follows_series_idx').on(t.seriesId),
  ],
);
export type CalendarFollowRow = typeof calendarFollows.$inferSelect;
