// Reply schemas (only the fields Usher reads, §1.4) and their mapping to the port's types. Both
// servers share these DTO shapes; where they differ the adapters pick the fields.
import { z } from 'zod';
import type { MediaItem, MediaSession, MediaUser, PlayMethod, ResumePoint } from './port.js';
import { normaliseId } from './port.js';
import { StreamSchema, videoQuality } from './quality.js';

const TICKS_PER_SECOND = 10_000_000;

const str = z.string().nullish();
const num = z.number().nullish();

/** `{Id, ServerName, Version, ProductName?}` of `/System/Info[/Public]`. */
export const SystemInfoSchema = z.object({
  Id: z.string(),
  ServerName: str,
  Version: z.string(),
  ProductName: str,
});

export const UserSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  HasPassword: z.boolean().nullish(),
  LastLoginDate: str,
  LastActivityDate: str,
  // The whole policy is kept on purpose: the policy POST replaces every field (§1.5).
  Policy: z.record(z.string(), z.unknown()).nullish(),
});
export type UserDto = z.infer<typeof UserSchema>;

/** List users: Emby's `/Users/Query` page or the bare array of `/Users` (§1.4 accepts both). */
export const UserListSchema = z.union([
  z.array(UserSchema),
  z.object({ Items: z.array(UserSchema) }).transform((p) => p.Items),
]);

export const AuthResultSchema = z.object({
  User: z.object({ Id: z.string() }),
  AccessToken: z.string(),
});

/** The image fields of a BaseItemDto that choose its poster (sent by default, no `Fields`). */
const imageFields = {
  ImageTags: z.record(z.string(), z.string().nullish()).nullish(),
  SeriesId: str,
  SeriesPrimaryImageTag: str,
};

/** `/Devices`: the fields both servers send, and each server's own (`Id` and the rest). */
export const devicesSchema = <T extends z.ZodRawShape>(own: T) =>
  z.object({
    Items: z.array(
      z.object({
        ...own,
        Name: str,
        AppName: str,
        AppVersion: str,
        LastUserId: str,
        LastUserName: str,
        DateLastActivity: str,
      }),
    ),
  });

const NowPlayingSchema = z.object({
  ...imageFields,
  Id: z.string(),
  Name: str,
  Type: str,
  SeriesName: str,
  ParentIndexNumber: num,
  IndexNumber: num,
  RunTimeTicks: num,
});

export const SessionSchema = z.object({
  Id: z.string(),
  UserId: str,
  UserName: str,
  Client: str,
  DeviceName: str,
  DeviceId: str,
  ApplicationVersion: str,
  RemoteEndPoint: str,
  LastActivityDate: str,
  NowPlayingItem: NowPlayingSchema.nullish(),
  PlayState: z
    .object({ PositionTicks: num, IsPaused: z.boolean().nullish(), PlayMethod: str })
    .nullish(),
  // Its presence means the server is transcoding this stream; `Bitrate` is the output's.
  TranscodingInfo: z.object({ Bitrate: num }).nullish(),
  /** Emby only: the `/Devices` list Id of this session's device. */
  InternalDeviceId: z.union([z.number(), z.string()]).nullish(),
});

export const ItemSchema = z.object({
  ...imageFields,
  Id: z.string(),
  Name: str,
  Type: str,
  ParentId: str,
  SeriesName: str,
  SeasonId: str,
  ParentIndexNumber: num,
  IndexNumber: num,
  IndexNumberEnd: num,
  ProductionYear: num,
  DateCreated: str,
  Overview: str,
  Path: str,
  RunTimeTicks: num,
  ProviderIds: z.record(z.string(), z.string().nullish()).nullish(),
  ChildCount: num,
  LocationType: str,
  Genres: z.array(z.string()).nullish(),
  UserData: z
    .object({
      PlaybackPositionTicks: num,
      PlayedPercentage: num,
      LastPlayedDate: str,
      Played: z.boolean().nullish(),
    })
    .nullish(),
  MediaStreams: z.array(StreamSchema).nullish(),
  MediaSources: z.array(z.object({ MediaStreams: z.array(StreamSchema).nullish() })).nullish(),
});
export type ItemDto = z.infer<typeof ItemSchema>;

export const ItemPageSchema = z.object({
  Items: z.array(ItemSchema),
  TotalRecordCount: num,
  StartIndex: num,
});

export const ItemCountsSchema = z.object({
  MovieCount: z.number(),
  SeriesCount: z.number(),
  EpisodeCount: z.number(),
});

export const LibraryPageSchema = z.object({
  Items: z.array(z.object({ Id: z.string(), Guid: str, Name: z.string(), CollectionType: str })),
});

/** Server time → ISO UTC. Both send UTC with 7 fraction digits; "0001-01-01" means never. */
export function isoUtc(raw: string | null | undefined): string | undefined {
  if (!raw || raw.startsWith('0001-01-01')) return undefined;
  // Cut the fraction to milliseconds and read a zone-less value as UTC, which is what it is.
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(raw);
  const text = m ? `${m[1]}.${(m[2] ?? '').padEnd(3, '0').slice(0, 3)}${m[3] ?? 'Z'}` : raw;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

export function ticksToSeconds(ticks: number | null | undefined): number | undefined {
  return ticks === null || ticks === undefined ? undefined : ticks / TICKS_PER_SECOND;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/**
 * The item whose Primary image is this item's poster, or undefined when there is none (the poster
 * URL would only 404). An episode shows its show's poster (2:3, `SeriesPrimaryImageTag`), as the
 * servers' own clients do, rather than its 16:9 still; anything else its own Primary image.
 */
export function posterItemOf(dto: {
  Id: string;
  Type?: string | null;
  ImageTags?: Record<string, string | null | undefined> | null;
  SeriesId?: string | null;
  SeriesPrimaryImageTag?: string | null;
}): string | undefined {
  if (dto.Type === 'Episode' && dto.SeriesId && dto.SeriesPrimaryImageTag) {
    return normaliseId(dto.SeriesId);
  }
  return dto.ImageTags?.['Primary'] ? normaliseId(dto.Id) : undefined;
}

export function toMediaUser(dto: UserDto): MediaUser {
  const policy = dto.Policy ?? {};
  return {
    id: normaliseId(dto.Id),
    name: dto.Name,
    hasPassword: dto.HasPassword === true,
    ...defined('lastLoginAt', isoUtc(dto.LastLoginDate)),
    ...defined('lastActivityAt', isoUtc(dto.LastActivityDate)),
    disabled: policy['IsDisabled'] === true,
    isAdministrator: policy['IsAdministrator'] === true,
    policy,
  };
}

const PLAY_METHODS: readonly PlayMethod[] = ['DirectPlay', 'DirectStream', 'Transcode'];

export function toMediaSession(
  dto: z.infer<typeof SessionSchema>,
  deviceKey: string | undefined,
): MediaSession {
  const np = dto.NowPlayingItem;
  const ps = dto.PlayState;
  const method = PLAY_METHODS.find((m) => m === ps?.PlayMethod);
  return {
    id: dto.Id,
    ...defined('userId', dto.UserId ? normaliseId(dto.UserId) : undefined),
    ...defined('userName', opt(dto.UserName)),
    ...defined('client', opt(dto.Client)),
    ...defined('deviceName', opt(dto.DeviceName)),
    ...defined('deviceId', opt(dto.DeviceId)),
    ...defined('deviceKey', deviceKey),
    ...defined('appVersion', opt(dto.ApplicationVersion)),
    ...defined('remoteAddress', opt(dto.RemoteEndPoint)),
    ...defined('lastActivityAt', isoUtc(dto.LastActivityDate)),
    ...(np
      ? {
          nowPlaying: {
            itemId: normaliseId(np.Id),
            name: np.Name ?? '',
            type: np.Type ?? '',
            ...defined('seriesName', opt(np.SeriesName)),
            ...defined('season', opt(np.ParentIndexNumber)),
            ...defined('episode', opt(np.IndexNumber)),
            ...defined('runtimeSeconds', ticksToSeconds(np.RunTimeTicks)),
            ...defined('posterItemId', posterItemOf(np)),
          },
          playState: {
            positionSeconds: ticksToSeconds(ps?.PositionTicks) ?? 0,
            isPaused: ps?.IsPaused === true,
            ...defined('playMethod', method),
          },
        }
      : {}),
    transcoding: dto.TranscodingInfo !== null && dto.TranscodingInfo !== undefined,
    ...defined('bitrate', opt(dto.TranscodingInfo?.Bitrate)),
  };
}

/** `ProviderIds.Tmdb` whatever the key's case (servers and plugins spell it differently). */
export function tmdbOf(providerIds: Record<string, string>): string | undefined {
  const key = Object.keys(providerIds).find((k) => k.toLowerCase() === 'tmdb');
  return key === undefined ? undefined : providerIds[key];
}

export function toMediaItem(dto: ItemDto, withStreams = false): MediaItem {
  const providerIds: Record<string, string> = {};
  for (const [k, v] of Object.entries(dto.ProviderIds ?? {})) if (v) providerIds[k] = v;
  const idOf = (v: string | null | undefined) => (v ? normaliseId(v) : undefined);
  const item: MediaItem = {
    id: normaliseId(dto.Id),
    name: dto.Name ?? '',
    type: dto.Type ?? '',
    ...defined('parentId', idOf(dto.ParentId)),
    ...defined('seriesId', idOf(dto.SeriesId)),
    ...defined('seriesName', opt(dto.SeriesName)),
    ...defined('seasonId', idOf(dto.SeasonId)),
    ...defined('season', opt(dto.ParentIndexNumber)),
    ...defined('episode', opt(dto.IndexNumber)),
    ...defined('episodeEnd', opt(dto.IndexNumberEnd)),
    ...defined('year', opt(dto.ProductionYear)),
    ...defined('createdAt', isoUtc(dto.DateCreated)),
    ...defined('overview', opt(dto.Overview)),
    ...defined('path', opt(dto.Path)),
    ...defined('runtimeSeconds', ticksToSeconds(dto.RunTimeTicks)),
    ...defined('tmdbId', tmdbOf(providerIds)),
    providerIds,
    ...defined('primaryImageTag', opt(dto.ImageTags?.['Primary'])),
    ...defined('posterItemId', posterItemOf(dto)),
    ...defined('childCount', opt(dto.ChildCount)),
    virtual: dto.LocationType === 'Virtual',
    ...defined('genres', opt(dto.Genres)),
    ...defined('resume', resumeOf(dto)),
  };
  if (withStreams) {
    item.quality = videoQuality(dto.MediaStreams ?? [], dto.MediaSources?.[0]?.MediaStreams ?? []);
  }
  return item;
}

/** The user's resume point from `UserData`: only a position short of the end counts. */
function resumeOf(dto: ItemDto): ResumePoint | undefined {
  const data = dto.UserData;
  const seconds = ticksToSeconds(data?.PlaybackPositionTicks);
  if (!data || !seconds || data.Played) return undefined;
  const runtime = ticksToSeconds(dto.RunTimeTicks);
  const percent =
    typeof data.PlayedPercentage === 'number'
      ? data.PlayedPercentage
      : runtime
        ? (seconds / runtime) * 100
        : undefined;
  return {
    positionSeconds: Math.round(seconds),
    ...defined('percent', percent === undefined ? undefined : Math.min(100, Math.max(0, percent))),
    ...defined('lastPlayedAt', isoUtc(data.LastPlayedDate)),
  };
}

/** `{key: value}` when the value is present, `{}` otherwise: keeps the port objects lean. */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
