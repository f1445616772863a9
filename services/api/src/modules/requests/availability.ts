import type { ResultAvailability, TitleAvailability } from '@usher/contracts';
import type { Database } from '../../db/client.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaServer } from '../../integrations/media-server/port.js';
import type { ModuleContext } from '../context.js';
import { countEpisodes, episodeMap, type EpisodeMap } from './library.js';
import { activeRequestsForTitles, type ActiveTitleRow } from './queries.js';

/** A search result's title: TMDB's media type and id. */
export interface SearchTitle {
  mediaType: 'movie' | 'tv';
  tmdbId: number;
}

/** When a title has several active requests (seasons), the most available one speaks. */
const RANK: Record<TitleAvailability, number> = {
  none: 0,
  rejected: 1,
  requested: 2,
  approved: 3,
  missing: 4,
  in_library: 5,
};

/** The more available of two states. */
const better = (a: TitleAvailability, b: TitleAvailability) => (RANK[b] > RANK[a] ? b : a);

function stateOf(row: ActiveTitleRow): TitleAvailability {
  if (row.status === 'REJECTED') return 'rejected';
  if (row.status === 'PENDING') return 'requested';
  if (row.status === 'APPROVED') return 'approved';
  // INGESTED: whole unless its progress counts fewer episodes than the season or series has.
  const progress = row.ingestProgress;
  return progress && progress.total > 0 && progress.have < progress.total
    ? 'missing'
    : 'in_library';
}

export function titleKey(mediaType: 'movie' | 'tv', tmdbId: number): string {
  return `${mediaType}:${tmdbId}`;
}

/**
 * The availability of each title of a search page or discovery rail for `userId` (issues 14,
 * 36), from every member's active requests and the caller's rejected ones, in one query. A title
 * nobody asked for is `none`; one only the caller asked for and was refused is `rejected`.
 * `ownRequestId` names only the caller's own request (the most available of theirs); other
 * members' requests count towards the state but never show who made them or which request it
 * is. A title in `library` (keys of `libraryTitles`) is `in_library` whatever was asked, unless
 * a request says episodes are missing.
 */
export async function searchAvailability(
  db: Database,
  userId: string,
  titles: SearchTitle[],
  library: ReadonlySet<string> = new Set(),
): Promise<Map<string, ResultAvailability>> {
  const movies = [...new Set(titles.filter((t) => t.mediaType === 'movie').map((t) => t.tmdbId))];
  const series = [...new Set(titles.filter((t) => t.mediaType === 'tv').map((t) => t.tmdbId))];
  const rows = await activeRequestsForTitles(db, { movies, series }, userId);

  const result = new Map<string, ResultAvailability>();
  const ownRank = new Map<string, number>();
  for (const title of titles) {
    result.set(titleKey(title.mediaType, title.tmdbId), { state: 'none', ownRequestId: null });
  }
  for (const row of rows) {
    const key = titleKey(row.type === 'TV' ? 'tv' : 'movie', row.tmdbId);
    const known = result.get(key);
    if (!known) continue;
    const state = stateOf(row);
    known.state = better(known.state, state);
    if (row.userId === userId && RANK[state] > (ownRank.get(key) ?? 0)) {
      known.ownRequestId = row.id;
      ownRank.set(key, RANK[state]);
    }
  }
  for (const [key, known] of result) {
    if (library.has(key) && RANK[known.state] < RANK.missing) known.state = 'in_library';
  }
  return result;
}

/** How long a search waits for the library before it answers without it. */
export const LIBRARY_DEADLINE_MS = 1500;

/** `work`'s answer, or `fallback` when it takes longer than `deadlineMs`. */
async function withDeadline<T>(work: Promise<T>, deadlineMs: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), deadlineMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An advisory read of the media server: an unconfigured or unreachable server gives `fallback`
 * (logged unless it is simply not configured), like the library check.
 */
async function fromLibrary<T>(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  read: (server: MediaServer) => Promise<T>,
  fallback: T,
): Promise<T> {
  try {
    return await read(await ctx.integrations.mediaServer.get());
  } catch (err) {
    if (!(err instanceof IntegrationError)) throw err;
    if (err.kind !== 'not_configured') {
      ctx.logger.warn({ err: err.message, kind: err.kind }, 'library availability failed');
    }
    return fallback;
  }
}

/**
 * The titles of a search page the media server's library holds (issue 36: every result is
 * badged before any click, from the TMDB ids the server reports), as `titleKey`s. Advisory like
 * the library check: an unconfigured or unreachable server leaves the set empty, and so does one
 * slower than `deadlineMs` — Jellyfin's first lookup builds its TMDB map, which the next search
 * then finds cached (docs/requests.md).
 */
export async function libraryTitles(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  titles: SearchTitle[],
  deadlineMs = LIBRARY_DEADLINE_MS,
): Promise<Set<string>> {
  const ids = (type: SearchTitle['mediaType']) => [
    ...new Set(titles.filter((t) => t.mediaType === type).map((t) => t.tmdbId)),
  ];
  const lookUp = fromLibrary(
    ctx,
    async (server) => {
      const [movies, series] = await Promise.all([
        server.tmdbIdsInLibrary(ids('movie'), 'Movie'),
        server.tmdbIdsInLibrary(ids('tv'), 'Series'),
      ]);
      return new Set([
        ...[...movies].map((id) => titleKey('movie', id)),
        ...[...series].map((id) => titleKey('tv', id)),
      ]);
    },
    new Set<string>(),
  );
  return withDeadline(lookUp, deadlineMs, new Set());
}

/** A series' season as TMDB lists it: its number and how many episodes it has. */
export interface SeasonCount {
  seasonNumber: number;
  episodeCount: number;
}

/**
 * Each season's availability for the title sheet (issue 36): the library's episodes of that
 * season against TMDB's count (all → `in_library`, some → `missing`), and every member's active
 * requests for that season or for the whole series (season 0), the most available winning. The
 * caller's own rejected request for the season shows as `rejected` when nothing better applies.
 * A series the library lacks, or a server that is slow or down, leaves requests alone to speak.
 */
export async function seasonAvailability(
  ctx: Pick<ModuleContext, 'db' | 'integrations' | 'logger'>,
  userId: string,
  tmdbId: number,
  seasons: SeasonCount[],
  deadlineMs = LIBRARY_DEADLINE_MS,
): Promise<Map<number, TitleAvailability>> {
  const empty: EpisodeMap = new Map();
  const library = withDeadline(
    fromLibrary(
      ctx,
      async (server) => {
        const show = await server.findByTmdbId(tmdbId, 'Series');
        return show ? episodeMap(await server.episodes(show.id)) : empty;
      },
      empty,
    ),
    deadlineMs,
    empty,
  );
  const [episodes, rows] = await Promise.all([
    library,
    activeRequestsForTitles(ctx.db, { movies: [], series: [tmdbId] }, userId),
  ]);
  const result = new Map<number, TitleAvailability>();
  for (const { seasonNumber, episodeCount } of seasons) {
    let state: TitleAvailability = 'none';
    for (const row of rows) {
      if (row.season !== 0 && row.season !== seasonNumber) continue;
      // A whole-series request's progress counts all seasons: only "is it there" carries over.
      const rowState = stateOf(row);
      state = better(state, row.season === 0 && rowState === 'missing' ? 'approved' : rowState);
    }
    const have = countEpisodes(episodes, seasonNumber);
    if (have > 0) state = better(state, have >= episodeCount ? 'in_library' : 'missing');
    result.set(seasonNumber, state);
  }
  return result;
}
