// Internal model of the fake media server. Entities are flavour-neutral; the DTO renderers turn
// them into Emby or Jellyfin wire shapes, so one seed serves both flavours.
import type { PlaybackStore } from './playback-store.js';

import type { Flavour } from './flavour.js';

export type { Flavour };
/** The three behaviours 50-integrations.md §1.8 distinguishes. */
export type MediaServerMode = 'emby' | 'jellyfin10' | 'jellyfin12';
export type HdrKind = 'SDR' | 'HDR10' | 'HDR10Plus' | 'HLG' | 'DolbyVision';
export type VideoCodec = 'h264' | 'hevc' | 'av1' | 'vp9' | 'mpeg2video';
export type ItemKind = 'Movie' | 'Series' | 'Season' | 'Episode';
export type CollectionType = 'movies' | 'tvshows' | 'boxsets' | 'playlists' | 'music';
export type PlayMethod = 'DirectPlay' | 'DirectStream' | 'Transcode';

export interface VideoSpec {
  width: number;
  height: number;
  codec: VideoCodec;
  hdr: HdrKind;
  /** Dolby Vision profile (5 has no fallback layer, 8 falls back to HDR10). */
  dvProfile?: number;
  bitDepth: number;
  /** Bits per second. */
  bitRate: number;
  frameRate: number;
}

export interface AudioSpec {
  codec: string;
  channels: number;
  language: string;
  bitRate: number;
}

export interface FakeLibrary {
  /** Wire id: numeric string on Emby, 32-hex on Jellyfin. */
  id: string;
  /** 32-hex Guid; Emby exposes it and wants it in `EnabledFolders`. */
  guid: string;
  name: string;
  collectionType: CollectionType;
  path: string;
  dateCreated: Date;
}

export interface FakeItem {
  id: string;
  type: ItemKind;
  name: string;
  originalTitle?: string;
  libraryId: string;
  /** Direct parent: the library folder, the series or the season. */
  parentId: string;
  productionYear?: number;
  premiereDate?: Date;
  dateCreated: Date;
  overview?: string;
  path?: string;
  providerIds: Record<string, string>;
  runTimeTicks?: number;
  seriesId?: string;
  seriesName?: string;
  seasonId?: string;
  seasonName?: string;
  indexNumber?: number;
  indexNumberEnd?: number;
  parentIndexNumber?: number;
  /** `Virtual` = a "missing" episode known from metadata but not on disk. */
  locationType: 'FileSystem' | 'Virtual';
  video?: VideoSpec;
  audio?: AudioSpec;
  container?: string;
  size?: number;
  /** Whether a Primary image exists (drives `ImageTags` and the image endpoint). */
  hasPrimaryImage: boolean;
  /** `Genres`, sent when `Fields` asks for them. Episodes usually have none (their series has). */
  genres?: string[];
}

export type Policy = Record<string, unknown>;

export interface FakeUser {
  id: string;
  name: string;
  /** Empty string means "no password", as both servers allow. */
  password: string;
  policy: Policy;
  dateCreated: Date;
  lastLoginDate?: Date;
  lastActivityDate?: Date;
  /** Per-item play state (`UserData`): resume positions and plays, by item id. */
  userData?: Map<string, UserItemData>;
}

/** A user's play state of one item, as both servers keep it (`UserItemDataDto`). */
export interface UserItemData {
  playbackPositionTicks: number;
  playCount: number;
  played: boolean;
  lastPlayedDate: Date;
}

export interface FakeDevice {
  /** Internal key; one record per client DeviceId (and per user on Jellyfin). */
  key: string;
  /** The DeviceId the client reported. */
  deviceId: string;
  /** Emby lists devices under a server-side numeric id that differs from the reported one. */
  internalId: number;
  name: string;
  customName?: string;
  appName: string;
  appVersion: string;
  userId: string;
  /** Access token bound to this device; absent once logged out (Emby keeps the device). */
  token?: string;
  dateLastActivity: Date;
  ipAddress: string;
}

export interface Transcoding {
  videoCodec: string;
  audioCodec: string;
  container: string;
  bitrate: number;
  width: number;
  height: number;
  isVideoDirect: boolean;
  isAudioDirect: boolean;
  reasons: string[];
}

export interface NowPlaying {
  itemId: string;
  positionTicks: number;
  isPaused: boolean;
  playMethod: PlayMethod;
  transcoding?: Transcoding;
}

export interface FakeSession {
  id: string;
  deviceKey: string;
  userId: string;
  lastActivity: Date;
  remoteEndPoint: string;
  playing?: NowPlaying;
}

/** A message or playstate command sent to a client's session (`remote-control.ts`). */
export interface SessionCommand {
  at: Date;
  sessionId: string;
  userId: string;
  /** `Message`, or the playstate command (`Stop`, `Pause`, …). */
  command: string;
  text?: string;
  header?: string;
  timeoutMs?: number;
}

export interface FaultRule {
  /** Substring (case-insensitive) or RegExp matched against the route path (no prefix). */
  path?: string | RegExp;
  method?: string;
  /** Answer with this status instead of handling the call. */
  status?: number;
  body?: string;
  delayMs?: number;
  /** Destroy the socket without answering (a network error for the client). */
  reset?: boolean;
  /** How many more requests the rule applies to; unlimited when absent. */
  times?: number;
}

export interface FaultState {
  /** Delay added to every request. */
  delayMs: number;
  rules: FaultRule[];
}

export interface RequestLogEntry {
  at: Date;
  method: string;
  /** The raw path as received, prefixes included. */
  path: string;
  /** The route template that answered, e.g. `/Users/{id}`; absent for 404s. */
  route?: string;
  query: Record<string, string | string[]>;
  /** Header names lower-cased; credential values replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, raw text otherwise, undefined when empty. */
  body: unknown;
  status?: number;
  /**
   * The credential form that carried the accepted-or-refused token, e.g.
   * `authorization:MediaBrowser`, `x-emby-token`, `ApiKey`; absent when none was read.
   */
  credential?: string;
  /** Whether legacy credentials were present but ignored (Jellyfin with legacy auth off). */
  ignoredLegacy?: boolean;
  /** Stack of an exception thrown inside the fake while answering (a fake bug, not a fault). */
  error?: string;
}

export interface WebhookConfig {
  /** Where `/__fake/items` sends the "item added" webhook; none when absent. */
  url?: string;
  headers?: Record<string, string>;
  embyFormat: 'multipart' | 'json';
  jellyfinFormat: 'json' | 'text';
  /** Handlebars-style template for the Jellyfin plugin; Send All Properties when absent. */
  jellyfinTemplate?: string;
}

export interface MediaState {
  readonly flavour: Flavour;
  readonly mode: MediaServerMode;
  readonly version: string;
  readonly serverId: string;
  serverName: string;
  apiKey: string;
  /** Jellyfin shows an API key's name as the session client. */
  apiKeyName: string;
  /** Jellyfin `EnableLegacyAuthorization`; always true on Emby. */
  legacyAuthorization: boolean;
  /** IANA zone in which the playback plugin writes `DateCreated`. */
  timeZone: string;
  users: Map<string, FakeUser>;
  libraries: Map<string, FakeLibrary>;
  items: Map<string, FakeItem>;
  devices: Map<string, FakeDevice>;
  sessions: Map<string, FakeSession>;
  /** Messages and playstate commands sent to sessions, oldest first. */
  sessionCommands: SessionCommand[];
  playback: PlaybackStore;
  faults: FaultState;
  requests: RequestLogEntry[];
  webhook: WebhookConfig;
  now: () => Date;
  /** Deterministic id source; see state.ts. */
  counters: { item: number; guid: number; device: number };
}

// What a request's credentials resolved to (auth.ts); here so http.ts's `Ctx` can name it without
// importing auth.ts, which imports http.ts.
/** The `Client`, `Device`, `DeviceId`, `Version` and `Token` members of an authorization header. */
export interface ClientFields {
  client?: string;
  device?: string;
  deviceId?: string;
  version?: string;
  token?: string;
}

export interface AuthInfo {
  kind: 'none' | 'apiKey' | 'user' | 'invalid';
  token?: string;
  user?: FakeUser;
  device?: FakeDevice;
  fields: ClientFields;
  /** Which credential form carried the token, for the request log and tests. */
  source?: string;
  /** Whether legacy credentials were sent but ignored (Jellyfin 12's anonymous-caller case). */
  ignoredLegacy: boolean;
  isAdmin: boolean;
}
