// The demo's media users: who they are, when they joined (or drifted away), how much and when
// they watch, what they like, and on which devices. Flavour-neutral: app names per server are
// chosen when the world is loaded into a fake (media.ts).
import type { HdrKind, VideoCodec } from '../media-server/types.js';
import { DAY } from './library.js';
import type { Rng } from './prng.js';
import { FIRST_NAMES, MOVIE_GENRES, TV_GENRES } from './words.js';

/** Kinds of client app, each with what it plays without transcoding. */
export type ClientKind =
  'web' | 'android' | 'ios' | 'android-tv' | 'apple-tv' | 'desktop' | 'kodi' | 'roku';

export interface ClientProfile {
  codecs: VideoCodec[];
  hdr: HdrKind[];
  /** Audio codecs played as-is; others get an audio-only transcode. */
  audio: string[];
  /** Device names this kind of client reports. */
  names: string[];
}

const ALL_CODECS: VideoCodec[] = ['h264', 'hevc', 'av1', 'vp9', 'mpeg2video'];
const ALL_HDR: HdrKind[] = ['SDR', 'HDR10', 'HDR10Plus', 'HLG', 'DolbyVision'];
const ALL_AUDIO = ['aac', 'ac3', 'eac3', 'dts', 'truehd'];

export const CLIENTS: Record<ClientKind, ClientProfile> = {
  web: {
    codecs: ['h264', 'vp9', 'av1'],
    hdr: ['SDR'],
    audio: ['aac', 'ac3', 'eac3'],
    names: ['Chrome', 'Firefox', 'Edge', 'Safari'],
  },
  android: {
    codecs: ['h264', 'hevc', 'vp9', 'av1'],
    hdr: ['SDR', 'HDR10', 'HLG'],
    audio: ['aac', 'ac3', 'eac3'],
    names: ['Pixel 8', 'Galaxy S24', 'OnePlus 12', 'Galaxy Tab S9'],
  },
  ios: {
    codecs: ['h264', 'hevc'],
    hdr: ['SDR', 'HDR10', 'HLG', 'DolbyVision'],
    audio: ['aac', 'ac3', 'eac3'],
    names: ['iPhone 15', 'iPhone 13 mini', 'iPad Air'],
  },
  'android-tv': {
    codecs: ['h264', 'hevc', 'vp9', 'av1', 'mpeg2video'],
    hdr: ['SDR', 'HDR10', 'HDR10Plus', 'HLG', 'DolbyVision'],
    audio: ALL_AUDIO,
    names: ['SHIELD Android TV', 'Chromecast with Google TV', 'Fire TV Stick 4K'],
  },
  'apple-tv': {
    codecs: ALL_CODECS,
    hdr: ALL_HDR,
    audio: ALL_AUDIO,
    names: ['Living Room Apple TV', 'Apple TV 4K', 'Bedroom Apple TV'],
  },
  desktop: {
    codecs: ALL_CODECS,
    hdr: ['SDR', 'HDR10', 'HLG'],
    audio: ALL_AUDIO,
    names: ['DESKTOP-7F3K2Q', 'MacBook Pro', 'htpc'],
  },
  kodi: { codecs: ALL_CODECS, hdr: ALL_HDR, audio: ALL_AUDIO, names: ['LibreELEC', 'Kodi Den'] },
  roku: {
    codecs: ['h264', 'hevc', 'vp9'],
    hdr: ['SDR', 'HDR10', 'HLG'],
    audio: ['aac', 'ac3', 'eac3'],
    names: ['Roku Ultra', 'Roku Express 4K'],
  },
};

export interface WorldDevice {
  /** The DeviceId the client reports (stable per install). */
  deviceId: string;
  kind: ClientKind;
  name: string;
  ip: string;
  /** Relative use; the first device is the user's main screen. */
  weight: number;
}

export interface WorldUser {
  name: string;
  password: string;
  admin: boolean;
  disabled: boolean;
  /** Sees only the main movie library (a restricted account). */
  limited: boolean;
  joinedAt: Date;
  /** After this instant the user no longer watches (churned); `now` for active users. */
  activeUntil: Date;
  /** Mean plays per day on a weekday. */
  playsPerDay: number;
  /** Hour of day (UTC) around which the user watches. */
  peakHour: number;
  /** Share of plays that are episodes rather than movies. */
  seriesShare: number;
  /** Genres the user picks more often. */
  genres: number[];
  devices: WorldDevice[];
}

function hex(rng: Rng, length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(rng.next() * 16).toString(16);
  return out;
}

function devicesFor(rng: Rng, user: string, index: number): WorldDevice[] {
  const kinds = rng.sample(
    Object.keys(CLIENTS) as ClientKind[],
    rng.weighted([
      [1, 3],
      [2, 4],
      [3, 2],
    ]),
  );
  return kinds.map((kind, i) => ({
    deviceId: `${kind}-${user}-${hex(rng, 8)}`,
    kind,
    name: rng.pick(CLIENTS[kind].names),
    ip: `10.${(index >> 8) & 255}.${index & 255}.${10 + i}`,
    weight: i === 0 ? 6 : rng.int(1, 3),
  }));
}

/** `count` users (plus the server admin), deterministic for the rng's seed. */
export function inventUsers(rng: Rng, count: number, now: Date): WorldUser[] {
  const names = rng.sample(FIRST_NAMES, Math.min(count, FIRST_NAMES.length));
  while (names.length < count) names.push(`${rng.pick(FIRST_NAMES)}${names.length}`);
  const users: WorldUser[] = [];
  const all = [{ name: 'admin', admin: true }, ...names.map((name) => ({ name, admin: false }))];
  all.forEach(({ name, admin }, i) => {
    const kind = admin
      ? 'regular'
      : rng.weighted([
          ['heavy', 15],
          ['regular', 45],
          ['light', 25],
          ['new', 8],
          ['churned', 7],
        ] as const);
    const joinedDaysAgo = kind === 'new' ? rng.int(4, 70) : rng.int(95, 900);
    const joinedAt = new Date(now.getTime() - joinedDaysAgo * DAY - rng.int(0, 86_399) * 1000);
    const activeUntil =
      kind === 'churned' ? new Date(now.getTime() - rng.int(20, 70) * DAY) : new Date(now);
    const playsPerDay =
      kind === 'heavy'
        ? rng.around(3, 0.8)
        : kind === 'light'
          ? rng.around(0.35, 0.2)
          : rng.around(1.2, 0.5);
    users.push({
      name,
      password: `${name}-demo`,
      admin,
      disabled: kind === 'churned' && rng.chance(0.5),
      limited: !admin && rng.chance(0.1),
      joinedAt,
      activeUntil,
      playsPerDay: Math.max(0.1, playsPerDay),
      peakHour: rng.around(20.5, 2),
      seriesShare: rng.around(0.55, 0.3),
      genres: [...rng.sample(MOVIE_GENRES, 2), ...rng.sample(TV_GENRES, 1)],
      devices: devicesFor(rng, name, i),
    });
  });
  return users;
}
