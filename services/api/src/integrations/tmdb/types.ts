/** The settings the TMDB adapter is built from (30-settings.md §4.3). */
export interface TmdbSettings {
  /** A v3 key (sent as `api_key`) or a v4 read token (`eyJ…`, sent as Bearer). */
  apiKey: string;
  language: string;
  includeAdult: boolean;
  apiBase: string;
}

export type TmdbMediaType = 'movie' | 'tv';

/** One search hit, movie and TV fields folded together; `person` hits are dropped. */
export interface TmdbSearchItem {
  mediaType: TmdbMediaType;
  id: number;
  title: string;
  originalTitle: string;
  /** `release_date` or `first_air_date`; null when TMDB sends an empty string. */
  date: string | null;
  year: number | null;
  posterPath: string | null;
  backdropPath: string | null;
  overview: string;
  popularity: number;
  voteAverage: number;
}

export interface TmdbSearchPage {
  page: number;
  totalResults: number;
  results: TmdbSearchItem[];
}

/** One billed actor of a title (`credits.cast[]`, in TMDB's billing order). */
export interface TmdbCastMember {
  id: number;
  name: string;
  character: string;
  profilePath: string | null;
}

/** What the title sheet adds to the details: art, rating, genres and (when asked) the cast. */
export interface TmdbTitleExtras {
  backdropPath?: string | null;
  voteAverage?: number;
  genres?: string[];
  /** Present only when the call appended `credits`. */
  cast?: TmdbCastMember[];
}

/** The discovery lists (50-integrations.md §3): trending, popular and upcoming. */
export type TmdbTrendingType = 'all' | 'movie' | 'tv';
export type TmdbTimeWindow = 'day' | 'week';

export interface TmdbMovie extends TmdbTitleExtras {
  id: number;
  title: string;
  originalTitle: string;
  releaseDate: string | null;
  year: number | null;
  runtime: number | null;
  status: string;
  imdbId: string | null;
  posterPath: string | null;
  overview: string;
  genres: string[];
}

export interface TmdbEpisodeRef {
  seasonNumber: number;
  episodeNumber: number;
  name: string;
  airDate: string | null;
}

export interface TmdbSeasonSummary {
  seasonNumber: number;
  episodeCount: number;
  airDate: string | null;
  name: string;
  posterPath: string | null;
}

export interface TmdbTv extends TmdbTitleExtras {
  id: number;
  /** `episode_run_time[0]` (minutes); null when TMDB lists none. */
  episodeRuntime?: number | null;
  overview?: string;
  name: string;
  originalName: string;
  firstAirDate: string | null;
  year: number | null;
  lastAirDate: string | null;
  status: string;
  inProduction: boolean;
  numberOfSeasons: number;
  posterPath: string | null;
  seasons: TmdbSeasonSummary[];
  nextEpisodeToAir: TmdbEpisodeRef | null;
  lastEpisodeToAir: TmdbEpisodeRef | null;
  /** From `external_ids`; Sonarr needs it (50-integrations.md §4.2). */
  tvdbId: number | null;
}

export interface TmdbEpisode {
  seasonNumber: number;
  episodeNumber: number;
  name: string;
  airDate: string | null;
  runtime: number | null;
  overview: string;
  stillPath: string | null;
}

export interface TmdbSeason {
  seasonNumber: number;
  episodes: TmdbEpisode[];
}
