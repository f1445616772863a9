// The seeded catalogue: real titles with TMDB/IMDb ids, and one stream profile per item so the
// quality pages see every resolution bucket, codec and HDR kind of 50-integrations.md §1.6.
import type {
  AudioSpec,
  FakeItem,
  FakeLibrary,
  FakeUser,
  HdrKind,
  VideoCodec,
  VideoSpec,
} from './types.js';

export const DAY = 86_400_000;
export const MINUTE_TICKS = 600_000_000;

function video(
  width: number,
  height: number,
  codec: VideoCodec,
  hdr: HdrKind,
  extra: Partial<VideoSpec> = {},
): VideoSpec {
  const tenBit = hdr !== 'SDR' || codec === 'av1';
  const bitRate =
    width >= 3200 ? 40_000_000 : width >= 1800 ? 12_000_000 : width >= 1200 ? 5_000_000 : 2_000_000;
  return {
    width,
    height,
    codec,
    hdr,
    bitDepth: tenBit ? 10 : 8,
    bitRate,
    frameRate: 23.976,
    ...extra,
  };
}

export const SURROUND: AudioSpec = {
  codec: 'eac3',
  channels: 6,
  language: 'eng',
  bitRate: 640_000,
};
export const STEREO: AudioSpec = { codec: 'aac', channels: 2, language: 'eng', bitRate: 192_000 };

export const MOVIES = [
  {
    key: 'dune',
    name: 'Dune: Part Two',
    year: 2024,
    tmdb: '693134',
    imdb: 'tt15239678',
    days: 1,
    minutes: 166,
    v: video(3840, 1608, 'hevc', 'DolbyVision', { dvProfile: 8 }),
  },
  {
    key: 'oppenheimer',
    name: 'Oppenheimer',
    year: 2023,
    tmdb: '872585',
    imdb: 'tt15398776',
    days: 3,
    minutes: 180,
    v: video(3840, 2160, 'hevc', 'HDR10'),
  },
  {
    key: 'madMax',
    name: 'Mad Max: Fury Road',
    year: 2015,
    tmdb: '76341',
    imdb: 'tt1392190',
    days: 8,
    minutes: 120,
    v: video(3840, 2160, 'hevc', 'HDR10Plus'),
  },
  {
    key: 'bladeRunner',
    name: 'Blade Runner 2049',
    year: 2017,
    tmdb: '335984',
    imdb: 'tt1856101',
    days: 12,
    minutes: 164,
    v: video(1920, 800, 'h264', 'SDR'),
  },
  {
    key: 'arrival',
    name: 'Arrival',
    year: 2016,
    tmdb: '329865',
    imdb: 'tt2543164',
    days: 20,
    minutes: 116,
    v: video(1920, 1080, 'av1', 'SDR'),
  },
  {
    key: 'amelie',
    name: 'Amélie',
    original: "Le Fabuleux Destin d'Amélie Poulain",
    year: 2001,
    tmdb: '194',
    imdb: 'tt0211915',
    days: 30,
    minutes: 122,
    v: video(1280, 544, 'h264', 'SDR'),
  },
  {
    key: 'casablanca',
    name: 'Casablanca',
    year: 1942,
    tmdb: '289',
    imdb: 'tt0034583',
    days: 40,
    minutes: 102,
    v: video(720, 480, 'mpeg2video', 'SDR'),
    noImage: true,
  },
  {
    key: 'homeVideo',
    name: 'Summer Holiday 2019',
    year: 2019,
    days: 60,
    minutes: 14,
    v: video(640, 360, 'h264', 'SDR'),
  },
] as const;

export interface EpisodeDef {
  title: string;
  /** Days since the file was added; absent = a virtual ("missing") episode. */
  days?: number;
  end?: number;
  v?: VideoSpec;
}

const SEVERANCE_S1 = [
  'Good News About Hell',
  'Half Loop',
  'In Perpetuity',
  'The You You Are',
  'The Grim Barbarity of Optics and Design',
  'Hide and Seek',
  'Defiant Jazz',
  "What's for Dinner?",
  'The We We Are',
];
const SEVERANCE_S2 = [
  'Hello, Ms. Cobel',
  'Goodbye, Mrs. Selvig',
  'Who Is Alive?',
  "Woe's Hollow",
  "Trojan's Horse",
  'Attila',
  'Chikhai Bardo',
  'Sweet Vitriol',
  'The After Hours',
  'Cold Harbor',
];
const HDR10_4K = video(3840, 2160, 'hevc', 'HDR10');
const DV5_4K = video(3840, 2160, 'hevc', 'DolbyVision', { dvProfile: 5 });
const HD = video(1920, 1080, 'h264', 'SDR');

export const SERIES = {
  severance: {
    name: 'Severance',
    year: 2022,
    tmdb: '95396',
    imdb: 'tt11280740',
    tvdb: '371980',
    minutes: 55,
    seasons: [
      SEVERANCE_S1.map((title, i): EpisodeDef =>
        i < 3 ? { title, days: 50 - i, v: HDR10_4K } : { title },
      ),
      SEVERANCE_S2.map((title, i): EpisodeDef =>
        i < 2 ? { title, days: 2, v: DV5_4K } : { title },
      ),
    ],
  },
  bear: {
    name: 'The Bear',
    year: 2022,
    tmdb: '136315',
    imdb: 'tt14452776',
    tvdb: '412391',
    minutes: 30,
    seasons: [
      [
        { title: 'System', days: 15, v: HD },
        { title: 'Hands', days: 15, v: video(1280, 720, 'hevc', 'HLG') },
        { title: 'Brigade / Dogs', days: 5, end: 4, v: HD },
        { title: 'Sheridan' },
        { title: 'Ceres' },
        { title: 'Review' },
        { title: 'Braciole' },
      ] as EpisodeDef[],
    ],
  },
} as const;

// The seeded people's passwords and the shape of what a seed returns live here, beside the catalog,
// so seed.ts and seed-people.ts both import them without importing each other.
export const SEED_PASSWORDS = {
  admin: 'admin-pass',
  alice: 'alice-pass',
  bob: 'bob-pass',
  carol: 'carol-pass',
} as const;

export interface SeededSeries {
  series: FakeItem;
  seasons: FakeItem[];
  episodes: FakeItem[];
}

export interface SeededLibrary {
  libraries: {
    movies: FakeLibrary;
    shows: FakeLibrary;
    collections: FakeLibrary;
    playlists: FakeLibrary;
  };
  movies: Record<(typeof MOVIES)[number]['key'], FakeItem>;
  series: { severance: SeededSeries; bear: SeededSeries };
  users: Partial<Record<keyof typeof SEED_PASSWORDS, FakeUser>>;
  /** User tokens of the seeded devices, keyed by the client DeviceId. */
  tokens: Record<string, string>;
}
