// Renders fixtures as TMDB v3 JSON in the requested language, with TMDB's field names and its
// fallbacks: a missing translation gives the default (en-US) title and an empty overview.
import {
  type EpisodeFixture,
  type MovieFixture,
  type PersonFixture,
  type SeasonFixture,
  type TmdbFixtures,
  type Translations,
  type TvFixture,
} from './fixtures.js';

export function localized(translations: Translations, language: string) {
  const prefix = language.split('-')[0]!;
  const exact =
    translations[language] ??
    Object.entries(translations).find(([tag]) => tag.split('-')[0] === prefix)?.[1];
  return exact ?? { title: translations['en-US']!.title, overview: '' };
}

const isChinese = (language: string) => language.startsWith('zh');

export function movieResult(m: MovieFixture, language: string) {
  const text = localized(m.translations, language);
  return {
    adult: m.adult,
    backdrop_path: m.backdrop_path,
    genre_ids: m.genre_ids,
    id: m.id,
    original_language: m.original_language,
    original_title: m.original_title,
    overview: text.overview,
    popularity: m.popularity,
    poster_path: m.poster_path,
    release_date: m.release_date,
    title: text.title,
    video: false,
    vote_average: m.vote_average,
    vote_count: m.vote_count,
  };
}

export function tvResult(s: TvFixture, language: string) {
  const text = localized(s.translations, language);
  return {
    adult: s.adult,
    backdrop_path: s.backdrop_path,
    genre_ids: s.genre_ids,
    id: s.id,
    origin_country: s.origin_country,
    original_language: s.original_language,
    original_name: s.original_name,
    overview: text.overview,
    popularity: s.popularity,
    poster_path: s.poster_path,
    first_air_date: s.first_air_date,
    name: text.title,
    vote_average: s.vote_average,
    vote_count: s.vote_count,
  };
}

/** The person fields TMDB sends wherever a person appears (search results, credits). */
function personFields(p: PersonFixture) {
  return {
    adult: false,
    gender: 0,
    id: p.id,
    known_for_department: p.known_for_department,
    name: p.name,
    original_name: p.original_name,
    popularity: p.popularity,
    profile_path: p.profile_path,
  };
}

export function personResult(p: PersonFixture, fixtures: TmdbFixtures, language: string) {
  const knownFor = fixtures.movies
    .filter((m) => p.known_for_movie_ids.includes(m.id))
    .map((m) => ({ ...movieResult(m, language), media_type: 'movie' }));
  return { ...personFields(p), known_for: knownFor };
}

function genres(ids: number[], fixtures: TmdbFixtures, language: string) {
  const key = isChinese(language) ? 'zh' : 'en';
  return ids.map((id) => ({
    id,
    name: fixtures.genres[id]?.[key] ?? fixtures.genres[id]?.en ?? '',
  }));
}

export function movieDetails(m: MovieFixture, fixtures: TmdbFixtures, language: string) {
  const { genre_ids: ids, ...result } = movieResult(m, language);
  return {
    ...result,
    belongs_to_collection: null,
    budget: 0,
    genres: genres(ids, fixtures, language),
    homepage: '',
    imdb_id: m.imdb_id,
    origin_country: ['US'],
    production_companies: [],
    production_countries: [],
    revenue: 0,
    runtime: m.runtime,
    spoken_languages: [],
    status: m.status,
    tagline: '',
  };
}

export function movieExternalIds(m: MovieFixture) {
  return {
    id: m.id,
    imdb_id: m.imdb_id,
    wikidata_id: null,
    facebook_id: null,
    instagram_id: null,
    twitter_id: null,
  };
}

export function tvExternalIds(s: TvFixture) {
  return {
    id: s.id,
    imdb_id: s.imdb_id,
    freebase_mid: null,
    freebase_id: null,
    tvdb_id: s.tvdb_id,
    tvrage_id: null,
    wikidata_id: null,
    facebook_id: null,
    instagram_id: null,
    twitter_id: null,
  };
}

function seasonName(n: number, language: string) {
  if (n === 0) return isChinese(language) ? '特别篇' : 'Specials';
  return isChinese(language) ? `第 ${n} 季` : `Season ${n}`;
}

export function episodeObject(
  show: TvFixture,
  season: SeasonFixture,
  e: EpisodeFixture,
  language: string,
) {
  const fallback = isChinese(language)
    ? `第 ${e.episode_number} 集`
    : `Episode ${e.episode_number}`;
  const last = season.episodes[season.episodes.length - 1];
  return {
    air_date: e.air_date,
    episode_number: e.episode_number,
    episode_type: e === last && season.season_number > 0 ? 'finale' : 'standard',
    id: show.id * 10_000 + season.season_number * 100 + e.episode_number,
    name: e.names?.[language] ?? fallback,
    overview: '',
    production_code: '',
    runtime: e.runtime,
    season_number: season.season_number,
    show_id: show.id,
    still_path: e.still_path,
    vote_average: 0,
    vote_count: 0,
  };
}

/** The last aired and the next scheduled regular episode, relative to `today`. */
function airing(show: TvFixture, today: string, language: string) {
  const all = show.seasons
    .filter((s) => s.season_number > 0)
    .flatMap((s) => s.episodes.map((e) => ({ s, e })))
    .filter(({ e }) => e.air_date !== null);
  const aired = all.filter(({ e }) => e.air_date! <= today);
  const upcoming = all.filter(({ e }) => e.air_date! > today);
  const last = aired[aired.length - 1];
  const next = upcoming[0];
  return {
    last: last ? episodeObject(show, last.s, last.e, language) : null,
    next: next ? episodeObject(show, next.s, next.e, language) : null,
  };
}

export function tvDetails(
  show: TvFixture,
  fixtures: TmdbFixtures,
  language: string,
  today: string,
) {
  const { genre_ids: ids, ...result } = tvResult(show, language);
  const { last, next } = airing(show, today, language);
  const regular = show.seasons.filter((s) => s.season_number > 0);
  return {
    ...result,
    created_by: [],
    episode_run_time: [],
    genres: genres(ids, fixtures, language),
    homepage: '',
    in_production: show.in_production,
    languages: [show.original_language],
    last_air_date: last?.air_date ?? null,
    last_episode_to_air: last,
    next_episode_to_air: next,
    networks: [],
    number_of_episodes: regular.reduce((sum, s) => sum + s.episodes.length, 0),
    number_of_seasons: regular.length,
    production_companies: [],
    production_countries: [],
    seasons: show.seasons.map((s) => ({
      air_date: s.air_date,
      episode_count: s.episodes.length,
      id: show.id * 100 + s.season_number,
      name: seasonName(s.season_number, language),
      overview: '',
      poster_path: s.poster_path,
      season_number: s.season_number,
      vote_average: 0,
    })),
    spoken_languages: [],
    status: show.status,
    tagline: '',
    type: 'Scripted',
  };
}

export function seasonDetails(show: TvFixture, season: SeasonFixture, language: string) {
  return {
    _id: `${show.id.toString(16)}${season.season_number.toString(16).padStart(4, '0')}`,
    air_date: season.air_date,
    episodes: season.episodes.map((e) => ({
      ...episodeObject(show, season, e, language),
      crew: [],
      guest_stars: [],
    })),
    name: seasonName(season.season_number, language),
    overview: '',
    id: show.id * 100 + season.season_number,
    poster_path: season.poster_path,
    season_number: season.season_number,
    vote_average: 0,
  };
}

/**
 * `credits` as TMDB appends it to movie and tv details: the people who list the title among
 * theirs, in billing order, with the role they played there (TMDB's cast fields; crew empty).
 */
export function credits(fixtures: TmdbFixtures, kind: 'movie' | 'tv', id: number) {
  const cast = fixtures.people
    .filter((p) =>
      kind === 'movie'
        ? p.known_for_movie_ids.includes(id)
        : (p.known_for_tv_ids ?? []).includes(id),
    )
    .filter((p) => p.known_for_department === 'Acting')
    .map((p, order) => ({
      ...personFields(p),
      cast_id: order + 1,
      character: p.roles?.[`${kind}:${id}`] ?? '',
      credit_id: `${p.id.toString(16)}${id.toString(16)}`,
      order,
    }));
  return { id, cast, crew: [] };
}
