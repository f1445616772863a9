import { and, asc, between, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  calendarEpisodes,
  calendarFollows,
  calendarSeries,
  type CalendarSeriesRow,
} from '../../db/schema/index.js';

export interface WeekRow {
  episodeId: string;
  season: number;
  episode: number;
  name: string | null;
  airDate: string | null;
  mediaItemId: string | null;
  tmdbId: number;
  seriesName: string;
  posterPath: string | null;
  following: boolean;
}

/**
 * Episodes airing from `start` to `end` (inclusive days) with their series and whether `userId`
 * follows it; only followed series when `followedOnly`.
 */
export async function weekEpisodes(
  db: Database,
  q: { start: string; end: string; userId: string; followedOnly: boolean },
): Promise<WeekRow[]> {
  const follow = and(
    eq(calendarFollows.seriesId, calendarSeries.id),
    eq(calendarFollows.userId, q.userId),
  );
  const where = and(
    between(calendarEpisodes.airDate, q.start, q.end),
    q.followedOnly ? sql`${calendarFollows.userId} is not null` : undefined,
  );
  return db
    .select({
      episodeId: calendarEpisodes.id,
      season: calendarEpisodes.season,
      episode: calendarEpisodes.episode,
      name: calendarEpisodes.name,
      airDate: calendarEpisodes.airDate,
      mediaItemId: calendarEpisodes.mediaItemId,
      tmdbId: calendarSeries.tmdbId,
      seriesName: calendarSeries.name,
      posterPath: calendarSeries.posterPath,
      following: sql<boolean>`${calendarFollows.userId} is not null`,
    })
    .from(calendarEpisodes)
    .innerJoin(calendarSeries, eq(calendarSeries.id, calendarEpisodes.seriesId))
    .leftJoin(calendarFollows, follow)
    .where(where)
    .orderBy(
      asc(calendarEpisodes.airDate),
      asc(calendarSeries.name),
      asc(calendarEpisodes.season),
      asc(calendarEpisodes.episode),
    );
}

export async function findSeriesByTmdbId(
  db: Database,
  tmdbId: number,
): Promise<CalendarSeriesRow | undefined> {
  const [row] = await db.select().from(calendarSeries).where(eq(calendarSeries.tmdbId, tmdbId));
  return row;
}

export async function allSeries(db: Database): Promise<CalendarSeriesRow[]> {
  return db.select().from(calendarSeries);
}

/** Follows a series (idempotent). */
export async function insertFollow(db: Database, userId: string, seriesId: string): Promise<void> {
  await db.insert(calendarFollows).values({ userId, seriesId }).onConflictDoNothing();
}

/** Unfollows the series of `tmdbId` (idempotent; an untracked id changes nothing). */
export async function deleteFollow(db: Database, userId: string, tmdbId: number): Promise<void> {
  await db
    .delete(calendarFollows)
    .where(
      and(
        eq(calendarFollows.userId, userId),
        inArray(
          calendarFollows.seriesId,
          db
            .select({ id: calendarSeries.id })
            .from(calendarSeries)
            .where(eq(calendarSeries.tmdbId, tmdbId)),
        ),
      ),
    );
}
