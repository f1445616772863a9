import { and, asc, between, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import {
  calendarEpisodes,
  calendarFollows,
  calendarSeries,
  type CalendarSeriesRow,
  type NewCalendarEpisodeRow,
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

/** Inserts or updates the series of `tmdbId`; returns its id. */
export async function upsertSeries(
  db: Database,
  tmdbId: number,
  values: Omit<typeof calendarSeries.$inferInsert, 'id' | 'tmdbId'>,
): Promise<string> {
  const [row] = await db
    .insert(calendarSeries)
    .values({ id: uuidv7(), tmdbId, ...values })
    .onConflictDoUpdate({ target: calendarSeries.tmdbId, set: values })
    .returning({ id: calendarSeries.id });
  return row!.id;
}

/** The episodes kept for a series, with the library item each is matched to. */
export async function seriesEpisodes(db: Database, seriesId: string) {
  return db
    .select({
      id: calendarEpisodes.id,
      season: calendarEpisodes.season,
      episode: calendarEpisodes.episode,
      mediaItemId: calendarEpisodes.mediaItemId,
    })
    .from(calendarEpisodes)
    .where(eq(calendarEpisodes.seriesId, seriesId));
}

/** New episodes are inserted; kept ones follow TMDB's name, overview and air date. */
export async function upsertEpisodes(
  db: Database,
  rows: NewCalendarEpisodeRow[],
  now: Date,
): Promise<void> {
  await db
    .insert(calendarEpisodes)
    .values(rows)
    .onConflictDoUpdate({
      target: [calendarEpisodes.seriesId, calendarEpisodes.season, calendarEpisodes.episode],
      set: {
        name: sql`excluded.name`,
        overview: sql`excluded.overview`,
        airDate: sql`excluded.air_date`,
        updatedAt: now,
      },
    });
}

/** An episode's library item (null: not there); `availableAt` keeps the first time it was seen. */
export async function setEpisodeItem(
  db: Database,
  id: string,
  itemId: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(calendarEpisodes)
    .set({
      mediaItemId: itemId,
      availableAt: itemId === null ? null : sql`coalesce(${calendarEpisodes.availableAt}, now())`,
      updatedAt: now,
    })
    .where(eq(calendarEpisodes.id, id));
}

export async function markSeriesChecked(db: Database, seriesId: string, now: Date): Promise<void> {
  await db
    .update(calendarEpisodes)
    .set({ lastCheckedAt: now })
    .where(eq(calendarEpisodes.seriesId, seriesId));
}

/**
 * Series that left the library (a series id, but not among the TMDB ids in it) lose their
 * series id and their episodes' items; returns how many.
 */
export async function forgetSeriesNotIn(
  db: Database,
  inLibrary: number[],
  now: Date,
): Promise<number> {
  const gone = await db
    .update(calendarSeries)
    .set({ mediaSeriesId: null, updatedAt: now })
    .where(
      and(
        isNotNull(calendarSeries.mediaSeriesId),
        inLibrary.length > 0 ? notInArray(calendarSeries.tmdbId, inLibrary) : undefined,
      ),
    )
    .returning({ id: calendarSeries.id });
  if (gone.length > 0) {
    await db
      .update(calendarEpisodes)
      .set({ mediaItemId: null, availableAt: null, updatedAt: now })
      .where(
        inArray(
          calendarEpisodes.seriesId,
          gone.map((g) => g.id),
        ),
      );
  }
  return gone.length;
}

/**
 * The tracked entries `(showTmdbId, season, episode … last)` become ready with `itemId`;
 * returns how many changed (an entry already on that item is left alone).
 */
export async function setEpisodesReady(
  db: Database,
  entry: { showTmdbId: number; season: number; episode: number; last: number; itemId: string },
  now: Date,
): Promise<number> {
  const changed = await db
    .update(calendarEpisodes)
    .set({
      mediaItemId: entry.itemId,
      availableAt: sql`coalesce(${calendarEpisodes.availableAt}, now())`,
      lastCheckedAt: now,
      updatedAt: now,
    })
    .where(
      and(
        inArray(
          calendarEpisodes.seriesId,
          db
            .select({ id: calendarSeries.id })
            .from(calendarSeries)
            .where(eq(calendarSeries.tmdbId, entry.showTmdbId)),
        ),
        eq(calendarEpisodes.season, entry.season),
        between(calendarEpisodes.episode, entry.episode, entry.last),
        sql`${calendarEpisodes.mediaItemId} is distinct from ${entry.itemId}`,
      ),
    )
    .returning({ id: calendarEpisodes.id });
  return changed.length;
}
