// In-memory state of one fake server, plus the id rules of each flavour.
import { createHash, randomBytes } from 'node:crypto';

import { PlaybackStore } from './playback-store.js';
import { defaultPolicy } from './policy.js';
import type {
  CollectionType,
  FakeDevice,
  FakeSession,
  FakeItem,
  FakeLibrary,
  FakeUser,
  Flavour,
  MediaServerMode,
  MediaState,
} from './types.js';

export interface MediaStateOptions {
  flavour: Flavour;
  apiKey: string;
  version?: string;
  legacyAuthorization?: boolean;
  serverName?: string;
  timeZone?: string;
  now?: () => Date;
}

const DEFAULT_VERSION: Record<Flavour, string> = { emby: '4.8.11.0', jellyfin: '12.0.0' };

export function modeFor(flavour: Flavour, version: string): MediaServerMode {
  if (flavour === 'emby') return 'emby';
  return Number.parseInt(version, 10) >= 12 ? 'jellyfin12' : 'jellyfin10';
}

export function createMediaState(opts: MediaStateOptions): MediaState {
  const version = opts.version ?? DEFAULT_VERSION[opts.flavour];
  const mode = modeFor(opts.flavour, version);
  // 10.11 defaults EnableLegacyAuthorization to true, 12.0 to false (§1.3); Emby has no switch.
  const legacy =
    opts.flavour === 'emby' ? true : (opts.legacyAuthorization ?? mode !== 'jellyfin12');
  return {
    flavour: opts.flavour,
    mode,
    version,
    serverId: hexId(`${opts.flavour}:server`),
    serverName: opts.serverName ?? (opts.flavour === 'emby' ? 'Fake Emby' : 'Fake Jellyfin'),
    apiKey: opts.apiKey,
    apiKeyName: 'Usher',
    legacyAuthorization: legacy,
    timeZone: opts.timeZone ?? 'UTC',
    users: new Map(),
    libraries: new Map(),
    items: new Map(),
    devices: new Map(),
    sessions: new Map(),
    sessionCommands: [],
    playback: new PlaybackStore(opts.flavour),
    faults: { delayMs: 0, rules: [] },
    requests: [],
    webhook: { embyFormat: 'multipart', jellyfinFormat: 'json' },
    now: opts.now ?? (() => new Date()),
    counters: { item: 0, guid: 0, device: 0 },
  };
}

/** 32 lower-case hex characters derived from a seed, shaped like a version-4 GUID. */
export function hexId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex').slice(0, 32);
  const variant = ((Number.parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 12)}4${h.slice(13, 16)}${variant}${h.slice(17)}`;
}

export function randomToken(): string {
  return randomBytes(16).toString('hex');
}

/** Deterministic GUID for users, libraries (Emby Guid) and Jellyfin items. */
export function nextGuid(state: MediaState, kind: string): string {
  state.counters.guid += 1;
  return hexId(`${state.flavour}:${kind}:${state.counters.guid}`);
}

/** Emby item ids are small numeric strings; Jellyfin item ids are GUIDs. */
export function nextItemId(state: MediaState): string {
  state.counters.item += 1;
  return state.flavour === 'emby' ? String(1000 + state.counters.item) : nextGuid(state, 'item');
}

const GUID_N = /^[0-9a-f]{32}$/i;
const GUID_D = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Jellyfin binds GUIDs from either the dashed or the 32-hex form; null when neither. */
export function parseGuid(raw: string): string | null {
  const v = raw.trim().replace(/^\{|\}$/g, '');
  if (GUID_N.test(v) || GUID_D.test(v)) return v.replace(/-/g, '').toLowerCase();
  return null;
}

/** Jellyfin's "D" format, used by webhook templates that print a Guid with ToString(). */
export function dashed(id: string): string {
  const parts = [id.slice(0, 8), id.slice(8, 12), id.slice(12, 16), id.slice(16, 20), id.slice(20)];
  return parts.join('-');
}

/**
 * Normalises an id from a path or query the way each server's binder does.
 * Emby ids are opaque strings compared as-is (lower-cased for its hex user ids).
 */
export function normaliseId(state: MediaState, raw: string): string | null {
  if (state.flavour === 'jellyfin') return parseGuid(raw);
  return raw.trim().toLowerCase();
}

export function findUserByName(state: MediaState, name: string): FakeUser | undefined {
  const wanted = name.toLowerCase();
  return [...state.users.values()].find((u) => u.name.toLowerCase() === wanted);
}

export interface NewUserInput {
  name: string;
  password?: string;
  admin?: boolean;
  disabled?: boolean;
  policy?: Record<string, unknown>;
}

/** Adds a user directly (seeds and control API); the HTTP create path has its own rules. */
export function addUser(state: MediaState, input: NewUserInput): FakeUser {
  const policy = { ...defaultPolicy(state.flavour), ...input.policy };
  if (input.admin) Object.assign(policy, { IsAdministrator: true, IsHidden: false });
  if (input.disabled) policy['IsDisabled'] = true;
  const user: FakeUser = {
    id: nextGuid(state, 'user'),
    name: input.name,
    password: input.password ?? '',
    policy,
    dateCreated: state.now(),
  };
  state.users.set(user.id, user);
  return user;
}

export function addLibrary(
  state: MediaState,
  input: { name: string; collectionType: CollectionType },
): FakeLibrary {
  const guid = nextGuid(state, 'library');
  const lib: FakeLibrary = {
    id: state.flavour === 'emby' ? nextItemId(state) : guid,
    guid,
    name: input.name,
    collectionType: input.collectionType,
    path: `/media/${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    dateCreated: state.now(),
  };
  state.libraries.set(lib.id, lib);
  return lib;
}

export type NewItemInput = Omit<FakeItem, 'id' | 'locationType' | 'hasPrimaryImage'> &
  Partial<Pick<FakeItem, 'locationType' | 'hasPrimaryImage'>>;

export function addItem(state: MediaState, input: NewItemInput): FakeItem {
  const item: FakeItem = {
    locationType: 'FileSystem',
    hasPrimaryImage: true,
    ...input,
    id: nextItemId(state),
  };
  state.items.set(item.id, item);
  return item;
}

/** Whether the user's policy grants the library (Emby matches Guids, Jellyfin matches Ids). */
export function userCanSee(
  state: MediaState,
  user: FakeUser | undefined,
  lib: FakeLibrary,
): boolean {
  if (!user || user.policy['EnableAllFolders'] === true) return true;
  const enabled = (user.policy['EnabledFolders'] as string[] | undefined) ?? [];
  const key = state.flavour === 'emby' ? lib.guid : lib.id;
  return enabled.includes(key);
}

export function visibleItems(state: MediaState, user: FakeUser | undefined): FakeItem[] {
  return [...state.items.values()].filter((item) => {
    const lib = state.libraries.get(item.libraryId);
    return lib !== undefined && userCanSee(state, user, lib);
  });
}

/** Ends every token of a user except `keepToken` (Jellyfin drops the device with the token). */
export function revokeUserTokens(state: MediaState, userId: string, keepToken?: string): void {
  for (const device of [...state.devices.values()]) {
    if (device.userId !== userId || !device.token || device.token === keepToken) continue;
    endDeviceToken(state, device.key);
  }
}

/** Ends a device's token and session; Jellyfin devices *are* tokens, so they go too. */
export function endDeviceToken(state: MediaState, deviceKey: string): void {
  const device = state.devices.get(deviceKey);
  if (!device) return;
  for (const [id, s] of state.sessions) if (s.deviceKey === deviceKey) state.sessions.delete(id);
  if (state.flavour === 'jellyfin') state.devices.delete(deviceKey);
  else delete device.token;
}

export interface LiveSessionInput {
  userId: string;
  /** The client's DeviceId; the same id again reuses the device, as a reconnecting app does. */
  deviceId: string;
  /** What the server shows as `RemoteEndPoint`: an IPv4 or IPv6 address. */
  remoteEndPoint: string;
  deviceName?: string;
  client?: string;
  appVersion?: string;
  /** The item playing; none leaves the session idle (no NowPlayingItem). */
  itemId?: string;
}

/**
 * Places a live session as if a client on `remoteEndPoint` had signed in and started playing:
 * the device (one per DeviceId and user), its token and a session. A client reconnecting with
 * the same DeviceId gets a new token and session, and its device keeps its ids.
 */
export function addLiveSession(state: MediaState, input: LiveSessionInput): FakeSession {
  const key = `${input.userId}:${input.deviceId}`;
  if (state.devices.get(key)?.token) endDeviceToken(state, key);
  const prior = state.devices.get(key);
  const device: FakeDevice = {
    key,
    deviceId: input.deviceId,
    internalId: prior?.internalId ?? ++state.counters.device,
    name: input.deviceName ?? input.deviceId,
    appName: input.client ?? 'Emby Web',
    appVersion: input.appVersion ?? '4.8.0',
    userId: input.userId,
    token: randomToken(),
    dateLastActivity: state.now(),
    ipAddress: input.remoteEndPoint,
  };
  state.devices.set(key, device);
  const session: FakeSession = {
    id: hexId(`session:${key}:${device.token}`),
    deviceKey: key,
    userId: input.userId,
    lastActivity: state.now(),
    remoteEndPoint: input.remoteEndPoint,
    ...(input.itemId
      ? {
          playing: {
            itemId: input.itemId,
            positionTicks: 0,
            isPaused: false,
            playMethod: 'DirectPlay' as const,
          },
        }
      : {}),
  };
  state.sessions.set(session.id, session);
  return session;
}

/**
 * Records where `userId` stopped in `itemId` (seeds, tests and the control API): a position
 * short of the end is a resume point, as a player's progress reports leave it on both servers.
 */
export function setUserData(
  state: MediaState,
  userId: string,
  itemId: string,
  data: { positionTicks: number; lastPlayedDate?: Date; played?: boolean },
): void {
  const user = state.users.get(userId);
  if (!user) throw new Error(`no user ${userId}`);
  user.userData ??= new Map();
  const old = user.userData.get(itemId);
  user.userData.set(itemId, {
    playbackPositionTicks: data.positionTicks,
    playCount: (old?.playCount ?? 0) + (data.played ? 1 : 0),
    played: data.played ?? false,
    lastPlayedDate: data.lastPlayedDate ?? state.now(),
  });
}
