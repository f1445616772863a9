// The demo's TMDB side: invented movies and shows as TMDB fixtures. TMDB is the source of truth
// of the world; the media library (library.ts) is the subset of it that is on disk, so every
// ProviderIds.Tmdb in the library resolves in the fake TMDB by construction.
import { addDays } from '../tmdb/fixtures.js';
import type { EpisodeFixture, MovieFixture, SeasonFixture, TvFixture } from '../tmdb/fixtures.js';
import type { Rng } from './prng.js';
import {
  ADJECTIVES,
  EPISODE_TITLES,
  LANGUAGES,
  MOVIE_GENRES,
  NOUNS,
  PLACES,
  TV_GENRES,
} from './words.js';

/** Invented ids sit far above the default fixtures' ids, so the two never collide. */
export const MOVIE_ID_BASE = 5_100_000;
export const SHOW_ID_BASE = 5_200_000;

/** Where a show is in its life, relative to "today". */
export type ShowPhase = 'ended' | 'airing' | 'between-seasons' | 'announced';

export interface InventedShow {
  fixture: TvFixture;
  phase: ShowPhase;
}

/** Unique invented titles from a few patterns over the word lists. */
function titleMaker(rng: Rng): () => string {
  const used = new Set<string>();
  const patterns: (() => string)[] = [
    () => `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`,
    () => `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`,
    () => `${rng.pick(NOUNS)} of ${rng.pick(PLACES)}`,
    () => `The ${rng.pick(NOUNS)} and the ${rng.pick(NOUNS)}`,
    () => `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}s`,
  ];
  return () => {
    for (;;) {
      const title = rng.weighted(patterns.map((p, i) => [p, i < 2 ? 3 : 1] as const))();
      if (!used.has(title)) {
        used.add(title);
        return title;
      }
    }
  };
}

const overview = (rng: Rng, title: string) =>
  `In ${rng.pick(PLACES)}, ${rng.pick(['a', 'an unlikely', 'a weary', 'a young'])} ` +
  `${rng.pick(['detective', 'family', 'crew', 'musician', 'pilot', 'teacher', 'heir'])} ` +
  `finds that ${title.toLowerCase()} hides more than anyone admits.`;

const COUNTRY: Record<string, string> = {
  fr: 'FR',
  ja: 'JP',
  ko: 'KR',
  es: 'ES',
  de: 'DE',
  zh: 'CN',
  da: 'DK',
};

const score = (rng: Rng) => Math.round(rng.around(6.9, 1.6) * 10) / 10;
const popularity = (rng: Rng) => Math.round((4 + rng.next() ** 3 * 320) * 10) / 10;
const language = (rng: Rng) => rng.weighted(LANGUAGES.map(([code, , w]) => [code, w] as const));

export function inventMovies(rng: Rng, count: number, today: string): MovieFixture[] {
  const title = titleMaker(rng.fork('movie-titles'));
  const thisYear = Number(today.slice(0, 4));
  return Array.from({ length: count }, (_, i): MovieFixture => {
    const id = MOVIE_ID_BASE + i * 7 + 1;
    const name = title();
    // A few titles are not out yet: they can be requested but never be on disk.
    const upcoming = rng.chance(0.05);
    const year = rng.weighted([
      [rng.int(thisYear - 3, thisYear), 5],
      [rng.int(2000, thisYear - 4), 4],
      [rng.int(1950, 1999), 2],
    ]);
    const two = (n: number) => String(n).padStart(2, '0');
    const release = upcoming
      ? addDays(today, rng.int(10, 150))
      : `${year}-${two(rng.int(1, 12))}-${two(rng.int(1, 28))}`;
    const released = release <= today;
    return {
      id,
      original_title: name,
      original_language: language(rng),
      translations: { 'en-US': { title: name, overview: overview(rng, name) } },
      release_date: release,
      runtime: rng.int(82, 165),
      status: released ? 'Released' : 'Post Production',
      imdb_id: `tt${30_000_000 + id - MOVIE_ID_BASE}`,
      genre_ids: rng.sample(MOVIE_GENRES, rng.int(1, 3)),
      popularity: popularity(rng),
      vote_average: released ? score(rng) : 0,
      vote_count: released ? rng.int(40, 9000) : 0,
      poster_path: `/demo-movie-${id}.jpg`,
      backdrop_path: rng.chance(0.9) ? `/demo-movie-${id}-backdrop.jpg` : null,
      adult: false,
    };
  });
}

/** `count` weekly episodes from `start`; stills and runtimes only for those already aired. */
function weeklyEpisodes(
  rng: Rng,
  showId: number,
  season: number,
  start: string,
  count: number,
  runtime: number,
  today: string,
): EpisodeFixture[] {
  return Array.from({ length: count }, (_, i) => {
    const airDate = addDays(start, i * 7);
    const aired = airDate <= today;
    const name = season === 1 && i === 0 ? 'Pilot' : rng.pick(EPISODE_TITLES);
    return {
      episode_number: i + 1,
      air_date: airDate,
      runtime: aired ? runtime : null,
      still_path: aired ? `/demo-tv-${showId}-s${season}e${i + 1}.jpg` : null,
      names: { 'en-US': name },
    };
  });
}

function seasonsFor(
  rng: Rng,
  id: number,
  phase: ShowPhase,
  today: string,
  runtime: number,
): SeasonFixture[] {
  const seasonCount = phase === 'ended' ? rng.int(1, 6) : rng.int(1, 4);
  // The current (or latest) season's premiere, then earlier seasons a year apart.
  const latestStart =
    phase === 'airing'
      ? addDays(today, -rng.int(7, 63))
      : phase === 'ended'
        ? addDays(today, -rng.int(200, 5000))
        : addDays(today, -rng.int(90, 400));
  const seasons: SeasonFixture[] = [];
  for (let n = 1; n <= seasonCount; n++) {
    const start = addDays(latestStart, -(seasonCount - n) * rng.int(340, 390));
    seasons.push({
      season_number: n,
      air_date: start,
      poster_path: `/demo-tv-${id}-s${n}.jpg`,
      episodes: weeklyEpisodes(rng, id, n, start, rng.int(6, 12), runtime, today),
    });
  }
  const next = seasonCount + 1;
  if (phase === 'between-seasons') {
    // Announced with dates: every episode of the next season is still to come.
    const start = addDays(today, rng.int(5, 75));
    const episodes = weeklyEpisodes(rng, id, next, start, rng.int(6, 10), runtime, today);
    seasons.push({ season_number: next, air_date: start, poster_path: null, episodes });
  } else if (phase === 'announced') {
    seasons.push({ season_number: next, air_date: null, poster_path: null, episodes: [] });
  }
  return seasons;
}

export function inventShows(rng: Rng, count: number, today: string): InventedShow[] {
  const title = titleMaker(rng.fork('show-titles'));
  return Array.from({ length: count }, (_, i): InventedShow => {
    const id = SHOW_ID_BASE + i * 11 + 3;
    const name = title();
    const phase = rng.weighted<ShowPhase>([
      ['ended', 30],
      ['airing', 28],
      ['between-seasons', 27],
      ['announced', 15],
    ]);
    const runtime = rng.pick([24, 30, 42, 45, 50, 55, 60]);
    const seasons = seasonsFor(rng, id, phase, today, runtime);
    const lang = language(rng);
    const fixture: TvFixture = {
      id,
      original_name: name,
      original_language: lang,
      translations: { 'en-US': { title: name, overview: overview(rng, name) } },
      first_air_date: seasons[0]?.air_date ?? today,
      status: phase === 'ended' ? 'Ended' : 'Returning Series',
      in_production: phase !== 'ended',
      genre_ids: rng.sample(TV_GENRES, rng.int(1, 3)),
      popularity: popularity(rng),
      vote_average: score(rng),
      vote_count: rng.int(20, 5000),
      poster_path: `/demo-tv-${id}.jpg`,
      backdrop_path: `/demo-tv-${id}-backdrop.jpg`,
      adult: false,
      origin_country: [lang === 'en' ? rng.pick(['US', 'GB', 'CA', 'AU']) : COUNTRY[lang]!],
      // A handful are not on TheTVDB, as with real niche shows (Sonarr cannot add those).
      tvdb_id: rng.chance(0.93) ? 900_000 + i : null,
      imdb_id: `tt${31_000_000 + i}`,
      seasons,
    };
    return { fixture, phase };
  });
}
