// A small deterministic library for tests and the demo: movies in 4K/1080p/720p/SD with mixed
// codecs and HDR kinds, two series with real and "missing" episodes, users, sessions, devices
// and Playback Reporting rows. Same input, same ids, on every run.
import {
  DAY,
  MINUTE_TICKS,
  MOVIES,
  SEED_PASSWORDS,
  SERIES,
  STEREO,
  SURROUND,
  type EpisodeDef,
  type SeededLibrary,
  type SeededSeries,
} from './seed-catalog.js';
import { seedPeople } from './seed-people.js';
import { addItem, addLibrary } from './state.js';
import type { FakeItem, FakeLibrary, MediaState } from './types.js';

export { SEED_PASSWORDS };
export type { SeededLibrary, SeededSeries };

export interface SeedOptions {
  /** The instant the seed is built around (item ages, sessions, playback rows). */
  now?: Date;
  /** Whether to add users, devices, sessions and playback rows (default true). */
  people?: boolean;
}

function slug(s: string): string {
  return s.replace(/[:/?'"]/g, '').replace(/\s+/g, ' ');
}

function addSeries(
  state: MediaState,
  lib: FakeLibrary,
  def: (typeof SERIES)[keyof typeof SERIES],
  now: number,
): SeededSeries {
  const base = { libraryId: lib.id, productionYear: def.year, hasPrimaryImage: true };
  const series = addItem(state, {
    ...base,
    type: 'Series',
    name: def.name,
    parentId: lib.id,
    dateCreated: new Date(now - 60 * DAY),
    path: `${lib.path}/${def.name}`,
    overview: `${def.name} (seeded).`,
    providerIds: { Tmdb: def.tmdb, Imdb: def.imdb, Tvdb: def.tvdb },
    genres: SEED_GENRES[def.name] ?? ['Drama'],
  });
  const seasons: FakeItem[] = [];
  const episodes: FakeItem[] = [];
  def.seasons.forEach((eps, s) => {
    const n = s + 1;
    const season = addItem(state, {
      ...base,
      type: 'Season',
      name: `Season ${n}`,
      parentId: series.id,
      seriesId: series.id,
      seriesName: def.name,
      indexNumber: n,
      dateCreated: series.dateCreated,
      providerIds: {},
      path: `${series.path}/Season ${pad(n)}`,
    });
    seasons.push(season);
    let index = 1;
    for (const ep of eps as readonly EpisodeDef[]) {
      const onDisk = ep.days !== undefined;
      const code = `S${pad(n)}E${pad(index)}${ep.end ? `-E${pad(ep.end)}` : ''}`;
      episodes.push(
        addItem(state, {
          ...base,
          type: 'Episode',
          name: ep.title,
          parentId: season.id,
          seriesId: series.id,
          seriesName: def.name,
          seasonId: season.id,
          seasonName: season.name,
          parentIndexNumber: n,
          indexNumber: index,
          ...(ep.end ? { indexNumberEnd: ep.end } : {}),
          dateCreated: new Date(now - (ep.days ?? 0) * DAY),
          // Each episode has its *own* TMDB id, different from the show's (§2.3).
          providerIds: { Tmdb: String(Number(def.tmdb) * 10 + n * 100 + index) },
          locationType: onDisk ? 'FileSystem' : 'Virtual',
          hasPrimaryImage: onDisk,
          runTimeTicks: def.minutes * MINUTE_TICKS,
          ...(onDisk
            ? {
                path: `${season.path}/${slug(def.name)} - ${code} - ${slug(ep.title)}.mkv`,
                video: ep.v,
                audio: STEREO,
                container: 'mkv',
                size: 2_000_000_000,
              }
            : {}),
        }),
      );
      index = (ep.end ?? index) + 1;
    }
  });
  return { series, seasons, episodes };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Genres of the seeded titles (movies by key, series by name); others are `Drama`. */
const SEED_GENRES: Record<string, string[]> = {
  dune: ['Science Fiction', 'Adventure'],
  oppenheimer: ['Drama', 'History'],
  madMax: ['Action', 'Adventure'],
  Severance: ['Drama', 'Mystery', 'Sci-Fi & Fantasy'],
  'The Bear': ['Comedy', 'Drama'],
};

/** Builds the seeded library into `state` and returns handles to what it created. */
export function seedMediaLibrary(state: MediaState, opts: SeedOptions = {}): SeededLibrary {
  const now = (opts.now ?? state.now()).getTime();
  const libraries = {
    movies: addLibrary(state, { name: 'Movies', collectionType: 'movies' }),
    shows: addLibrary(state, { name: 'TV Shows', collectionType: 'tvshows' }),
    collections: addLibrary(state, { name: 'Collections', collectionType: 'boxsets' }),
    playlists: addLibrary(state, { name: 'Playlists', collectionType: 'playlists' }),
  };
  const movies = {} as SeededLibrary['movies'];
  for (const m of MOVIES) {
    const lib = libraries.movies;
    const folder = `${lib.path}/${slug(m.name)} (${m.year})`;
    movies[m.key] = addItem(state, {
      type: 'Movie',
      name: m.name,
      libraryId: lib.id,
      parentId: lib.id,
      ...('original' in m ? { originalTitle: m.original } : {}),
      productionYear: m.year,
      premiereDate: new Date(Date.UTC(m.year, 5, 1)),
      dateCreated: new Date(now - m.days * DAY),
      overview: `${m.name} (seeded).`,
      path: `${folder}/${slug(m.name)} (${m.year}).mkv`,
      providerIds: 'tmdb' in m ? { Tmdb: m.tmdb, Imdb: m.imdb } : {},
      runTimeTicks: m.minutes * MINUTE_TICKS,
      video: { ...m.v },
      audio: m.v.width >= 1800 ? SURROUND : STEREO,
      container: 'mkv',
      size: Math.round((m.v.bitRate / 8) * m.minutes * 60),
      hasPrimaryImage: !('noImage' in m),
      genres: SEED_GENRES[m.key] ?? ['Drama'],
    });
  }
  const series = {
    severance: addSeries(state, libraries.shows, SERIES.severance, now),
    bear: addSeries(state, libraries.shows, SERIES.bear, now),
  };
  const seeded: SeededLibrary = { libraries, movies, series, users: {}, tokens: {} };
  if (opts.people !== false) seedPeople(state, seeded, now);
  return seeded;
}
