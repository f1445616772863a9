import { z } from 'zod';
import { probing, type IntegrationDeps, type ProbeResult } from '../common.js';
import { isReadToken, TmdbClient } from './client.js';
import type {
  TmdbEpisodeRef,
  TmdbMovie,
  TmdbSearchItem,
  TmdbSearchPage,
  TmdbSeason,
  TmdbSettings,
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
const movieReply = z.object({
  id: z.number(),
  title: z.string(),
  original_title: text,
  release_date: text,
  runtime: num,
  status: text,
  imdb_id: text,
  poster_path: text,
  overview: text,
  genres: z.array(z.object({ name: z.string() })).nullish(),
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

  /** Movies and series in one list; people are dropped. */
  async searchMulti(query: string, page?: number): Promise<TmdbSearchPage> {
    const reply = await this.client.get(
      'search',
      '/search/multi',
      this.searchQuery(query, page),
      searchReply,
    );
    const results = reply.results.flatMap((r) =>
      r.media_type === 'movie' || r.media_type === 'tv' ? [toItem(r, r.media_type)] : [],
    );
    return { page: reply.page, totalResults: reply.total_results, results };
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

  /** Throws `not_found` for an unknown id. */
  async movie(id: number): Promise<TmdbMovie> {
    const m = await this.client.get('movie', `/movie/${id}`, {}, movieReply);
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
      genres: (m.genres ?? []).map((g) => g.name),
    };
  }

  /** Series details with `external_ids` appended (for the TVDB id). */
  async tv(id: number): Promise<TmdbTv> {
    const s = await this.client.get(
      'tv',
      `/tv/${id}`,
      { append_to_response: 'external_ids' },
      tvReply,
    );
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
