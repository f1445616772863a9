import { z } from 'zod';
import { probing, type IntegrationDeps, type ProbeResult } from '../common.js';
import { isReadToken, TmdbClient } from './client.js';
import type {
  TmdbCastMember,
  TmdbEpisodeRef,
  TmdbMovie,
  TmdbSearchItem,
  TmdbSearchPage,
  TmdbSeason,
  TmdbSettings,
  TmdbTimeWindow,
  TmdbTrendingType,
  TmdbTv,
} from './types.js';

// Reply schemas keep only the fields Usher uses (50-integrations.md §3); zod drops the rest.
const text = z.string().nullish();
const num = z.number().nullish();

const searchItem = z.object({
  media_type: z.string().optional(),
  id: z.number(),
  title: text,
  name: text,
  original_title: text,
  original_name: text,
  release_date: text,
  first_air_date: text,
  poster_path: text,
  backdrop_path: text,
  overview: text,
  popularity: num,
  vote_average: num,
});
const searchReply = z.object({
  page: z.number(),
  total_results: z.number(),
  results: z.array(searchItem),
});
/** `credits` as `append_to_response=credits` adds it to movie and tv details. */
const credits = z
  .object({
    cast: z
      .array(
        z.object({
          id: z.number(),
          name: text,
          character: text,
          profile_path: text,
          order: num,
        }),
      )
      .nullish(),
  })
  .nullish();
const titleExtras = {
  backdrop_path: text,
  vote_average: num,
  genres: z.array(z.object({ name: z.string() })).nullish(),
  credits,
};
const movieReply = z.object({
  ...titleExtras,
  id: z.number(),
  title: z.string(),
  original_title: text,
  release_date: text,
  runtime: num,
  status: text,
  imdb_id: text,
  poster_path: text,
  overview: text,
});
const episodeRef = z
  .object({
    season_number: z.number(),
    episode_number: z.number(),
    name: text,
    air_date: text,
  })
  .nullish();
const tvReply = z.object({
  ...titleExtras,
  episode_run_time: z.array(z.number()).nullish(),
  overview: text,
  id: z.number(),
  name: z.string(),
  original_name: text,
  first_air_date: text,
  last_air_date: text,
  status: text,
  in_production: z.boolean().nullish(),
  number_of_seasons: num,
  poster_path: text,
  seasons: z
    .array(
      z.object({
        season_number: z.number(),
        episode_count: num,
        air_date: text,
        name: text,
        poster_path: text,
      }),
    )
    .nullish(),
  next_episode_to_air: episodeRef,
  last_episode_to_air: episodeRef,
  external_ids: z.object({ tvdb_id: num }).nullish(),
});
const seasonReply = z.object({
  season_number: z.number(),
  episodes: z.array(
    z.object({
      episode_number: z.number(),
      season_number: z.number(),
      name: text,
      air_date: text,
      runtime: num,
      overview: text,
      still_path: text,
    }),
  ),
});
const configurationReply = z.object({
  images: z.object({ secure_base_url: z.string().optional(), base_url: z.string().optional() }),
});

/** TMDB sends `""` for unknown dates; Usher uses null. */
const date = (value: string | null | undefined) => (value ? value : null);
/** Year = the first four characters of the date. */
const yearOf = (value: string | null | undefined) => {
  const year = value ? Number(value.slice(0, 4)) : NaN;
  return Number.isInteger(year) ? year : null;
};

function toItem(raw: z.infer<typeof searchItem>, mediaType: 'movie' | 'tv'): TmdbSearchItem {
  const when = date(mediaType === 'movie' ? raw.release_date : raw.first_air_date);
  const title = (mediaType === 'movie' ? raw.title : raw.name) ?? '';
  return {
    mediaType,
    id: raw.id,
    title,
    originalTitle: (mediaType === 'movie' ? raw.original_title : raw.original_name) ?? title,
    date: when,
    year: yearOf(when),
    posterPath: raw.poster_path ?? null,
    backdropPath: raw.backdrop_path ?? null,
    overview: raw.overview ?? '',
    popularity: raw.popularity ?? 0,
    voteAverage: raw.vote_average ?? 0,
  };
}

/** The first `CAST_LIMIT` billed actors (TMDB sends them in billing order, `order` ascending). */
const CAST_LIMIT = 12;

function castOf(raw: z.infer<typeof credits>): TmdbCastMember[] | undefined {
  if (!raw) return undefined;
  return [...(raw.cast ?? [])]
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .slice(0, CAST_LIMIT)
    .map((c) => ({
      id: c.id,
      name: c.name ?? '',
      character: c.character ?? '',
      profilePath: c.profile_path || null,
    }));
}

/** Backdrop, rating, genres and cast, common to movie and tv details. */
function extrasOf(raw: {
  backdrop_path?: string | null;
  vote_average?: number | null;
  genres?: { name: string }[] | null;
  credits?: z.infer<typeof credits>;
}) {
  const cast = castOf(raw.credits);
  return {
    backdropPath: raw.backdrop_path || null,
    voteAverage: raw.vote_average ?? 0,
    genres: (raw.genres ?? []).map((g) => g.name),
    ...(cast ? { cast } : {}),
  };
}

const toEpisodeRef = (raw: z.infer<typeof episodeRef>): TmdbEpisodeRef | null =>
  raw
    ? {
        seasonNumber: raw.season_number,
        episodeNumber: raw.episode_number,
        name: raw.name ?? '',
        airDate: date(raw.air_date),
      }
    : null;

/** TMDB operations Usher uses: search, details with TVDB id, seasons, and the probe. */
export class TmdbAdapter {
  private readonly client: TmdbClient;

  constructor(
    readonly settings: TmdbSettings,
    deps: IntegrationDeps = {},
    options: { timeoutMs?: number } = {},
  ) {
    this.client = new TmdbClient(settings, deps, options.timeoutMs);
  }

  /** `page` defaults to 1; the public search route pages through TMDB's result pages. */
  private searchQuery(query: string, page = 1): Record<string, string | boolean | number> {
    return { query, include_adult: this.settings.includeAdult, page };
  }

  /** A result page whose items carry `media_type` (multi search, trending); people dropped. */
  private async mixedPage(
    operation: string,
    path: string,
    query: Record<string, string | boolean | number>,
    fallback?: 'movie' | 'tv',
  ): Promise<TmdbSearchPage> {
    const reply = await this.client.get(operation, path, query, searchReply);
    const results = reply.results.flatMap((r) => {
      const type = r.media_type ?? fallback;
      return type === 'movie' || type === 'tv' ? [toItem(r, type)] : [];
    });
    return { page: reply.page, totalResults: reply.total_results, results };
  }

  /** A list of one media type (popular, upcoming): TMDB sends no `media_type` there. */
  private async typedPage(
    operation: string,
    path: string,
    page: number,
    mediaType: 'movie' | 'tv',
  ): Promise<TmdbSearchPage> {
    const reply = await this.client.get(operation, path, { page }, searchReply);
    return {
      page: reply.page,
      totalResults: reply.total_results,
      results: reply.results.map((r) => toItem(r, mediaType)),
    };
  }

  /** `GET /trending/{media_type}/{time_window}`; people (on `all`) are dropped. */
  trending(type: TmdbTrendingType, window: TmdbTimeWindow, page = 1): Promise<TmdbSearchPage> {
    return this.mixedPage(
      'trending',
      `/trending/${type}/${window}`,
      { page },
      type === 'all' ? undefined : type,
    );
  }

  /** `GET /movie/popular` or `GET /tv/popular`. */
  popular(type: 'movie' | 'tv', page = 1): Promise<TmdbSearchPage> {
    return this.typedPage('popular', `/${type}/popular`, page, type);
  }

  /** `GET /movie/upcoming`: movies about to open. */
  upcoming(page = 1): Promise<TmdbSearchPage> {
    return this.typedPage('upcoming', '/movie/upcoming', page, 'movie');
  }

  /** Movies and series in one list; people are dropped. */
  searchMulti(query: string, page?: number): Promise<TmdbSearchPage> {
    return this.mixedPage('search', '/search/multi', this.searchQuery(query, page));
  }

  async searchMovie(query: string, year?: number, page?: number): Promise<TmdbSearchPage> {
    const reply = await this.client.get(
      'search',
      '/search/movie',
      { ...this.searchQuery(query, page), year },
      searchReply,
    );
    return {
      page: reply.page,
      totalResults: reply.total_results,
      results: reply.results.map((r) => toItem(r, 'movie')),
    };
  }

  async searchTv(query: string, year?: number, page?: number): Promise<TmdbSearchPage> {
    const reply = await this.client.get(
      'search',
      '/search/tv',
      { ...this.searchQuery(query, page), first_air_date_year: year },
      searchReply,
    );
    return {
      page: reply.page,
      totalResults: reply.total_results,
      results: reply.results.map((r) => toItem(r, 'tv')),
    };
  }

  /** Throws `not_found` for an unknown id. `credits` appends the cast (the title sheet). */
  async movie(id: number, options: { credits?: boolean } = {}): Promise<TmdbMovie> {
    const query = options.credits ? { append_to_response: 'credits' } : {};
    const m = await this.client.get('movie', `/movie/${id}`, query, movieReply);
    const releaseDate = date(m.release_date);
    return {
      id: m.id,
      title: m.title,
      originalTitle: m.original_title ?? m.title,
      releaseDate,
      year: yearOf(releaseDate),
      runtime: m.runtime || null,
      status: m.status ?? '',
      imdbId: m.imdb_id || null,
      posterPath: m.poster_path ?? null,
      overview: m.overview ?? '',
      ...extrasOf(m),
    };
  }

  /** Series details with `external_ids` appended (for the TVDB id), and `credits` when asked. */
  async tv(id: number, options: { credits?: boolean } = {}): Promise<TmdbTv> {
    const append = options.credits ? 'external_ids,credits' : 'external_ids';
    const s = await this.client.get('tv', `/tv/${id}`, { append_to_response: append }, tvReply);
    const firstAirDate = date(s.first_air_date);
    return {
      id: s.id,
      name: s.name,
      originalName: s.original_name ?? s.name,
      firstAirDate,
      year: yearOf(firstAirDate),
      lastAirDate: date(s.last_air_date),
      status: s.status ?? '',
      inProduction: s.in_production ?? false,
      numberOfSeasons: s.number_of_seasons ?? 0,
      posterPath: s.poster_path || null,
      seasons: (s.seasons ?? []).map((season) => ({
        seasonNumber: season.season_number,
        episodeCount: season.episode_count ?? 0,
        airDate: date(season.air_date),
        name: season.name ?? '',
        posterPath: season.poster_path ?? null,
      })),
      nextEpisodeToAir: toEpisodeRef(s.next_episode_to_air),
      lastEpisodeToAir: toEpisodeRef(s.last_episode_to_air),
      tvdbId: s.external_ids?.tvdb_id ?? null,
      episodeRuntime: s.episode_run_time?.[0] || null,
      overview: s.overview ?? '',
      ...extrasOf(s),
    };
  }

  /** One season's episodes; season 0 is specials. */
  async season(tvId: number, seasonNumber: number): Promise<TmdbSeason> {
    const s = await this.client.get(
      'season',
      `/tv/${tvId}/season/${seasonNumber}`,
      {},
      seasonReply,
    );
    return {
      seasonNumber: s.season_number,
      episodes: s.episodes.map((e) => ({
        seasonNumber: e.season_number,
        episodeNumber: e.episode_number,
        name: e.name ?? '',
        airDate: date(e.air_date),
        runtime: e.runtime || null,
        overview: e.overview ?? '',
        stillPath: e.still_path ?? null,
      })),
    };
  }

  /** `GET /configuration` with the key: proves the address and the key in one cheap call. */
  probe(): Promise<ProbeResult> {
    return probing(async () => {
      await this.client.get('probe', '/configuration', {}, configurationReply);
      const auth = isReadToken(this.settings.apiKey) ? 'v4 read token' : 'v3 API key';
      return {
        ok: true,
        message: `TMDB accepted the ${auth} (language ${this.settings.language})`,
        details: [],
      };
    });
  }
}
