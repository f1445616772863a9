// Which parts of the TMDB world are on disk: files with resolution, codec and HDR kind, and the
// moment each landed in the library. Aired-but-missing and upcoming episodes stay without a file
// (the media server lists them as virtual items, as Jellyfin and Emby do).
import type { AudioSpec, HdrKind, VideoCodec, VideoSpec } from '../media-server/types.js';
import type { MovieFixture, TvFixture } from '../tmdb/fixtures.js';
import type { ShowPhase } from './catalog.js';
import type { Rng } from './prng.js';
import { LANGUAGES } from './words.js';

export const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface MediaFile {
  addedAt: Date;
  video: VideoSpec;
  audio: AudioSpec;
}

export interface LibraryMovie {
  fixture: MovieFixture;
  file: MediaFile;
}

export interface LibraryEpisode {
  season: number;
  episode: number;
  title: string;
  /** TMDB air date (YYYY-MM-DD). */
  airDate: string;
  /** Minutes; the show's usual runtime for episodes TMDB has not timed yet. */
  runtime: number;
  /** Absent: known from metadata but not on disk (missing, or not aired yet). */
  file?: MediaFile;
}

export interface LibraryShow {
  fixture: TvFixture;
  phase: ShowPhase;
  addedAt: Date;
  episodes: LibraryEpisode[];
}

type Profile = [number, number, VideoCodec, HdrKind, number?];

/** Stream profiles with weights; older titles lean to HD and SD. */
const MODERN: [Profile, number][] = [
  [[3840, 2160, 'hevc', 'HDR10'], 14],
  [[3840, 1608, 'hevc', 'DolbyVision', 8], 6],
  [[3840, 2160, 'hevc', 'DolbyVision', 5], 3],
  [[3840, 2160, 'hevc', 'HDR10Plus'], 3],
  [[3840, 2160, 'av1', 'HDR10'], 2],
  [[1920, 1080, 'h264', 'SDR'], 30],
  [[1920, 800, 'h264', 'SDR'], 8],
  [[1920, 1080, 'hevc', 'SDR'], 10],
  [[1920, 1080, 'av1', 'SDR'], 4],
  [[1920, 1080, 'vp9', 'SDR'], 2],
  [[1280, 720, 'h264', 'SDR'], 12],
  [[1280, 720, 'hevc', 'HLG'], 2],
];
const CLASSIC: [Profile, number][] = [
  [[1920, 1080, 'h264', 'SDR'], 40],
  [[1440, 1080, 'h264', 'SDR'], 8],
  [[1280, 720, 'h264', 'SDR'], 25],
  [[720, 480, 'mpeg2video', 'SDR'], 12],
  [[720, 576, 'h264', 'SDR'], 10],
  [[3840, 2160, 'hevc', 'HDR10'], 5],
];

export function videoFor(rng: Rng, year: number): VideoSpec {
  const [width, height, codec, hdr, dvProfile] = rng.weighted(year >= 2005 ? MODERN : CLASSIC);
  const bitRate =
    width >= 3200 ? 40_000_000 : width >= 1400 ? 10_000_000 : width >= 1200 ? 5_000_000 : 2_500_000;
  return {
    width,
    height,
    codec,
    hdr,
    ...(dvProfile ? { dvProfile } : {}),
    bitDepth: hdr !== 'SDR' || codec === 'av1' ? 10 : 8,
    bitRate: Math.round(bitRate * rng.around(1, 0.25)),
    frameRate: rng.weighted([
      [23.976, 8],
      [25, 1],
      [29.97, 1],
    ]),
  };
}

export function audioFor(rng: Rng, video: VideoSpec, originalLanguage: string): AudioSpec {
  const language = LANGUAGES.find(([code]) => code === originalLanguage)?.[1] ?? 'eng';
  if (video.width < 1200) return { codec: 'ac3', channels: 2, language, bitRate: 192_000 };
  return rng.weighted<AudioSpec>([
    [{ codec: 'eac3', channels: 6, language, bitRate: 640_000 }, 4],
    [{ codec: 'truehd', channels: 8, language, bitRate: 4_000_000 }, video.width >= 3200 ? 3 : 0],
    [{ codec: 'dts', channels: 6, language, bitRate: 1_509_000 }, 2],
    [{ codec: 'aac', channels: 2, language, bitRate: 256_000 }, 3],
  ]);
}

const dayStart = (date: string) => new Date(`${date}T00:00:00Z`).getTime();

/** Released movies are on disk with probability `share`, added after their release. */
export function stockMovies(
  rng: Rng,
  movies: MovieFixture[],
  now: Date,
  share: number,
): LibraryMovie[] {
  const out: LibraryMovie[] = [];
  const today = now.toISOString().slice(0, 10);
  for (const fixture of movies) {
    if (fixture.adult || !fixture.release_date || fixture.release_date > today) continue;
    if (!rng.chance(share)) continue;
    const released = dayStart(fixture.release_date);
    // A third arrived in the last 90 days, so "latest" shelves and the new-items feed move.
    const ago = rng.chance(0.33) ? rng.int(0, 89) * DAY : rng.int(90, 900) * DAY;
    const at = Math.max(released + rng.int(1, 20) * DAY, now.getTime() - ago);
    const addedAt = new Date(Math.min(at, now.getTime() - HOUR) - rng.int(0, 23) * HOUR);
    const video = videoFor(rng, Number(fixture.release_date.slice(0, 4)));
    out.push({
      fixture,
      file: { addedAt, video, audio: audioFor(rng, video, fixture.original_language) },
    });
  }
  return out;
}

/**
 * A show on disk: every regular episode TMDB dates is listed; those aired before `now` have a
 * file that landed a few hours after airing (or when the show was added), except a few that are
 * missing. Unaired ones are virtual.
 */
export function stockShow(rng: Rng, fixture: TvFixture, phase: ShowPhase, now: Date): LibraryShow {
  const first = dayStart(fixture.first_air_date);
  const addedAt = new Date(
    Math.max(first + rng.int(2, 30) * DAY, now.getTime() - rng.int(20, 700) * DAY),
  );
  const missingShare = rng.chance(0.2) ? 0.15 : 0;
  const episodes: LibraryEpisode[] = [];
  for (const season of fixture.seasons) {
    if (season.season_number < 1) continue;
    const year = Number((season.air_date ?? fixture.first_air_date).slice(0, 4));
    const video = videoFor(rng, year);
    const audio = audioFor(rng, video, fixture.original_language);
    for (const ep of season.episodes) {
      if (!ep.air_date) continue;
      const runtime = ep.runtime ?? season.episodes.find((e) => e.runtime)?.runtime ?? 45;
      const entry: LibraryEpisode = {
        season: season.season_number,
        episode: ep.episode_number,
        title: ep.names?.['en-US'] ?? `Episode ${ep.episode_number}`,
        airDate: ep.air_date,
        runtime,
      };
      const landed = Math.max(
        dayStart(ep.air_date) + rng.int(3, 30) * HOUR,
        addedAt.getTime() + rng.int(0, 120) * 60_000,
      );
      if (landed < now.getTime() && !rng.chance(missingShare)) {
        entry.file = { addedAt: new Date(landed), video, audio };
      }
      episodes.push(entry);
    }
  }
  return { fixture, phase, addedAt, episodes };
}
