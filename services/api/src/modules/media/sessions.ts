// `GET /admin/sessions` (20-api.md): who is on the media server now, each session mapped field by
// field and linked to its Usher user where one is bound to the media account.
import type { Session, SessionList } from '@usher/contracts';
import type { MediaSession } from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { usersByMediaId, type LinkedUser } from './queries.js';

/**
 * `posterUrl` signs the item whose Primary image is the poster (an episode: its show's); a
 * playing item without any image gets no `posterUrl`.
 */
export function toSession(
  s: MediaSession,
  linked: LinkedUser | undefined,
  posterUrl?: (posterItemId: string) => string,
): Session {
  const np = s.nowPlaying;
  const ps = s.playState;
  const transcoding = s.transcoding || ps?.playMethod === 'Transcode';
  const runtime = np?.runtimeSeconds;
  const position = ps?.positionSeconds ?? 0;
  return {
    id: s.id,
    user: {
      mediaUserId: s.userId ?? '',
      name: s.userName ?? '',
      ...(linked ? { userId: linked.id, username: linked.username } : {}),
    },
    client: s.client ?? '',
    deviceName: s.deviceName ?? '',
    deviceId: s.deviceId ?? '',
    appVersion: s.appVersion ?? '',
    remoteAddress: s.remoteAddress ?? null,
    lastActivityAt: s.lastActivityAt ?? null,
    nowPlaying: np
      ? {
          itemId: np.itemId,
          name: np.name,
          type: np.type,
          seriesName: np.seriesName ?? null,
          season: np.season ?? null,
          episode: np.episode ?? null,
          runtimeSeconds: runtime ?? null,
          ...(posterUrl && np.posterItemId ? { posterUrl: posterUrl(np.posterItemId) } : {}),
        }
      : null,
    playState:
      np && ps
        ? {
            positionSeconds: position,
            isPaused: ps.isPaused,
            playMethod: ps.playMethod ?? (transcoding ? 'Transcode' : 'unknown'),
            progress: runtime && runtime > 0 ? Math.min(1, Math.max(0, position / runtime)) : null,
            transcoding,
            bitrate: transcoding && s.bitrate !== undefined ? Math.round(s.bitrate) : null,
          }
        : null,
  };
}

export async function listSessions(
  ctx: ModuleContext,
  activeWithinSeconds: number,
  posterUrl?: (posterItemId: string) => string,
): Promise<SessionList> {
  const server = await ctx.integrations.mediaServer.get();
  const sessions = await server.listSessions();
  const now = ctx.now();
  const cutoff = now.getTime() - activeWithinSeconds * 1000;
  // Sessions with no activity date are kept: the server lists them as live.
  const recent = sessions.filter(
    (s) => s.lastActivityAt === undefined || Date.parse(s.lastActivityAt) >= cutoff,
  );
  const linked = await usersByMediaId(
    ctx.db,
    recent.map((s) => s.userId ?? ''),
  );
  const data = recent
    .map((s) => toSession(s, s.userId ? linked.get(s.userId) : undefined, posterUrl))
    // Playing first, then by last activity.
    .sort(
      (a, b) =>
        Number(b.nowPlaying !== null) - Number(a.nowPlaying !== null) ||
        (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''),
    );
  return { data, fetchedAt: now.toISOString() };
}
