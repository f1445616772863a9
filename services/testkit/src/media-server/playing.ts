// What a client reports while it plays (`POST /Sessions/Playing`, `/Playing/Progress`,
// `/Playing/Stopped`, both servers): the session of the caller's device then shows
// `NowPlayingItem`, `PlayState` and, while transcoding, `TranscodingInfo`. Tests and the e2e
// start and stop live sessions this way, exactly as an Emby or Jellyfin app would.
import { bodyObject, noContent, problem, text, validationProblem } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { findCaseInsensitive } from './policy.js';
import { hexId, normaliseId } from './state.js';
import type { FakeSession, PlayMethod, Transcoding } from './types.js';

const PLAY_METHODS: readonly PlayMethod[] = ['DirectPlay', 'DirectStream', 'Transcode'];

/** What a server transcoding a 1080p stream for a browser reports. */
const TRANSCODE: Transcoding = {
  videoCodec: 'h264',
  audioCodec: 'aac',
  container: 'ts',
  bitrate: 6_000_000,
  width: 1920,
  height: 1080,
  isVideoDirect: false,
  isAudioDirect: false,
  reasons: ['VideoCodecNotSupported'],
};

function refused(ctx: Ctx, status: number, message: string): Reply {
  return ctx.state.flavour === 'emby'
    ? text(status, message)
    : problem(status, { detail: message });
}

/**
 * The caller's session. A device token always has one on the real servers (they open it again
 * on any call, `LogSessionActivity`), so a missing one is opened here too; an API key has none.
 */
function ownSession(ctx: Ctx): FakeSession | null {
  const { state, auth } = ctx;
  const device = auth.device;
  if (!device || !auth.user) return null;
  const found = [...state.sessions.values()].find((s) => s.deviceKey === device.key);
  if (found) return found;
  const session: FakeSession = {
    id: hexId(`session:${device.key}:${device.token ?? ''}`),
    deviceKey: device.key,
    userId: auth.user.id,
    lastActivity: state.now(),
    remoteEndPoint: ctx.remoteAddress,
  };
  state.sessions.set(session.id, session);
  return session;
}

function report(ctx: Ctx, event: 'start' | 'progress' | 'stop'): Reply {
  const { state } = ctx;
  const body = bodyObject(ctx) ?? {};
  const session = ownSession(ctx);
  if (!session) return refused(ctx, 400, 'No session for this access token');
  session.lastActivity = state.now();
  const device = state.devices.get(session.deviceKey);
  if (device) device.dateLastActivity = state.now();
  if (event === 'stop') {
    delete session.playing;
    return noContent();
  }
  const rawId = findCaseInsensitive(body, 'ItemId');
  const itemId =
    typeof rawId === 'string' ? normaliseId(state, rawId) : (session.playing?.itemId ?? null);
  const item = itemId ? state.items.get(itemId) : undefined;
  if (!item) {
    return state.flavour === 'emby'
      ? text(404, 'Item not found')
      : validationProblem({ ItemId: ['The ItemId field is not a known item.'] });
  }
  const rawMethod = findCaseInsensitive(body, 'PlayMethod') ?? session.playing?.playMethod;
  const method = PLAY_METHODS.find((m) => m === rawMethod) ?? 'DirectPlay';
  if (rawMethod !== undefined && !PLAY_METHODS.includes(rawMethod as PlayMethod)) {
    return state.flavour === 'emby'
      ? text(400, `Requested value '${String(rawMethod)}' was not found.`)
      : validationProblem({ PlayMethod: [`The JSON value could not be converted.`] });
  }
  const ticks = Number(findCaseInsensitive(body, 'PositionTicks') ?? 0);
  const paused = findCaseInsensitive(body, 'IsPaused');
  session.playing = {
    itemId: item.id,
    positionTicks: Number.isFinite(ticks) && ticks >= 0 ? ticks : 0,
    isPaused: paused === true,
    playMethod: method,
    ...(method === 'Transcode' ? { transcoding: { ...TRANSCODE } } : {}),
  };
  return noContent();
}

export const playingRoutes: Route[] = [
  { method: 'POST', path: '/Sessions/Playing', auth: 'user', handler: (c) => report(c, 'start') },
  {
    method: 'POST',
    path: '/Sessions/Playing/Progress',
    auth: 'user',
    handler: (c) => report(c, 'progress'),
  },
  {
    method: 'POST',
    path: '/Sessions/Playing/Stopped',
    auth: 'user',
    handler: (c) => report(c, 'stop'),
  },
];
