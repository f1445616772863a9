// The scale fixture's media-server side (issue 33): a library of movies and series with real
// stream profiles, the Playback Reporting table filled by SQLite itself (one recursive
// `INSERT … SELECT`, no row crosses into JavaScript), the media accounts the jobs act on, and
// live sessions. Plays are spread over two years and over the members' media user ids
// (`scaleMediaUserId`), so the Usher side's members find their own history.
import { DAY, MINUTE_TICKS, STEREO, SURROUND } from '../media-server/seed-catalog.js';
import { addLibrary, addUser, hexId } from '../media-server/state.js';
import type { FakeItem, MediaState, VideoSpec } from '../media-server/types.js';
import { scaleMediaUserId } from './community.js';

export interface ScaleMediaOptions {
  /** Members of the Usher side (their media ids are `scaleMediaUserId(1…members)`). */
  members: number;
  /** Library items, seasons and episodes included (default members / 2). */
  items?: number;
  /** Playback Reporting rows (default members × 20). */
  plays?: number;
  /** Live sessions (default members / 200). */
  sessions?: number;
  /** Members (by number) who get a media account on the server (the jobs' targets). */
  accounts?: { from: number; to: number }[];
  /** A number mixed into every pick (default 33). */
  seed?: number;
  now?: Date;
}

export interface ScaleMedia {
  items: number;
  movies: number;
  series: number;
  episodes: number;
  plays: number;
  users: number;
  sessions: number;
}

/** A few stream profiles, shared by reference (50 000 items need not hold 50 000 copies). */
const PROFILES: VideoSpec[] = [
  {
    width: 3840,
    height: 2160,
    codec: 'hevc',
    hdr: 'HDR10',
    bitDepth: 10,
    bitRate: 40e6,
    frameRate: 23.976,
  },
  {
    width: 3840,
    height: 1608,
    codec: 'hevc',
    hdr: 'DolbyVision',
    dvProfile: 8,
    bitDepth: 10,
    bitRate: 40e6,
    frameRate: 23.976,
  },
  {
    width: 1920,
    height: 1080,
    codec: 'h264',
    hdr: 'SDR',
    bitDepth: 8,
    bitRate: 12e6,
    frameRate: 23.976,
  },
  {
    width: 1920,
    height: 1080,
    codec: 'hevc',
    hdr: 'SDR',
    bitDepth: 8,
    bitRate: 8e6,
    frameRate: 23.976,
  },
  { width: 1920, height: 800, codec: 'av1', hdr: 'SDR', bitDepth: 10, bitRate: 6e6, frameRate: 24 },
  { width: 1280, height: 720, codec: 'h264', hdr: 'SDR', bitDepth: 8, bitRate: 5e6, frameRate: 25 },
  {
    width: 720,
    height: 576,
    codec: 'mpeg2video',
    hdr: 'SDR',
    bitDepth: 8,
    bitRate: 2e6,
    frameRate: 25,
  },
];
const EPISODES_PER_SEASON = 8;
const pad = (n: number) => String(n).padStart(2, '0');
/** Knuth's multiplicative hash: a stable pick from a row number, the same in JS and in SQLite. */
const pick = (i: number, seed: number, mod: number) =>
  Number((BigInt(i + seed * 7919) * 2654435761n) % 4294967296n) % mod;

/** Builds the scale library, accounts, sessions and plays into a fake's state. */
export function buildScaleMedia(state: MediaState, opts: ScaleMediaOptions): ScaleMedia {
  const members = opts.members;
  const total = opts.items ?? Math.floor(members / 2);
  const playCount = opts.plays ?? members * 20;
  const sessionCount = opts.sessions ?? Math.max(1, Math.floor(members / 200));
  const seed = opts.seed ?? 33;
  const now = (opts.now ?? state.now()).getTime();
  const emby = state.flavour === 'emby';
  let counter = 0;
  const itemId = () => {
    counter += 1;
    return emby ? String(500_000 + counter) : `17e3${counter.toString(16).padStart(28, '0')}`;
  };
  const movies = addLibrary(state, { name: 'Scale Movies', collectionType: 'movies' });
  const shows = addLibrary(state, { name: 'Scale Shows', collectionType: 'tvshows' });
  const put = (item: Omit<FakeItem, 'id' | 'locationType' | 'hasPrimaryImage'>): FakeItem => {
    const full: FakeItem = {
      locationType: 'FileSystem',
      hasPrimaryImage: true,
      ...item,
      id: itemId(),
    };
    state.items.set(full.id, full);
    return full;
  };

  // Four in ten items are movies; the rest are series of one season and eight episodes.
  const movieCount = Math.floor(total * 0.4);
  const seriesCount = Math.floor((total - movieCount) / (2 + EPISODES_PER_SEASON));
  const played: { id: string; type: string; name: string }[] = [];
  for (let m = 1; m <= movieCount; m++) {
    const name = `Scale Movie ${m}`;
    const movie = put({
      type: 'Movie',
      name,
      libraryId: movies.id,
      parentId: movies.id,
      productionYear: 1960 + (m % 65),
      dateCreated: new Date(now - (m % 730) * DAY),
      path: `${movies.path}/${name} (${1960 + (m % 65)}).mkv`,
      providerIds: { Tmdb: String(1_000_000 + m) },
      runTimeTicks: 110 * MINUTE_TICKS,
      video: PROFILES[pick(m, seed, PROFILES.length)],
      audio: m % 3 === 0 ? STEREO : SURROUND,
      container: 'mkv',
      size: 8_000_000_000,
      genres: ['Drama'],
    });
    played.push({ id: movie.id, type: 'Movie', name });
  }
  let episodes = 0;
  for (let s = 1; s <= seriesCount; s++) {
    // The same ids and names as `scaleTmdbSeries`, so the watch calendar finds them on TMDB.
    const name = `Scale series ${s}`;
    const base = { libraryId: shows.id, productionYear: 2000 + (s % 25) };
    const series = put({
      ...base,
      type: 'Series',
      name,
      parentId: shows.id,
      dateCreated: new Date(now - (s % 730) * DAY),
      path: `${shows.path}/${name}`,
      providerIds: { Tmdb: String(500_000 + s) },
      genres: ['Drama'],
    });
    const season = put({
      ...base,
      type: 'Season',
      name: 'Season 1',
      parentId: series.id,
      seriesId: series.id,
      seriesName: name,
      indexNumber: 1,
      dateCreated: series.dateCreated,
      providerIds: {},
      path: `${series.path}/Season 01`,
    });
    for (let e = 1; e <= EPISODES_PER_SEASON; e++) {
      const ep = put({
        ...base,
        type: 'Episode',
        name: `Chapter ${e}`,
        parentId: season.id,
        seriesId: series.id,
        seriesName: name,
        seasonId: season.id,
        seasonName: season.name,
        parentIndexNumber: 1,
        indexNumber: e,
        dateCreated: series.dateCreated,
        providerIds: { Tmdb: String(30_000_000 + s * 100 + e) },
        runTimeTicks: 45 * MINUTE_TICKS,
        path: `${season.path}/${name} - S01E${pad(e)} - Chapter ${e}.mkv`,
        video: PROFILES[pick(s * 10 + e, seed, PROFILES.length)],
        audio: STEREO,
        container: 'mkv',
        size: 2_000_000_000,
      });
      played.push({ id: ep.id, type: 'Episode', name: `${name} - s01e${pad(e)} - Chapter ${e}` });
      episodes += 1;
    }
  }

  // Media accounts: the members the jobs act on (each with the policy the server starts with).
  let users = 0;
  for (const range of opts.accounts ?? []) {
    for (let i = range.from; i <= range.to; i++) {
      const user = addUser(state, { name: `m${String(i).padStart(6, '0')}` });
      state.users.delete(user.id);
      user.id = scaleMediaUserId(i);
      state.users.set(user.id, user);
      users += 1;
    }
  }

  // Live sessions on their own devices; every third one is playing, some transcoding.
  const accounts = [...state.users.values()];
  for (let k = 1; k <= sessionCount && accounts.length > 0; k++) {
    const user = accounts[pick(k, seed, accounts.length)]!;
    const deviceId = `scale-device-${k}`;
    const key = emby ? `d:${deviceId}` : `d:${user.id}:${deviceId}`;
    state.counters.device += 1;
    state.devices.set(key, {
      key,
      deviceId,
      internalId: state.counters.device,
      name: `Device ${k}`,
      appName: ['Jellyfin Web', 'Infuse', 'Kodi', 'Swiftfin', 'Findroid'][k % 5]!,
      appVersion: '1.0.0',
      userId: user.id,
      token: hexId(`scale-token:${k}`),
      dateLastActivity: new Date(now - (k % 600) * 1000),
      ipAddress: `10.33.${k >> 8}.${k & 255}`,
    });
    const item = played[pick(k, seed + 1, played.length)];
    state.sessions.set(hexId(`scale-session:${k}`), {
      id: hexId(`scale-session:${k}`),
      deviceKey: key,
      userId: user.id,
      lastActivity: new Date(now - (k % 600) * 1000),
      remoteEndPoint: `10.33.${k >> 8}.${k & 255}`,
      ...(k % 3 === 0 && item
        ? {
            playing: {
              itemId: item.id,
              positionTicks: (k % 40) * MINUTE_TICKS,
              isPaused: k % 9 === 0,
              playMethod: k % 6 === 0 ? 'Transcode' : 'DirectPlay',
            },
          }
        : {}),
    });
  }

  fillPlays(state, played, { plays: playCount, members, seed, now });
  return {
    items: state.items.size,
    movies: movieCount,
    series: seriesCount,
    episodes,
    plays: playCount,
    users,
    sessions: state.sessions.size,
  };
}

/**
 * Writes the plays inside SQLite: a temporary table of the played items, then one recursive
 * insert picking item, member, time and duration from the row number (Knuth's hash). Plays are
 * spread evenly over the two years before `now`, newest rows last as the plugin appends them.
 */
function fillPlays(
  state: MediaState,
  played: { id: string; type: string; name: string }[],
  o: { plays: number; members: number; seed: number; now: number },
): void {
  const db = state.playback.db;
  const emby = state.flavour === 'emby';
  db.exec('CREATE TEMP TABLE scale_items (n INTEGER PRIMARY KEY, id TEXT, type TEXT, name TEXT)');
  db.exec('BEGIN');
  const insert = db.prepare('INSERT INTO scale_items VALUES (?, ?, ?, ?)');
  played.forEach((p, i) => insert.run(i, p.id, p.type, p.name));
  db.exec('COMMIT');
  const span = 730 * 86_400;
  const end = Math.floor(o.now / 1000);
  const h = (salt: number) => `((i + ${o.seed * 7919 + salt}) * 2654435761 % 4294967296)`;
  const emb = emby ? ', PauseDuration, RemoteAddress, TranscodeReasons' : '';
  const embValues = emby ? `, ${h(5)} % 120, '10.0.0.1', ''` : '';
  // DateCreated as the plugin writes it (server zone UTC here): `yyyy-MM-dd HH:mm:ss.fffffff`.
  db.exec(`
    INSERT INTO PlaybackActivity (DateCreated, UserId, ItemId, ItemType, ItemName, PlaybackMethod,
      ClientName, DeviceName, PlayDuration${emb})
    WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${o.plays})
    SELECT strftime('%Y-%m-%d %H:%M:%S', ${end - span} + (i * ${span}) / ${o.plays}, 'unixepoch')
             || '.0000000',
      '5ca1e' || printf('%027x', 1 + ${h(1)} % ${o.members}),
      s.id, s.type, s.name,
      CASE ${h(2)} % 4 WHEN 0 THEN 'Transcode (v:h264 a:aac)' WHEN 1 THEN 'DirectStream'
        ELSE 'DirectPlay' END,
      CASE ${h(3)} % 4 WHEN 0 THEN 'Jellyfin Web' WHEN 1 THEN 'Infuse' WHEN 2 THEN 'Kodi'
        ELSE 'Swiftfin' END,
      'Device ' || (${h(3)} % 40),
      60 + ${h(4)} % 7000${embValues}
    FROM seq JOIN scale_items s ON s.n = ${h(0)} % ${played.length}`);
  db.exec('DROP TABLE scale_items');
}
