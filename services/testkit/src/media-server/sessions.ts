// Sessions and devices. On Jellyfin a device *is* an access token; Emby keeps devices after logout
// and lists them under its own numeric `Id`, distinct from the client's `ReportedDeviceId`.
import { itemDto } from './item-dto.js';
import { isoDate, noContent, ok, problem, text, validationProblem } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { endDeviceToken, parseGuid } from './state.js';
import type { FakeDevice, FakeSession, MediaState, Transcoding } from './types.js';

const NEVER = '0001-01-01T00:00:00.0000000Z';

function playState(state: MediaState, s: FakeSession): Record<string, unknown> {
  const p = s.playing;
  const base: Record<string, unknown> = {
    CanSeek: p !== undefined,
    IsPaused: p?.isPaused ?? false,
    IsMuted: false,
  };
  if (p) {
    Object.assign(base, {
      PositionTicks: p.positionTicks,
      VolumeLevel: 100,
      MediaSourceId: state.flavour === 'emby' ? `mediasource_${p.itemId}` : p.itemId,
      PlayMethod: p.playMethod,
    });
  }
  base['RepeatMode'] = 'RepeatNone';
  if (state.flavour === 'jellyfin') base['PlaybackOrder'] = 'Default';
  return base;
}

function transcodingDto(state: MediaState, t: Transcoding): Record<string, unknown> {
  const dto: Record<string, unknown> = {
    AudioCodec: t.audioCodec,
    VideoCodec: t.videoCodec,
    Container: t.container,
    IsVideoDirect: t.isVideoDirect,
    IsAudioDirect: t.isAudioDirect,
    Bitrate: t.bitrate,
    Framerate: 23.976,
    CompletionPercentage: 12.5,
    Width: t.width,
    Height: t.height,
    AudioChannels: 2,
    TranscodeReasons: t.reasons,
  };
  if (state.flavour === 'jellyfin') dto['HardwareAccelerationType'] = 'none';
  else dto['SubProtocol'] = 'hls';
  return dto;
}

/** SessionInfo (Emby) / SessionInfoDto (Jellyfin). */
export function sessionDto(state: MediaState, s: FakeSession): Record<string, unknown> {
  const device = state.devices.get(s.deviceKey);
  const user = state.users.get(s.userId);
  const item = s.playing ? state.items.get(s.playing.itemId) : undefined;
  const dto: Record<string, unknown> = {
    PlayState: playState(state, s),
    AdditionalUsers: [],
    RemoteEndPoint: s.remoteEndPoint,
    PlayableMediaTypes: ['Audio', 'Video'],
    Id: s.id,
    ServerId: state.serverId,
    UserId: s.userId,
    UserName: user?.name,
    Client: device?.appName,
    LastActivityDate: isoDate(s.lastActivity),
    DeviceName: device?.customName ?? device?.name,
    DeviceId: device?.deviceId,
    ApplicationVersion: device?.appVersion,
    SupportedCommands: [],
    SupportsRemoteControl: false,
  };
  if (item) dto['NowPlayingItem'] = itemDto(state, item, new Set(['providerids']));
  if (s.playing?.transcoding) dto['TranscodingInfo'] = transcodingDto(state, s.playing.transcoding);
  if (state.flavour === 'emby') {
    dto['InternalDeviceId'] = device?.internalId ?? 0;
    return dto;
  }
  return {
    ...dto,
    Capabilities: {
      PlayableMediaTypes: ['Audio', 'Video'],
      SupportedCommands: [],
      SupportsMediaControl: false,
      SupportsPersistentIdentifier: true,
    },
    LastPlaybackCheckIn: s.playing ? isoDate(s.lastActivity) : NEVER,
    IsActive: true,
    SupportsMediaControl: false,
    NowPlayingQueue: [],
    HasCustomDeviceName: device?.customName !== undefined,
  };
}

function listSessions(ctx: Ctx): Reply {
  const { state, query } = ctx;
  let sessions = [...state.sessions.values()];
  if (!ctx.auth.isAdmin) sessions = sessions.filter((s) => s.userId === ctx.auth.user?.id);
  const deviceId = query.get('DeviceId');
  if (deviceId)
    sessions = sessions.filter((s) => state.devices.get(s.deviceKey)?.deviceId === deviceId);
  const within = state.flavour === 'jellyfin' ? query.int('activeWithinSeconds') : undefined;
  if (within !== undefined) {
    const cutoff = state.now().getTime() - within * 1000;
    sessions = sessions.filter((s) => s.lastActivity.getTime() >= cutoff);
  }
  return ok(sessions.map((s) => sessionDto(state, s)));
}

function deviceDto(state: MediaState, d: FakeDevice): Record<string, unknown> {
  const user = state.users.get(d.userId);
  if (state.flavour === 'emby') {
    return {
      Name: d.customName ?? d.name,
      Id: String(d.internalId),
      InternalId: d.internalId,
      ReportedDeviceId: d.deviceId,
      LastUserName: user?.name,
      AppName: d.appName,
      AppVersion: d.appVersion,
      LastUserId: d.userId,
      DateLastActivity: isoDate(d.dateLastActivity),
      IpAddress: d.ipAddress,
    };
  }
  return {
    Name: d.name,
    ...(d.customName ? { CustomName: d.customName } : {}),
    Id: d.deviceId,
    LastUserName: user?.name,
    AppName: d.appName,
    AppVersion: d.appVersion,
    LastUserId: d.userId,
    DateLastActivity: isoDate(d.dateLastActivity),
    Capabilities: {
      PlayableMediaTypes: ['Audio', 'Video'],
      SupportedCommands: [],
      SupportsMediaControl: false,
      SupportsPersistentIdentifier: true,
    },
  };
}

function listDevices(ctx: Ctx): Reply {
  const { state } = ctx;
  let devices = [...state.devices.values()].sort((a, b) => a.internalId - b.internalId);
  if (state.flavour === 'emby') {
    return ok({ Items: devices.map((d) => deviceDto(state, d)), TotalRecordCount: devices.length });
  }
  const raw = ctx.query.get('userId');
  if (raw) {
    const userId = parseGuid(raw);
    if (userId === null) return validationProblem({ userId: [`The value '${raw}' is not valid.`] });
    devices = devices.filter((d) => d.userId === userId);
  }
  return ok({
    Items: devices.map((d) => deviceDto(state, d)),
    TotalRecordCount: devices.length,
    StartIndex: 0,
  });
}

/** `DELETE /Devices?Id=` — the id travels in the query on both servers, never in the path. */
function deleteDevice(ctx: Ctx): Reply {
  const { state } = ctx;
  const ids = ctx.query.list('Id') ?? [];
  if (ids.length === 0) {
    return state.flavour === 'emby'
      ? text(400, 'Id is required')
      : validationProblem({ id: ['The id field is required.'] });
  }
  const matches = [...state.devices.values()].filter((d) =>
    ids.includes(state.flavour === 'emby' ? String(d.internalId) : d.deviceId),
  );
  if (matches.length === 0) {
    if (state.flavour === 'emby') return text(404, 'Device not found');
    // 10.11 answers NotFound(); 12.0 validates the ids first and answers 400 (§1.4).
    return state.mode === 'jellyfin12'
      ? problem(400, { detail: 'Device not found.' })
      : problem(404);
  }
  for (const d of matches) {
    endDeviceToken(state, d.key);
    state.devices.delete(d.key);
  }
  return noContent();
}

export const sessionRoutes: Route[] = [
  { method: 'GET', path: '/Sessions', auth: 'user', handler: listSessions },
  { method: 'GET', path: '/Devices', auth: 'admin', handler: listDevices },
  { method: 'DELETE', path: '/Devices', auth: 'admin', handler: deleteDevice },
  {
    method: 'POST',
    path: '/Devices/Delete',
    auth: 'admin',
    modes: ['emby'],
    handler: deleteDevice,
  },
];
