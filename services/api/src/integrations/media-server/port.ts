// The media-server port (50-integrations.md §1.1): what the rest of Usher may ask of Emby or
// Jellyfin, in server-neutral types. Ids are normalised (Jellyfin GUIDs → 32 lower-case hex), times
// are ISO UTC strings, durations are seconds (the servers' ticks are 10,000,000 per second).
import type { VideoQuality } from './quality.js';

export type MediaServerKind = 'emby' | 'jellyfin';

/** Product names for messages. */
export const PRODUCT_NAMES: Record<MediaServerKind, string> = {
  emby: 'Emby',
  jellyfin: 'Jellyfin',
};

export interface ServerInfo {
  id: string;
  name: string;
  version: string;
  product: MediaServerKind;
  /** Whether the version is one Usher supports (Emby ≥ 4.7, Jellyfin ≥ 10.9); older only warns. */
  supported: boolean;
}

export interface MediaUser {
  id: string;
  name: string;
  hasPassword: boolean;
  lastLoginAt?: string;
  lastActivityAt?: string;
  disabled: boolean;
  isAdministrator: boolean;
  /** The server's whole policy object, needed for read-modify-write (the POST replaces it). */
  policy: Record<string, unknown>;
}

/**
 * Member access rules (30-settings.md §4.2 `MEMBER_*`), mapped to server fields by policy.ts.
 * Absent fields keep the server's current value.
 */
export interface PolicyPatch {
  disabled?: boolean;
  allLibraries?: boolean;
  /** `Library.id` values: the Guid on Emby, the Id on Jellyfin. */
  libraryIds?: string[];
  /** 0 = no limit. Emby counts simultaneous streams, Jellyfin active sessions at login. */
  streamLimit?: number;
  allowDownloads?: boolean;
  allowVideoTranscoding?: boolean;
  allowAudioTranscoding?: boolean;
  allowRemux?: boolean;
  allowRemoteAccess?: boolean;
}

export type PlayMethod = 'DirectPlay' | 'DirectStream' | 'Transcode';

export interface MediaSession {
  id: string;
  userId?: string;
  userName?: string;
  client?: string;
  deviceName?: string;
  /** The DeviceId the client reported. */
  deviceId?: string;
  /** What `logoutDevice` takes: Emby's `InternalDeviceId`, Jellyfin's DeviceId. */
  deviceKey?: string;
  appVersion?: string;
  remoteAddress?: string;
  lastActivityAt?: string;
  nowPlaying?: {
    itemId: string;
    name: string;
    type: string;
    seriesName?: string;
    season?: number;
    episode?: number;
    runtimeSeconds?: number;
    /** The item whose Primary image is the poster (see `MediaItem.posterItemId`). */
    posterItemId?: string;
  };
  playState?: { positionSeconds: number; isPaused: boolean; playMethod?: PlayMethod };
  /** Whether the server is transcoding this stream. */
  transcoding: boolean;
  /** `TranscodingInfo.Bitrate` (bits per second), when transcoding. */
  bitrate?: number;
}

export interface MediaDevice {
  /** The id `logoutDevice` takes: Emby's list `Id` (≠ the client's DeviceId), Jellyfin's `Id`. */
  key: string;
  /** The DeviceId the client reported (Emby `ReportedDeviceId`). */
  deviceId: string;
  name: string;
  client?: string;
  appVersion?: string;
  lastUserId?: string;
  lastUserName?: string;
  lastActivityAt?: string;
  /** Emby only. */
  ipAddress?: string;
}

export interface ItemCounts {
  movies: number;
  series: number;
  episodes: number;
}

export interface MediaItem {
  id: string;
  name: string;
  type: string;
  parentId?: string;
  seriesId?: string;
  seriesName?: string;
  seasonId?: string;
  /** `ParentIndexNumber` for episodes. */
  season?: number;
  /** `IndexNumber`; `episodeEnd` is set for multi-episode files. */
  episode?: number;
  episodeEnd?: number;
  year?: number;
  createdAt?: string;
  overview?: string;
  path?: string;
  runtimeSeconds?: number;
  /** `ProviderIds.Tmdb`, as the server stores it (a string). */
  tmdbId?: string;
  providerIds: Record<string, string>;
  primaryImageTag?: string;
  /**
   * The item whose Primary image is this item's 2:3 poster: the show for an episode whose show
   * has one, else the item itself when it has a Primary image; absent when neither has.
   */
  posterItemId?: string;
  /** Set on grouped "latest" entries: how many new episodes the series entry stands for. */
  childCount?: number;
  /** Whether the server only knows the item from metadata (`LocationType: Virtual`). */
  virtual: boolean;
  /** `Genres`, when the server sent them (items(), which asks for them). */
  genres?: string[];
  /** Present when streams were asked for; null when the item has no video stream. */
  quality?: VideoQuality | null;
  /** The user's resume point (`UserData`), on items read with user data and a position. */
  resume?: ResumePoint;
}

/** Where a user stopped in an item ("continue watching"). */
export interface ResumePoint {
  positionSeconds: number;
  /** 0–100; absent when the server does not know the runtime. */
  percent?: number;
  /** `UserData.LastPlayedDate`, ISO UTC. */
  lastPlayedAt?: string;
}

export interface Library {
  /** The id access lists use: Emby's `Guid` (numeric ids are ignored there), Jellyfin's `Id`. */
  id: string;
  /** The folder's item id, for `items({parentId})`. */
  itemId: string;
  name: string;
  collectionType?: string;
  /** Whether the library belongs in access lists (`boxsets` and `playlists` do not). */
  grantable: boolean;
}

export interface Page<T> {
  items: T[];
  total: number;
  start: number;
}

export interface ItemsQuery {
  ids?: string[];
  parentId?: string;
  types?: string[];
  start?: number;
  limit?: number;
  /** Whether to fetch `MediaStreams`/`MediaSources` and fill `quality`. */
  streams?: boolean;
  /** Run the query as this media user: only items the user's libraries hold come back. */
  userId?: string;
}

export interface ItemImage {
  bytes: Buffer;
  contentType: string;
}

export interface PlaybackResult {
  columns: string[];
  /** Every cell is text, as the plugin sends it. */
  rows: string[][];
}

/** A message shown on a client (`POST /Sessions/{id}/Message`). */
export interface SessionMessage {
  header: string;
  text: string;
  /** How long the client shows it; absent = until the viewer dismisses it. */
  timeoutMs?: number;
}

export interface MediaServer {
  readonly kind: MediaServerKind;
  /** `MEDIA_SERVER_TIMEZONE`: the zone the Playback Reporting plugin writes local times in. */
  readonly timeZone: string;
  probe(): Promise<ServerInfo>;
  authenticate(
    name: string,
    pw: string,
    o: { deviceId: string; keepToken?: boolean },
  ): Promise<{ userId: string; token?: string }>;
  createUser(name: string, pw: string): Promise<MediaUser>;
  setPassword(userId: string, pw: string): Promise<void>;
  getUser(userId: string): Promise<MediaUser | null>;
  updatePolicy(userId: string, patch: PolicyPatch): Promise<void>;
  /** A user the server does not know counts as deleted. */
  deleteUser(userId: string): Promise<void>;
  listUsers(): Promise<MediaUser[]>;
  listSessions(): Promise<MediaSession[]>;
  /** Shows a message on the session's client; false when the session no longer exists (404). */
  sendSessionMessage(sessionId: string, message: SessionMessage): Promise<boolean>;
  /** Tells the session's client to stop playing; false when the session no longer exists (404). */
  stopPlayback(sessionId: string): Promise<boolean>;
  listDevices(userId?: string): Promise<MediaDevice[]>;
  logoutDevice(deviceKey: string): Promise<void>;
  itemCounts(userId?: string): Promise<ItemCounts>;
  latestItems(
    userId: string,
    q: { types: ('Movie' | 'Episode')[]; limit: number },
  ): Promise<MediaItem[]>;
  /**
   * "Continue watching": the user's started, unfinished videos, most recently played first, each
   * with its `resume` point (Emby `/Users/{id}/Items/Resume`, Jellyfin `/UserItems/Resume`).
   */
  resumeItems(userId: string, limit: number): Promise<MediaItem[]>;
  libraries(): Promise<Library[]>;
  items(q: ItemsQuery): Promise<Page<MediaItem>>;
  episodes(seriesId: string, season?: number): Promise<MediaItem[]>;
  findByTmdbId(
    tmdbId: number,
    type: 'Movie' | 'Series',
    titleHint?: string,
  ): Promise<MediaItem | null>;
  /**
   * Which of `tmdbIds` the library holds as `type` (a search page's titles at once): the TMDB
   * ids, as numbers, of the items whose `ProviderIds.Tmdb` is one of them.
   */
  tmdbIdsInLibrary(tmdbIds: number[], type: 'Movie' | 'Series'): Promise<Set<number>>;
  /**
   * The batch form of `findByTmdbId` (no title search): the library's items of `type` by TMDB id,
   * for those of `tmdbIds` it holds (the first item wins when two share an id). One call on Emby,
   * the cached map of the whole type on Jellyfin (`fresh`: rebuilt first, not older than the call).
   */
  findManyByTmdbIds(
    tmdbIds: number[],
    type: 'Movie' | 'Series',
    o?: { fresh?: boolean },
  ): Promise<Map<number, MediaItem>>;
  playbackQuery(sql: string): Promise<PlaybackResult>;
  /** The item's Primary image scaled to `maxWidth`; null when the item or image is unknown. */
  /** `quality` (1–100, default 90) is the JPEG quality the server encodes with. */
  primaryImage(itemId: string, maxWidth: number, quality?: number): Promise<ItemImage | null>;
}

/**
 * What membership's access sync needs from the media server: switch an account's `IsDisabled`
 * (the plain adapter, or a writer that applies the whole member policy with it).
 */
export interface MediaAccessWriter {
  setDisabled(mediaUserId: string, disabled: boolean): Promise<void>;
}

/** The stable DeviceId Usher signs in with for a user (§1.3), so old tokens get replaced. */
export function usherDeviceId(usherUserId: string): string {
  return `usher-${usherUserId}`;
}

const GUID = /^\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/**
 * Normalises an id as Usher stores it: GUIDs (dashed or not) → 32 lower-case hex; Emby numeric
 * item ids stay as they are.
 */
export function normaliseId(raw: string): string {
  const v = raw.trim();
  const m = GUID.exec(v);
  return m ? m.slice(1).join('').toLowerCase() : v;
}

/** Whether the text is a GUID in either form. */
export function isGuid(raw: string): boolean {
  return GUID.test(raw.trim());
}
