import { and, between, eq, inArray, sql } from 'drizzle-orm';
import { calendarEpisodes, calendarSeries } from '../../db/schema/index.js';
import type { ModuleContext } from '../context.js';

/**
 * The webhook's calendar step (50-integrations.md §2.3 step 3): the tracked entries
 * `(showTmdbId, season, episode … episodeEnd)` become ready with `mediaItemId = itemId`. Entries
 * the calendar does not track are left for the sync. Returns how many entries changed, so a
 * repeated event counts 0.
 */
export async function markEpisodesReady(
  ctx: Pick<ModuleContext, 'db' | 'now'>,
  entry: {
    showTmdbId: number;
    season: number;
    episode: number;
    episodeEnd?: number;
    itemId: string;
  },
): Promise<number> {
  const now = ctx.now();
  const last = Math.max(entry.episode, entry.episodeEnd ?? entry.episode);
  const changed = await ctx.db
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
          ctx.db
            .select({ id: calendarSeries.id })
            .from(calendarSeries)
            .where(eq(calendarSeries.tmdbId, entry.showTmdbId)),
        ),
        eq(calendarEpisodes.season, entry.season),
        between(calendarEpisodes.episode, entry.episode, last),
        sql`${calendarEpisodes.mediaItemId} is distinct from ${entry.itemId}`,
      ),
    )
    .returning({ id: calendarEpisodes.id });
  return changed.length;
}
