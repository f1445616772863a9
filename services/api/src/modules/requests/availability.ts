import type { ResultAvailability, TitleAvailability } from '@usher/contracts';
import type { Database } from '../../db/client.js';
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
 * towards the state but never show who made them or which request it is.
 */
export async function searchAvailability(
  db: Database,
  userId: string,
  titles: SearchTitle[],
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
  return result;
}
