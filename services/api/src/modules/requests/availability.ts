import type { ResultAvailability, TitleAvailability } from '@usher/contracts';
import type { Database } from '../../db/client.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { ModuleContext } from '../context.js';
import { activeRequestsForTitles, type ActiveTitleRow } from './queries.js';

/** A search result's title: TMDB's media type and id. */
export interface SearchTitle {
  mediaType: 'movie' | 'tv';
  tmdbId: number;
}

/** When a title has several active requests (seasons), the most available one speaks. */
const RANK: Record<TitleAvailability, number> = {
  none: 0,
  requested: 1,
  approved: 2,
  missing: 3,
  in_library: 4,
};

function stateOf(row: ActiveTitleRow): TitleAvailability {
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
 * The availability of each title of a search page for `userId` (issue 14), from every member's
 * active requests in one query. A title nobody asked for is `none`. `ownRequestId` names only
 * the caller's own request (the most available of theirs); other members' requests count
 * towards the state but never show who made them or which request it is. A title in `library`
 * (keys of `libraryTitles`) is `in_library` whatever was asked, unless a request says episodes
 * are missing.
 */
export async function searchAvailability(
  db: Database,
  userId: string,
  titles: SearchTitle[],
  library: ReadonlySet<string> = new Set(),
): Promise<Map<string, ResultAvailability>> {
  const movies = [...new Set(titles.filter((t) => t.mediaType === 'movie').map((t) => t.tmdbId))];
  const series = [...new Set(titles.filter((t) => t.mediaType === 'tv').map((t) => t.tmdbId))];
  const rows = await activeRequestsForTitles(db, { movies, series });

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
    if (RANK[state] > RANK[known.state]) known.state = state;
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Set<string>>((resolve) => {
    timer = setTimeout(() => resolve(new Set()), deadlineMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([lookUpLibrary(ctx, titles), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function lookUpLibrary(
  ctx: Pick<ModuleContext, 'integrations' | 'logger'>,
  titles: SearchTitle[],
): Promise<Set<string>> {
  const ids = (type: SearchTitle['mediaType']) => [
    ...new Set(titles.filter((t) => t.mediaType === type).map((t) => t.tmdbId)),
  ];
  try {
    const server = await ctx.integrations.mediaServer.get();
    const [movies, series] = await Promise.all([
      server.tmdbIdsInLibrary(ids('movie'), 'Movie'),
      server.tmdbIdsInLibrary(ids('tv'), 'Series'),
    ]);
    return new Set([
      ...[...movies].map((id) => titleKey('movie', id)),
      ...[...series].map((id) => titleKey('tv', id)),
    ]);
  } catch (err) {
    if (!(err instanceof IntegrationError)) throw err;
    if (err.kind !== 'not_configured') {
      ctx.logger.warn({ err: err.message, kind: err.kind }, 'library availability failed');
    }
    return new Set();
  }
}
