// Loads the demo world into a media-server fake's state through its builders: libraries, items
// (ProviderIds from the TMDB fixtures), users, devices, live sessions and Playback Reporting rows.
import { addItem, addLibrary, addUser, hexId, setUserData } from '../media-server/state.js';
import type { FakeDevice, FakeItem, FakeLibrary, MediaState } from '../media-server/types.js';
import type { LibraryShow, MediaFile } from './library.js';
import type { ClientKind } from './people.js';
import { episodeKey, movieKey } from './playback.js';
import { loadPlayback } from './playback-rows.js';
import type { DemoWorld } from './world.js';
import { GENRE_NAMES } from './words.js';

/** TMDB genre ids as the servers name them (English), unknown ids dropped. */
const genreNames = (ids: number[]): string[] =>
  ids.flatMap((id) => (GENRE_NAMES[id]?.en ? [GENRE_NAMES[id].en] : []));

const MINUTE_TICKS = 600_000_000;

/** App names each server shows for a kind of client. */
const APPS: Record<ClientKind, { emby: string; jellyfin: string; version: string }> = {
  web: { emby: 'Emby Web', jellyfin: 'Jellyfin Web', version: '10.11.5' },
  android: { emby: 'Emby for Android', jellyfin: 'Jellyfin Android', version: '2.6.3' },
  ios: { emby: 'Emby for iOS', jellyfin: 'Swiftfin', version: '1.3.0' },
  'android-tv': {
    emby: 'Emby for Android TV',
    jellyfin: 'Jellyfin Android TV',
    version: '0.18.11',
  },
  'apple-tv': { emby: 'Infuse', jellyfin: 'Infuse-Direct', version: '8.1.4' },
  desktop: { emby: 'Emby Theater', jellyfin: 'Jellyfin Media Player', version: '1.11.1' },
  kodi: { emby: 'Kodi', jellyfin: 'Kodi', version: '21.2' },
  roku: { emby: 'Emby for Roku', jellyfin: 'Jellyfin Roku', version: '2.2.5' },
};

export interface LoadedWorld {
  libraries: { movies: FakeLibrary; kids: FakeLibrary; shows: FakeLibrary };
  /** Item id per world key (`movie:<tmdb>`, `episode:<show>:<s>:<e>`) and `series:<tmdb>`. */
  itemIds: Map<string, string>;
  /** Media-server user id per user name. */
  userIds: Map<string, string>;
}

const slug = (s: string) => s.replace(/[:/?'"]/g, '').replace(/\s+/g, ' ');
const pad = (n: number) => String(n).padStart(2, '0');

function fileFields(file: MediaFile, minutes: number) {
  return {
    video: file.video,
    audio: file.audio,
    container: 'mkv',
    size: Math.round(((file.video.bitRate + file.audio.bitRate) / 8) * minutes * 60),
  };
}

function loadShow(
  state: MediaState,
  lib: FakeLibrary,
  show: LibraryShow,
  ids: Map<string, string>,
) {
  const f = show.fixture;
  const name = f.translations['en-US']?.title ?? f.original_name;
  const year = Number(f.first_air_date.slice(0, 4));
  const series = addItem(state, {
    type: 'Series',
    name,
    libraryId: lib.id,
    parentId: lib.id,
    productionYear: year,
    premiereDate: new Date(`${f.first_air_date}T00:00:00Z`),
    dateCreated: show.addedAt,
    overview: f.translations['en-US']?.overview ?? '',
    genres: genreNames(f.genre_ids),
    path: `${lib.path}/${slug(name)} (${year})`,
    providerIds: {
      Tmdb: String(f.id),
      ...(f.imdb_id ? { Imdb: f.imdb_id } : {}),
      ...(f.tvdb_id ? { Tvdb: String(f.tvdb_id) } : {}),
    },
  });
  ids.set(`series:${f.id}`, series.id);
  const seasons = new Map<number, FakeItem>();
  for (const ep of show.episodes) {
    let season = seasons.get(ep.season);
    if (!season) {
      season = addItem(state, {
        type: 'Season',
        name: `Season ${ep.season}`,
        libraryId: lib.id,
        parentId: series.id,
        seriesId: series.id,
        seriesName: name,
        indexNumber: ep.season,
        dateCreated: show.addedAt,
        providerIds: {},
        path: `${series.path}/Season ${pad(ep.season)}`,
      });
      seasons.set(ep.season, season);
    }
    const code = `S${pad(ep.season)}E${pad(ep.episode)}`;
    const item = addItem(state, {
      type: 'Episode',
      name: ep.title,
      libraryId: lib.id,
      parentId: season.id,
      seriesId: series.id,
      seriesName: name,
      seasonId: season.id,
      seasonName: season.name,
      parentIndexNumber: ep.season,
      indexNumber: ep.episode,
      productionYear: Number(ep.airDate.slice(0, 4)),
      premiereDate: new Date(`${ep.airDate}T00:00:00Z`),
      dateCreated: ep.file?.addedAt ?? show.addedAt,
      // The episode's own TMDB id, as TMDB numbers it (never the show's, 50-integrations §2.3).
      providerIds: { Tmdb: String(f.id * 10_000 + ep.season * 100 + ep.episode) },
      runTimeTicks: ep.runtime * MINUTE_TICKS,
      locationType: ep.file ? 'FileSystem' : 'Virtual',
      hasPrimaryImage: ep.file !== undefined,
      ...(ep.file
        ? {
            path: `${season.path}/${slug(name)} - ${code} - ${slug(ep.title)}.mkv`,
            ...fileFields(ep.file, ep.runtime),
          }
        : {}),
    });
    ids.set(episodeKey(f.id, ep.season, ep.episode), item.id);
  }
}

/** Adds the world to `state` (normally an empty one) and returns the ids it created. */
export function loadWorldIntoMediaServer(state: MediaState, world: DemoWorld): LoadedWorld {
  const libraries = {
    movies: addLibrary(state, { name: 'Movies', collectionType: 'movies' }),
    kids: addLibrary(state, { name: 'Kids & Family', collectionType: 'movies' }),
    shows: addLibrary(state, { name: 'TV Shows', collectionType: 'tvshows' }),
  };
  const itemIds = new Map<string, string>();
  for (const m of world.movies) {
    const f = m.fixture;
    const lib = f.genre_ids.some((g) => g === 16 || g === 10751)
      ? libraries.kids
      : libraries.movies;
    const name = f.translations['en-US']?.title ?? f.original_title;
    const year = Number(f.release_date.slice(0, 4));
    const folder = `${lib.path}/${slug(name)} (${year})`;
    const item = addItem(state, {
      type: 'Movie',
      name,
      libraryId: lib.id,
      parentId: lib.id,
      ...(f.original_title !== name ? { originalTitle: f.original_title } : {}),
      productionYear: year,
      premiereDate: new Date(`${f.release_date}T00:00:00Z`),
      dateCreated: m.file.addedAt,
      overview: f.translations['en-US']?.overview ?? '',
      genres: genreNames(f.genre_ids),
      path: `${folder}/${slug(name)} (${year}).mkv`,
      providerIds: { Tmdb: String(f.id), ...(f.imdb_id ? { Imdb: f.imdb_id } : {}) },
      runTimeTicks: (f.runtime || 100) * MINUTE_TICKS,
      ...fileFields(m.file, f.runtime || 100),
    });
    itemIds.set(movieKey(f.id), item.id);
  }
  for (const show of world.shows) loadShow(state, libraries.shows, show, itemIds);
  const userIds = loadPeople(state, world, libraries, itemIds);
  return { libraries, itemIds, userIds };
}

function loadPeople(
  state: MediaState,
  world: DemoWorld,
  libraries: LoadedWorld['libraries'],
  itemIds: Map<string, string>,
): Map<string, string> {
  const emby = state.flavour === 'emby';
  const mainLibrary = emby ? libraries.movies.guid : libraries.movies.id;
  const userIds = new Map<string, string>();
  const devices = new Map<string, FakeDevice>();
  const lastSeen = new Map<string, Date>();
  for (const p of world.plays)
    lastSeen.set(p.deviceId, new Date(p.at.getTime() + p.durationSec * 1000));
  for (const s of world.sessions) lastSeen.set(s.deviceId, s.lastActivity);
  for (const u of world.users) {
    const user = addUser(state, {
      name: u.name,
      password: u.password,
      admin: u.admin,
      disabled: u.disabled,
      ...(u.limited ? { policy: { EnableAllFolders: false, EnabledFolders: [mainLibrary] } } : {}),
    });
    user.dateCreated = u.joinedAt;
    userIds.set(u.name, user.id);
    let latest: Date | undefined;
    for (const d of u.devices) {
      const seen = lastSeen.get(d.deviceId) ?? u.joinedAt;
      if (!latest || seen > latest) latest = seen;
      state.counters.device += 1;
      const device: FakeDevice = {
        key: emby ? `d:${d.deviceId}` : `d:${user.id}:${d.deviceId}`,
        deviceId: d.deviceId,
        internalId: state.counters.device,
        name: d.name,
        appName: APPS[d.kind][state.flavour],
        appVersion: APPS[d.kind].version,
        userId: user.id,
        token: hexId(`demo-token:${world.seed}:${d.deviceId}`),
        dateLastActivity: seen,
        ipAddress: d.ip,
      };
      state.devices.set(device.key, device);
      devices.set(d.deviceId, device);
    }
    if (latest) {
      user.lastActivityDate = latest;
      user.lastLoginDate = u.joinedAt;
    }
  }
  for (const s of world.sessions) {
    const device = devices.get(s.deviceId);
    if (!device) continue;
    const p = s.playing;
    const itemId = p ? itemIds.get(p.item) : undefined;
    state.sessions.set(hexId(`demo-session:${s.deviceId}`), {
      id: hexId(`demo-session:${s.deviceId}`),
      deviceKey: device.key,
      userId: device.userId,
      lastActivity: s.lastActivity,
      remoteEndPoint: device.ipAddress,
      ...(p && itemId
        ? {
            playing: {
              itemId,
              positionTicks: p.positionSec * 10_000_000,
              isPaused: p.paused,
              playMethod: p.method.startsWith('Transcode')
                ? 'Transcode'
                : (p.method as 'DirectPlay'),
              ...(p.method.startsWith('Transcode')
                ? {
                    transcoding: {
                      videoCodec: p.method.includes('v:direct') ? p.file.video.codec : 'h264',
                      audioCodec: p.method.includes('a:direct') ? p.file.audio.codec : 'aac',
                      container: 'ts',
                      bitrate: 8_000_000,
                      width: Math.min(p.file.video.width, 1920),
                      height: Math.min(p.file.video.height, 1080),
                      isVideoDirect: p.method.includes('v:direct'),
                      isAudioDirect: p.method.includes('a:direct'),
                      reasons: p.reasons,
                    },
                  }
                : {}),
            },
          }
        : {}),
    });
  }
  loadPlayback(state, world, userIds, itemIds, devices);
  loadResumePoints(state, world, userIds, itemIds);
  return userIds;
}

/** A play that ended before this share of the runtime left a resume point (both servers: 90%). */
const FINISHED_SHARE = 0.9;

/**
 * Where each user stopped (issue 36: the overview's "continue watching" was empty in the demo):
 * every play of the history that ended short of the end leaves a resume point at the time
 * played, as the players' progress reports leave it on both servers (the history plays each title
 * once, so a later play never finishes it), and whoever is playing now stands where the session
 * is. Finished plays are not marked played: nothing in Usher reads that.
 */
export function loadResumePoints(
  state: MediaState,
  world: DemoWorld,
  userIds: Map<string, string>,
  itemIds: Map<string, string>,
): void {
  for (const play of world.plays) {
    const userId = userIds.get(play.user);
    const item = state.items.get(itemIds.get(play.item) ?? '');
    if (!userId || !item?.runTimeTicks) continue;
    const positionTicks = play.durationSec * 10_000_000;
    if (positionTicks >= item.runTimeTicks * FINISHED_SHARE) continue;
    setUserData(state, userId, item.id, {
      positionTicks,
      lastPlayedDate: new Date(play.at.getTime() + play.durationSec * 1000),
    });
  }
  for (const s of world.sessions) {
    const userId = userIds.get(s.user);
    const itemId = s.playing ? itemIds.get(s.playing.item) : undefined;
    if (!userId || !itemId || !s.playing) continue;
    setUserData(state, userId, itemId, {
      positionTicks: s.playing.positionSec * 10_000_000,
      lastPlayedDate: s.lastActivity,
    });
  }
}

/**
 * Moves live sessions on by `seconds`, as their clients' progress reports would: without it a
 * long-running demo's sessions go stale and Jellyfin's `activeWithinSeconds` filter hides them.
 */
export function advanceSessions(state: MediaState, seconds: number): void {
  const now = state.now();
  for (const session of state.sessions.values()) {
    session.lastActivity = now;
    const device = state.devices.get(session.deviceKey);
    if (device) device.dateLastActivity = now;
    const playing = session.playing;
    if (!playing || playing.isPaused) continue;
    const runtime = state.items.get(playing.itemId)?.runTimeTicks ?? 0;
    // At the end credits the viewer starts it again rather than leaving the demo with no one on.
    playing.positionTicks = (playing.positionTicks + seconds * 10_000_000) % Math.max(runtime, 1);
  }
}
