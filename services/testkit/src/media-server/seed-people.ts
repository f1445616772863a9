// Seeded people: users, their devices and sessions (two playing, one idle, one stale), and
// Playback Reporting rows in the plugin's own text formats.
import { pluginDate } from './playback-store.js';
import { MINUTE_TICKS, SEED_PASSWORDS, type SeededLibrary } from './seed-catalog.js';
import { addUser, hexId, setUserData } from './state.js';
import type { FakeDevice, FakeItem, FakeUser, MediaState, NowPlaying } from './types.js';

const DAY = 86_400_000;
const pad = (n: number): string => String(n).padStart(2, '0');

/** The plugin names episodes `Series - s01e02 - Title`. */
function episodeCode(item: FakeItem): string {
  return `s${pad(item.parentIndexNumber ?? 0)}e${pad(item.indexNumber ?? 0)}`;
}

export function seedPeople(state: MediaState, seeded: SeededLibrary, now: number): void {
  const moviesKey =
    state.flavour === 'emby' ? seeded.libraries.movies.guid : seeded.libraries.movies.id;
  const users = {
    admin: addUser(state, { name: 'admin', password: SEED_PASSWORDS.admin, admin: true }),
    alice: addUser(state, { name: 'alice', password: SEED_PASSWORDS.alice }),
    bob: addUser(state, {
      name: 'bob',
      password: SEED_PASSWORDS.bob,
      policy: { EnableAllFolders: false, EnabledFolders: [moviesKey] },
    }),
    carol: addUser(state, { name: 'carol', password: SEED_PASSWORDS.carol, disabled: true }),
  };
  seeded.users = users;
  const web = state.flavour === 'emby' ? 'Emby Web' : 'Jellyfin Web';
  const { dune } = seeded.movies;
  const hands = seeded.series.bear.episodes[1] as FakeItem;
  const devices: [FakeUser, string, string, string, number, NowPlaying?][] = [
    [
      users.alice,
      'alice-firefox',
      'Firefox',
      web,
      2,
      {
        itemId: dune.id,
        positionTicks: 45 * MINUTE_TICKS,
        isPaused: false,
        playMethod: 'DirectPlay',
      },
    ],
    [
      users.bob,
      'bob-appletv',
      'Living Room Apple TV',
      'Infuse',
      1,
      {
        itemId: hands.id,
        positionTicks: 12 * MINUTE_TICKS,
        isPaused: true,
        playMethod: 'Transcode',
        transcoding: {
          videoCodec: 'h264',
          audioCodec: 'aac',
          container: 'ts',
          bitrate: 8_000_000,
          width: 1280,
          height: 720,
          isVideoDirect: false,
          isAudioDirect: true,
          reasons: ['VideoCodecNotSupported'],
        },
      },
    ],
    [
      users.admin,
      'admin-pixel',
      'Pixel 8',
      state.flavour === 'emby' ? 'Emby for Android' : 'Jellyfin Android',
      5,
    ],
    // Stale: idle for two hours, so Jellyfin's activeWithinSeconds=960 hides it.
    [users.alice, 'alice-kodi', 'Kodi Living Room', 'Kodi', 120],
  ];
  devices.forEach(([user, deviceId, name, app, minutesAgo, playing], i) => {
    const device = seedDevice(
      state,
      user,
      deviceId,
      name,
      app,
      new Date(now - minutesAgo * 60_000),
      i,
    );
    seeded.tokens[deviceId] = device.token as string;
    state.sessions.set(hexId(`session:${deviceId}`), {
      id: hexId(`session:${deviceId}`),
      deviceKey: device.key,
      userId: user.id,
      lastActivity: device.dateLastActivity,
      remoteEndPoint: device.ipAddress,
      ...(playing ? { playing } : {}),
    });
  });
  // A signed-in device with no live session (the app is closed).
  const phone = seedDevice(
    state,
    users.bob,
    'bob-iphone',
    "Bob's iPhone",
    'Infuse',
    new Date(now - 3 * DAY),
    9,
  );
  seeded.tokens['bob-iphone'] = phone.token as string;
  // Where the live players stand is where their users resume ("continue watching"); alice also
  // left a Severance episode part-way yesterday.
  const ago = (ms: number) => new Date(now - ms);
  setUserData(state, users.alice.id, dune.id, {
    positionTicks: 45 * MINUTE_TICKS,
    lastPlayedDate: ago(2 * 60_000),
  });
  setUserData(state, users.bob.id, hands.id, {
    positionTicks: 12 * MINUTE_TICKS,
    lastPlayedDate: ago(60_000),
  });
  const severance = seeded.series.severance.episodes[1] as FakeItem;
  setUserData(state, users.alice.id, severance.id, {
    positionTicks: 20 * MINUTE_TICKS,
    lastPlayedDate: ago(DAY),
  });
  seedPlayback(state, seeded, now);
}

function seedDevice(
  state: MediaState,
  user: FakeUser,
  deviceId: string,
  name: string,
  app: string,
  at: Date,
  i: number,
): FakeDevice {
  const key = state.flavour === 'emby' ? `d:${deviceId}` : `d:${user.id}:${deviceId}`;
  state.counters.device += 1;
  const device: FakeDevice = {
    key,
    deviceId,
    internalId: state.counters.device,
    name,
    appName: app,
    appVersion: '1.0.0',
    userId: user.id,
    token: hexId(`token:${state.flavour}:${deviceId}`),
    dateLastActivity: at,
    ipAddress: `192.168.1.${20 + i}`,
  };
  state.devices.set(key, device);
  return device;
}

const METHODS = ['DirectPlay', 'DirectStream', 'Transcode (v:h264 a:aac)', 'DirectPlay', 'na'];

function seedPlayback(state: MediaState, seeded: SeededLibrary, now: number): void {
  const { alice, bob } = seeded.users;
  if (!alice || !bob) return;
  const movies = Object.values(seeded.movies);
  const eps = [...seeded.series.severance.episodes, ...seeded.series.bear.episodes].filter(
    (e) => e.locationType === 'FileSystem',
  );
  for (let i = 0; i < 24; i++) {
    const user = i % 3 === 2 ? bob : alice;
    const item =
      i % 2 === 0 ? (movies[i % movies.length] as FakeItem) : (eps[i % eps.length] as FakeItem);
    const name =
      item.type === 'Episode'
        ? `${item.seriesName} - ${episodeCode(item)} - ${item.name}`
        : item.name;
    const method = METHODS[i % METHODS.length] as string;
    state.playback.insert({
      DateCreated: pluginDate(new Date(now - i * 13 * 3_600_000), state.timeZone),
      UserId: user.id,
      ItemId: item.id,
      ItemType: item.type,
      ItemName: name,
      PlaybackMethod: method,
      ClientName: user === bob ? 'Infuse' : state.flavour === 'emby' ? 'Emby Web' : 'Jellyfin Web',
      DeviceName: user === bob ? 'Living Room Apple TV' : 'Firefox',
      PlayDuration: 600 + i * 137,
      ...(state.flavour === 'emby'
        ? {
            PauseDuration: (i * 17) % 120,
            RemoteAddress: `192.168.1.${20 + (i % 3)}`,
            TranscodeReasons: method.startsWith('Transcode') ? 'VideoCodecNotSupported' : '',
          }
        : {}),
    });
  }
}
