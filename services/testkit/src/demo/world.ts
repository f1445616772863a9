// The demo world: one deterministic story told consistently to every fake. TMDB holds the whole
// catalogue (the default fixtures plus a few hundred invented titles), the media server holds the
// part on disk with its users and their history, MoviePilot can find releases for all of it.
import { defaultTmdbFixtures } from '../tmdb/fixtures.js';
import type { TmdbFixtures, TvFixture } from '../tmdb/fixtures.js';
import { inventMovies, inventShows } from './catalog.js';
import type { ShowPhase } from './catalog.js';
import { stockMovies, stockShow } from './library.js';
import type { LibraryMovie, LibraryShow } from './library.js';
import { liveSessions } from './live.js';
import type { WorldSession } from './live.js';
import { inventUsers } from './people.js';
import type { WorldUser } from './people.js';
import { historyOf, shelfOf, Viewer } from './playback.js';
import type { WorldPlay } from './playback.js';
import { createRng } from './prng.js';
import { GENRE_NAMES } from './words.js';

export const DEFAULT_DEMO_SEED = 42;

/** Quiet Harbor (default fixtures) stays off disk: a show members can still request. */
const OFF_DISK = new Set([9200001]);

export interface DemoWorldOptions {
  /** Same seed (and same `now`) → the same world, id for id. */
  seed?: number;
  /** The instant the world is built around; defaults to the current time. */
  now?: Date;
  /** Invented movies (default 240) and shows (default 56) on top of the default fixtures. */
  movies?: number;
  shows?: number;
  /** Media users besides the server admin (default 36). */
  users?: number;
}

export interface DemoWorld {
  seed: number;
  now: Date;
  /** `now` as the YYYY-MM-DD "today" of the TMDB fake. */
  today: string;
  /** Everything TMDB knows: pass as `startFakeTmdb({ fixtures, today })`. */
  tmdb: TmdbFixtures;
  /** What is on disk (or known to the server as virtual episodes). */
  movies: LibraryMovie[];
  shows: LibraryShow[];
  users: WorldUser[];
  /** Playback Reporting history, oldest first. */
  plays: WorldPlay[];
  sessions: WorldSession[];
}

/** Where a default-fixture show stands today (the invented ones carry their phase). */
function phaseOf(show: TvFixture, today: string): ShowPhase {
  if (show.status === 'Ended' || show.status === 'Canceled') return 'ended';
  const dated = show.seasons.flatMap((s) => s.episodes).filter((e) => e.air_date);
  const future = dated.some((e) => (e.air_date as string) > today);
  const past = dated.some((e) => (e.air_date as string) <= today);
  if (future && past) return 'airing';
  return future ? 'between-seasons' : 'announced';
}

export function buildDemoWorld(options: DemoWorldOptions = {}): DemoWorld {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const now = new Date(options.now ?? Date.now());
  const today = now.toISOString().slice(0, 10);
  const rng = createRng(seed);

  const defaults = defaultTmdbFixtures(today);
  const movies = inventMovies(rng.fork('movies'), options.movies ?? 240, today);
  const shows = inventShows(rng.fork('shows'), options.shows ?? 56, today);
  const tmdb: TmdbFixtures = {
    movies: [...defaults.movies, ...movies],
    tv: [...defaults.tv, ...shows.map((s) => s.fixture)],
    people: defaults.people,
    genres: { ...GENRE_NAMES, ...defaults.genres },
  };

  const stock = rng.fork('library');
  const libraryMovies = stockMovies(stock, tmdb.movies, now, 0.82);
  const onDisk = [
    ...defaults.tv
      .filter((s) => !OFF_DISK.has(s.id))
      .map((fixture) => ({ fixture, phase: phaseOf(fixture, today) })),
    ...shows.filter(() => stock.chance(0.8)),
  ];
  const libraryShows = onDisk.map((s) => stockShow(stock, s.fixture, s.phase, now));

  const users = inventUsers(rng.fork('users'), options.users ?? 36, now);
  const shelf = shelfOf(libraryMovies, libraryShows);
  const viewers = users.map((u) => new Viewer(rng.fork(`viewer:${u.name}`), u, shelf));
  const plays = viewers
    .flatMap((v) => historyOf(rng.fork(`history:${v.user.name}`), v, now))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.user.localeCompare(b.user));
  const sessions = liveSessions(rng.fork('live'), viewers, now);

  return {
    seed,
    now,
    today,
    tmdb,
    movies: libraryMovies,
    shows: libraryShows,
    users,
    plays,
    sessions,
  };
}
