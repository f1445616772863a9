import type { ModuleContext } from '../context.js';
import { setEpisodesReady } from './queries.js';

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
  const last = Math.max(entry.episode, entry.episodeEnd ?? entry.episode);
  return setEpisodesReady(ctx.db, { ...entry, last }, ctx.now());
}
