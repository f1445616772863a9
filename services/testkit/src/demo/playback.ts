// A year of viewing history, one user at a time: evenings more than mornings, weekends more
// than weekdays, favourite genres and shows followed episode by episode, on the user's own
// devices, transcoding only where the client cannot play the file as it is.
import type { LibraryMovie, LibraryShow, MediaFile } from './library.js';
import { DAY } from './library.js';
import type { ClientProfile, WorldDevice, WorldUser } from './people.js';
import { CLIENTS } from './people.js';
import type { Rng } from './prng.js';

export const HISTORY_DAYS = 365;

/** `movie:<tmdb id>` or `episode:<show tmdb id>:<season>:<episode>`. */
export type ItemKey = string;
export const movieKey = (tmdbId: number): ItemKey => `movie:${tmdbId}`;
export const episodeKey = (showId: number, season: number, episode: number): ItemKey =>
  `episode:${showId}:${season}:${episode}`;

export interface WorldPlay {
  at: Date;
  user: string;
  deviceId: string;
  item: ItemKey;
  /** The Playback Reporting plugin's text: `DirectPlay`, `DirectStream`, `Transcode (v:… a:…)`. */
  method: string;
  /** Why the server transcoded (Emby records these); empty for direct plays. */
  reasons: string[];
  durationSec: number;
  pauseSec: number;
}

/** Something a user can start: a movie or an episode file, with its runtime in minutes. */
export interface Playable {
  key: ItemKey;
  file: MediaFile;
  minutes: number;
  genres: number[];
  popularity: number;
}

export interface Shelf {
  /** On-disk movies, oldest file first. */
  movies: Playable[];
  /** Per show, its on-disk episodes in airing order. */
  shows: { id: number; genres: number[]; popularity: number; episodes: Playable[] }[];
}

export function shelfOf(movies: LibraryMovie[], shows: LibraryShow[]): Shelf {
  return {
    movies: movies
      .map((m) => ({
        key: movieKey(m.fixture.id),
        file: m.file,
        minutes: m.fixture.runtime || 100,
        genres: m.fixture.genre_ids,
        popularity: m.fixture.popularity,
      }))
      .sort((a, b) => a.file.addedAt.getTime() - b.file.addedAt.getTime()),
    shows: shows.map((s) => ({
      id: s.fixture.id,
      genres: s.fixture.genre_ids,
      popularity: s.fixture.popularity,
      episodes: s.episodes
        .filter((e) => e.file)
        .map((e) => ({
          key: episodeKey(s.fixture.id, e.season, e.episode),
          file: e.file as MediaFile,
          minutes: e.runtime,
          genres: s.fixture.genre_ids,
          popularity: s.fixture.popularity,
        })),
    })),
  };
}

/** How a client plays a file, in the plugin's wording, and the server's reasons. */
export function playMethod(
  rng: Rng,
  client: ClientProfile,
  file: MediaFile,
): { method: string; reasons: string[] } {
  const v = file.video;
  // Dolby Vision profile 8 carries an HDR10 base layer that HDR10 screens play directly.
  const rangeOk =
    client.hdr.includes(v.hdr) ||
    (v.hdr === 'DolbyVision' && v.dvProfile === 8 && client.hdr.includes('HDR10'));
  const reasons: string[] = [];
  if (!client.codecs.includes(v.codec)) reasons.push('VideoCodecNotSupported');
  else if (!rangeOk) reasons.push('VideoRangeTypeNotSupported');
  const audioOk = client.audio.includes(file.audio.codec);
  if (!audioOk) reasons.push('AudioCodecNotSupported');
  if (reasons.length === 0)
    return { method: rng.chance(0.1) ? 'DirectStream' : 'DirectPlay', reasons };
  const video = reasons[0] === 'AudioCodecNotSupported' ? 'direct' : 'h264';
  return { method: `Transcode (v:${video} a:${audioOk ? 'direct' : 'aac'})`, reasons };
}

function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rng.next(); p > limit; p *= rng.next()) k++;
  return k;
}

/** Index of the first entry whose file arrived after `at` (the shelf is sorted by arrival). */
function arrivedBy(list: Playable[], at: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as Playable).file.addedAt.getTime() <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const liking = (user: WorldUser, p: { genres: number[]; popularity: number }) =>
  (p.genres.some((g) => user.genres.includes(g)) ? 4 : 1) * (1 + p.popularity / 60);

/** What the user watches next at `at`: a movie, or the next episode of a followed show. */
export class Viewer {
  private readonly seen = new Set<ItemKey>();
  private readonly progress = new Map<number, number>();

  constructor(
    private readonly rng: Rng,
    readonly user: WorldUser,
    private readonly shelf: Shelf,
  ) {}

  next(at: number): Playable | undefined {
    return this.rng.chance(this.user.seriesShare)
      ? (this.episode(at) ?? this.movie(at))
      : this.movie(at);
  }

  movie(at: number): Playable | undefined {
    const pool = this.shelf.movies.slice(0, arrivedBy(this.shelf.movies, at));
    const fresh = pool.filter((m) => !this.seen.has(m.key));
    if (fresh.length === 0) return undefined;
    const pick = this.rng.weighted(
      fresh.map((m) => {
        const isNew = at - m.file.addedAt.getTime() < 14 * DAY ? 3 : 1;
        return [m, liking(this.user, m) * isNew] as const;
      }),
    );
    this.seen.add(pick.key);
    return pick;
  }

  episode(at: number): Playable | undefined {
    const ready = (show: Shelf['shows'][number]) => {
      const ep = show.episodes[this.progress.get(show.id) ?? 0];
      return ep !== undefined && ep.file.addedAt.getTime() <= at;
    };
    let show = this.shelf.shows.find((s) => this.progress.has(s.id) && ready(s));
    if (!show) {
      const candidates = this.shelf.shows.filter((s) => !this.progress.has(s.id) && ready(s));
      if (candidates.length === 0) return undefined;
      show = this.rng.weighted(candidates.map((s) => [s, liking(this.user, s)] as const));
      this.progress.set(show.id, 0);
    }
    const index = this.progress.get(show.id) ?? 0;
    this.progress.set(show.id, index + 1);
    return show.episodes[index];
  }
}

export function pickDevice(rng: Rng, user: WorldUser): WorldDevice {
  return rng.weighted(user.devices.map((d) => [d, d.weight] as const));
}

/** The user's plays over the last HISTORY_DAYS days, oldest first, all finished before `now`. */
export function historyOf(rng: Rng, viewer: Viewer, now: Date): WorldPlay[] {
  const { user } = viewer;
  const plays: WorldPlay[] = [];
  const firstDay = Math.floor(now.getTime() / DAY) * DAY - (HISTORY_DAYS - 1) * DAY;
  for (let day = firstDay; day <= now.getTime(); day += DAY) {
    if (day + DAY < user.joinedAt.getTime() || day > user.activeUntil.getTime()) continue;
    const weekday = new Date(day).getUTCDay();
    const weekend = weekday === 0 || weekday === 6 ? 1.5 : 1;
    const count = poisson(rng, user.playsPerDay * weekend);
    let at = day + Math.max(0, Math.min(23.5, rng.around(user.peakHour, 2.5))) * 3_600_000;
    for (let i = 0; i < count; i++) {
      const item = viewer.next(at);
      if (!item) break;
      const device = pickDevice(rng, user);
      const finished = rng.chance(0.75);
      const share = finished ? rng.around(0.96, 0.04) : rng.around(0.3, 0.25);
      const durationSec = Math.max(60, Math.round(item.minutes * 60 * Math.min(1, share)));
      if (at < user.joinedAt.getTime() || at + durationSec * 1000 > now.getTime()) break;
      plays.push({
        at: new Date(at),
        user: user.name,
        deviceId: device.deviceId,
        item: item.key,
        ...playMethod(rng, CLIENTS[device.kind], item.file),
        durationSec,
        pauseSec: rng.chance(0.4) ? rng.int(5, 900) : 0,
      });
      at += durationSec * 1000 + rng.int(2, 40) * 60_000;
    }
  }
  return plays;
}
