import { HOUR_MS } from '../../time/units.js';
import { createHash } from 'node:crypto';
import {
  DISCOVER_RAILS,
  METADATA_PAGE_SIZE,
  type DiscoverRail,
  type DiscoverReply,
  type MetadataResult,
  type TitleDetails,
  type MetadataSearchQuery,
  type MetadataSearchReply,
  type TvSeasons,
} from '@usher/contracts';
import type { TmdbAdapter } from '../../integrations/tmdb/adapter.js';
import type {
  TmdbMovie,
  TmdbSearchPage,
  TmdbSeason,
  TmdbTv,
} from '../../integrations/tmdb/types.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext } from '../context.js';
import { readCache, writeCache } from './queries.js';
import { isNotFound } from '../../integrations/errors.js';

/** Show and season details live 24 h, empty answers 1 h (10-data.md `tmdb_cache`). */
const DETAILS_TTL_MS = 24 * HOUR_MS;
const EMPTY_TTL_MS = HOUR_MS;

type Ctx = Pick<ModuleContext, 'db' | 'now' | 'integrations' | 'settings'>;

/**
 * Reads through `tmdb_cache`: a fresh entry answers without calling TMDB; otherwise the adapter
 * is called and its normalised answer stored with the lifetime `ttl` picks for it. Adapter
 * failures stay `IntegrationError`s, so background callers can tell them apart.
 */
async function cached<T>(
  ctx: Ctx,
  key: string,
  load: (tmdb: TmdbAdapter) => Promise<T>,
  ttl: (value: T) => number,
  refresh = false,
): Promise<T> {
  const now = ctx.now();
  const hit = refresh ? undefined : await readCache<T>(ctx.db, key, now);
  if (hit !== undefined) return hit;
  const tmdb = await ctx.integrations.tmdb.get();
  const value = await load(tmdb);
  await writeCache(ctx.db, key, value, new Date(now.getTime() + ttl(value)));
  return value;
}

async function language(ctx: Ctx): Promise<string> {
  return ctx.settings.store.getString('TMDB_LANGUAGE');
}

/** `refresh`: ask TMDB even when the cache holds a fresh answer (a forced calendar sync). */
export interface CacheOptions {
  refresh?: boolean;
}

/** Series details (with seasons and the TVDB id), cached 24 h; `not_found` passes through. */
export async function cachedTv(
  ctx: Ctx,
  tmdbId: number,
  options: CacheOptions = {},
): Promise<TmdbTv> {
  const key = `tv:${await language(ctx)}:${tmdbId}`;
  return cached(
    ctx,
    key,
    (tmdb) => tmdb.tv(tmdbId),
    () => DETAILS_TTL_MS,
    options.refresh,
  );
}

/** One season's episodes, cached 24 h. */
export async function cachedSeason(
  ctx: Ctx,
  tmdbId: number,
  season: number,
  options: CacheOptions = {},
): Promise<TmdbSeason> {
  const key = `season:${await language(ctx)}:${tmdbId}:${season}`;
  return cached(
    ctx,
    key,
    (tmdb) => tmdb.season(tmdbId, season),
    () => DETAILS_TTL_MS,
    options.refresh,
  );
}

function toResult(item: TmdbSearchPage['results'][number]): MetadataResult {
  return {
    tmdbId: item.id,
    mediaType: item.mediaType,
    title: item.title,
    originalTitle: item.originalTitle,
    year: item.year,
    overview: item.overview,
    posterPath: item.posterPath,
    // Search pages cached before backdrops were kept have no field: null, never undefined.
    backdropPath: item.backdropPath ?? null,
    voteAverage: item.voteAverage,
  };
}

/** `GET /metadata/search`: one TMDB result page, persons dropped, cached per query. */
export async function searchMetadata(
  ctx: Ctx,
  query: MetadataSearchQuery,
): Promise<MetadataSearchReply> {
  const store = ctx.settings.store;
  const adult = (await store.get('TMDB_INCLUDE_ADULT')) ? 1 : 0;
  const hours = (await store.get('METADATA_CACHE_HOURS')) || 6;
  const text = query.query.trim();
  const digest = createHash('sha1').update(text.toLowerCase()).digest('hex');
  const key = `search:${query.type}:${await language(ctx)}:${adult}:${digest}:${query.page}`;
  const page = await cached<TmdbSearchPage>(
    ctx,
    key,
    (tmdb) => {
      if (query.type === 'movie') return tmdb.searchMovie(text, undefined, query.page);
      if (query.type === 'tv') return tmdb.searchTv(text, undefined, query.page);
      return tmdb.searchMulti(text, query.page);
    },
    (value) => (value.results.length === 0 ? EMPTY_TTL_MS : hours * HOUR_MS),
  );
  return {
    data: page.results.map(toResult),
    total: page.totalResults,
    page: query.page,
    pageSize: METADATA_PAGE_SIZE,
  };
}

/**
 * How long each discovery rail is kept (issue 36): a day's trending moves within hours, the
 * popular lists over a day, the upcoming list over days. An empty list is asked again in 1 h.
 */
const RAIL_TTL_MS: Record<DiscoverRail, number> = {
  trending: 3 * HOUR_MS,
  popular_movies: 12 * HOUR_MS,
  popular_tv: 12 * HOUR_MS,
  upcoming: 24 * HOUR_MS,
};

const RAIL_LOADS: Record<DiscoverRail, (tmdb: TmdbAdapter) => Promise<TmdbSearchPage>> = {
  trending: (tmdb) => tmdb.trending('all', 'day'),
  popular_movies: (tmdb) => tmdb.popular('movie'),
  popular_tv: (tmdb) => tmdb.popular('tv'),
  upcoming: (tmdb) => tmdb.upcoming(),
};

/**
 * `GET /metadata/discover`: the first page of each rail, each read through `tmdb_cache` (keyed
 * by rail and language) and fetched side by side on a miss. TMDB filters adult titles from
 * these lists itself.
 */
export async function discoverMetadata(ctx: Ctx): Promise<DiscoverReply> {
  const lang = await language(ctx);
  const rails = await Promise.all(
    DISCOVER_RAILS.map(async (rail) => {
      const page = await cached<TmdbSearchPage>(
        ctx,
        `discover:${rail}:${lang}`,
        RAIL_LOADS[rail],
        (value) => (value.results.length === 0 ? EMPTY_TTL_MS : RAIL_TTL_MS[rail]),
      );
      return { rail, data: page.results.map(toResult) };
    }),
  );
  return { rails };
}

/** What the title sheet shows, before the caller's availability is added. */
export type TitleSheet = Omit<TitleDetails, 'availability' | 'seasons'> & {
  seasons: Omit<TitleDetails['seasons'][number], 'state'>[];
};

/** The sheet's cast: name, role and portrait of each billed actor. */
const castOf = (title: TmdbMovie | TmdbTv): TitleSheet['cast'] =>
  (title.cast ?? []).map(({ name, character, profilePath }) => ({ name, character, profilePath }));

function sheetOfMovie(m: TmdbMovie): TitleSheet {
  return {
    tmdbId: m.id,
    mediaType: 'movie',
    title: m.title,
    originalTitle: m.originalTitle,
    year: m.year,
    overview: m.overview,
    posterPath: m.posterPath,
    backdropPath: m.backdropPath ?? null,
    voteAverage: m.voteAverage ?? 0,
    runtime: m.runtime,
    genres: m.genres,
    status: m.status,
    cast: castOf(m),
    seasons: [],
  };
}

function sheetOfTv(s: TmdbTv): TitleSheet {
  return {
    tmdbId: s.id,
    mediaType: 'tv',
    title: s.name,
    originalTitle: s.originalName,
    year: s.year,
    overview: s.overview ?? '',
    posterPath: s.posterPath,
    backdropPath: s.backdropPath ?? null,
    voteAverage: s.voteAverage ?? 0,
    runtime: s.episodeRuntime ?? null,
    genres: s.genres ?? [],
    status: s.status,
    cast: castOf(s),
    seasons: seasonsOf(s),
  };
}

/** A series' seasons without specials (season 0). */
function seasonsOf(tv: TmdbTv) {
  return tv.seasons
    .filter((season) => season.seasonNumber > 0)
    .map((season) => ({
      seasonNumber: season.seasonNumber,
      name: season.name,
      episodeCount: season.episodeCount,
      airDate: season.airDate,
    }));
}

/**
 * `GET /metadata/titles/:mediaType/:tmdbId`: details with the cast, cached 24 h per language
 * (`title:<type>:<language>:<id>`). TMDB's 404 becomes `METADATA_NOT_FOUND`.
 */
export async function titleSheet(
  ctx: Ctx,
  mediaType: 'movie' | 'tv',
  tmdbId: number,
): Promise<TitleSheet> {
  const key = `title:${mediaType}:${await language(ctx)}:${tmdbId}`;
  try {
    return await cached<TitleSheet>(
      ctx,
      key,
      async (tmdb) => {
        if (mediaType === 'movie') return sheetOfMovie(await tmdb.movie(tmdbId, { credits: true }));
        return sheetOfTv(await tmdb.tv(tmdbId, { credits: true }));
      },
      () => DETAILS_TTL_MS,
    );
  } catch (err) {
    if (isNotFound(err)) throw new AppError('METADATA_NOT_FOUND', 'TMDB knows no such title');
    throw err;
  }
}

/** `GET /metadata/tv/:tmdbId/seasons`: the series' seasons without specials (season 0). */
export async function tvSeasons(ctx: Ctx, tmdbId: number): Promise<TvSeasons> {
  let tv: TmdbTv;
  try {
    tv = await cachedTv(ctx, tmdbId);
  } catch (err) {
    // TMDB's 404 (status_code 34) is this route's documented 404; other failures propagate.
    if (isNotFound(err)) throw new AppError('METADATA_NOT_FOUND', 'TMDB knows no such series');
    throw err;
  }
  return {
    tmdbId: tv.id,
    name: tv.name,
    status: tv.status,
    seasons: seasonsOf(tv),
  };
}
