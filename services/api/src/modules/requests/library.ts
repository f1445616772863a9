import type { CheckExistingReply, ExistingSummary } from '@usher/contracts';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaItem, MediaServer } from '../../integrations/media-server/port.js';
import type { ModuleContext } from '../context.js';

export interface TitleKey {
  type: 'MOVIE' | 'TV';
  tmdbId: number;
  season: number;
}

/** Episodes on disk per season ≥ 1, multi-episode files expanded (50-integrations.md §2.3). */
export type EpisodeMap = Map<number, Set<number>>;

export function episodeMap(items: MediaItem[]): EpisodeMap {
  const map: EpisodeMap = new Map();
  for (const item of items) {
    if (item.virtual || item.season === undefined || item.episode === undefined) continue;
    if (item.season < 1) continue;
    const set = map.get(item.season) ?? new Set<number>();
    const end = Math.max(item.episode, item.episodeEnd ?? item.episode);
    for (let n = item.episode; n <= end; n++) set.add(n);
    map.set(item.season, set);
  }
  return map;
}

export function countEpisodes(map: EpisodeMap, season: number): number {
  if (season > 0) return map.get(season)?.size ?? 0;
  let n = 0;
  for (const set of map.values()) n += set.size;
  return n;
}

/** What the library holds for a title, as the check-existing reply and ALREADY_IN_LIBRARY say. */
export async function lookUpTitle(
  server: MediaServer,
  key: TitleKey,
  titleHint?: string,
): Promise<Pick<CheckExistingReply, 'inLibrary' | 'summary'>> {
  if (key.type === 'MOVIE') {
    const movie = await server.findByTmdbId(key.tmdbId, 'Movie', titleHint);
    if (!movie) return { inLibrary: false };
    return {
      inLibrary: true,
      summary: {
        matchType: 'movie',
        mediaItemId: movie.id,
        seasons: [],
        episodeCount: 0,
        message: `"${movie.name}" is already in the library`,
      },
    };
  }
  const series = await server.findByTmdbId(key.tmdbId, 'Series', titleHint);
  if (!series) return { inLibrary: false };
  const map = episodeMap(await server.episodes(series.id));
  const seasons = [...map.keys()].sort((a, b) => a - b);
  const episodeCount = countEpisodes(map, key.season);
  if (episodeCount === 0) return { inLibrary: false };
  const summary: ExistingSummary =
    key.season > 0
      ? {
          matchType: 'season',
          mediaItemId: series.id,
          seasons,
          episodeCount,
          message: `Season ${key.season} of "${series.name}" is in the library (${episodeCount} episodes)`,
        }
      : {
          matchType: 'series',
          mediaItemId: series.id,
          seasons,
          episodeCount,
          message: `"${series.name}" is in the library (${seasons.length} seasons, ${episodeCount} episodes)`,
        };
  return { inLibrary: true, summary };
}

/**
 * The library check of create and check-existing. Never fails the caller: an unconfigured or
 * unreachable media server is reported in `detection`, and creation then goes ahead.
 */
export async function checkLibrary(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  key: TitleKey,
  titleHint?: string,
): Promise<Pick<CheckExistingReply, 'inLibrary' | 'detection' | 'summary'>> {
  try {
    const server = await ctx.integrations.mediaServer.get();
    return { detection: 'ok', ...(await lookUpTitle(server, key, titleHint)) };
  } catch (err) {
    // The check is advisory (the member may request anyway); upstream failures become data.
    if (!(err instanceof IntegrationError)) throw err;
    if (err.kind === 'not_configured') return { inLibrary: false, detection: 'not_configured' };
    ctx.logger.warn({ err: err.message, kind: err.kind }, 'library check failed');
    return { inLibrary: false, detection: 'failed' };
  }
}
