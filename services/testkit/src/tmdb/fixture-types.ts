// Shapes of the fake TMDB's seed catalogue (what the fixtures hold, not what the API sends).

/** Title (or name) and overview per TMDB language tag (`en-US`, `zh-CN`). */
export type Translations = Record<string, { title: string; overview: string }>;

export interface MovieFixture {
  id: number;
  original_title: string;
  original_language: string;
  translations: Translations;
  /** `""` for titles without a date yet, exactly as TMDB sends it. */
  release_date: string;
  runtime: number;
  status: 'Rumored' | 'Planned' | 'In Production' | 'Post Production' | 'Released' | 'Canceled';
  imdb_id: string | null;
  genre_ids: number[];
  popularity: number;
  vote_average: number;
  vote_count: number;
  poster_path: string | null;
  backdrop_path: string | null;
  adult: boolean;
}

export interface EpisodeFixture {
  episode_number: number;
  air_date: string | null;
  runtime: number | null;
  still_path: string | null;
  /** Localised names; TMDB falls back to "Episode N" / "第 N 集" without one. */
  names?: Record<string, string>;
}

export interface SeasonFixture {
  season_number: number;
  air_date: string | null;
  poster_path: string | null;
  episodes: EpisodeFixture[];
}

export interface TvFixture {
  id: number;
  original_name: string;
  original_language: string;
  translations: Translations;
  first_air_date: string;
  status: 'Returning Series' | 'Planned' | 'In Production' | 'Ended' | 'Canceled' | 'Pilot';
  in_production: boolean;
  genre_ids: number[];
  popularity: number;
  vote_average: number;
  vote_count: number;
  poster_path: string | null;
  backdrop_path: string | null;
  adult: boolean;
  origin_country: string[];
  tvdb_id: number | null;
  imdb_id: string | null;
  seasons: SeasonFixture[];
}

export interface PersonFixture {
  id: number;
  name: string;
  original_name: string;
  known_for_department: string;
  popularity: number;
  profile_path: string | null;
  known_for_movie_ids: number[];
  /** Series the person is billed in (`credits` of `/tv/{id}`). */
  known_for_tv_ids?: number[];
  /** The character per title, keyed `movie:<id>` or `tv:<id>`. */
  roles?: Record<string, string>;
}

export interface TmdbFixtures {
  movies: MovieFixture[];
  tv: TvFixture[];
  people: PersonFixture[];
  /** Genre names per language prefix (`en`, `zh`). */
  genres: Record<number, Record<string, string>>;
}
