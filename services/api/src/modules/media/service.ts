// The media module's services for one app (docs/media.md): the per-replica caches and the poster
// signer are built once here, and every reply that carries posters is signed here for its caller,
// so the route table only maps requests to these calls.
import type {
  MediaLatestQuery,
  MediaResumeQuery,
  PlaybackHistoryQuery,
  PlaybackProfilesQuery,
  PlaybackRangeQuery,
  PlaybackSummaryQuery,
} from '@usher/contracts';
import type { AuthContext } from '../../http/context.js';
import type { ModuleContext } from '../context.js';
import { latestForUser, MediaHomeCache, mediaServerPublic, resumeForUser } from './home.js';
import { playbackHistory, playbackProfiles, userPortrait } from './playback.js';
import { PosterSigner } from './poster-signer.js';
import { PosterWallCache } from './poster-wall.js';
import { posterForRequest, posterUrlsFor, withPosters } from './posters.js';
import { listSessions } from './sessions.js';
import { playbackSummary } from './summary.js';

export type MediaService = ReturnType<typeof mediaService>;

export function mediaService(ctx: ModuleContext) {
  // Per replica, as 20-api.md allows: stats 5 min, poster access 10 min, poster bytes 1 h.
  const cache = new MediaHomeCache();
  const signer = new PosterSigner(ctx.config.JWT_SECRET);
  const home = { cache, signer };
  const wall = new PosterWallCache(cache);
  /** Poster URLs signed for the caller now (an admin's show any item). */
  const postersFor = (auth: AuthContext) => posterUrlsFor(signer, auth, ctx.now());
  return {
    server: () => mediaServerPublic(ctx),
    /** The library counts, for members and for the bot: one cache, one reply. */
    stats: () => cache.stats(ctx),
    latest: (auth: AuthContext, query: MediaLatestQuery) =>
      latestForUser(ctx, signer, auth.userId, query),
    resume: (auth: AuthContext, query: MediaResumeQuery) =>
      resumeForUser(ctx, signer, auth.userId, query),
    poster: (request: Parameters<typeof posterForRequest>[2]) =>
      posterForRequest(ctx, home, request),
    wall: () => wall.list(ctx),
    wallTile: (slot: number) => wall.tile(ctx, slot),
    /** A member's viewing portrait with its posters signed for the caller. */
    portrait: async (userId: string, query: PlaybackRangeQuery, auth: AuthContext) =>
      withPosters(ctx, home, await userPortrait(ctx, userId, query), auth),
    history: async (query: PlaybackHistoryQuery, auth: AuthContext) =>
      withPosters(ctx, home, await playbackHistory(ctx, query), auth),
    profiles: (query: PlaybackProfilesQuery) => playbackProfiles(ctx, query),
    summary: (query: PlaybackSummaryQuery, auth: AuthContext) =>
      playbackSummary(ctx, query, postersFor(auth)),
    /** Posters signed for the admin, so the live page can put them in a plain `<img src>`. */
    sessions: (query: { activeWithinSeconds: number }, auth: AuthContext) =>
      listSessions(ctx, query.activeWithinSeconds, postersFor(auth)),
  };
}
