import {
  mediaLatestQuerySchema,
  mediaLatestSchema,
  mediaResumeQuerySchema,
  mediaResumeSchema,
  mediaServerPublicSchema,
  mediaStatsSchema,
  pageOf,
  playbackHistoryQuerySchema,
  playbackProfileSchema,
  playbackProfilesPageSchema,
  playbackProfilesQuerySchema,
  playbackRangeQuerySchema,
  playbackRecordSchema,
  playbackSummaryQuerySchema,
  playbackSummarySchema,
  posterParamsSchema,
  posterQuerySchema,
  posterWallParamsSchema,
  posterWallQuerySchema,
  posterWallSchema,
  type PlaybackRangeQuery,
  sessionListSchema,
  sessionsQuerySchema,
  uuidSchema,
} from '@usher/contracts';
import { z } from 'zod';
import type { AuthContext } from '../../http/context.js';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { latestForUser, MediaHomeCache, mediaServerPublic, resumeForUser } from './home.js';
import { playbackHistory, playbackProfiles, userPortrait } from './playback.js';
import { PosterSigner } from './poster-signer.js';
import { PosterWallCache } from './poster-wall.js';
import { posterForRequest, posterUrlsFor, withPosters } from './posters.js';
import { listSessions } from './sessions.js';
import { playbackSummary } from './summary.js';

const PLAYBACK_ERRORS = ['MEDIA_ACCOUNT_UNLINKED', ...UPSTREAM_ERRORS];
const idParams = z.strictObject({ id: uuidSchema });

/** 20-api.md "Media", `/me/playback`, "Playback, sessions" and `/internal/media/stats`. */
export function mediaRoutes(ctx: ModuleContext): RouteDef[] {
  // Per replica, as 20-api.md allows: stats 5 min, poster access 10 min, poster bytes 1 h.
  const cache = new MediaHomeCache();
  const signer = new PosterSigner(ctx.config.JWT_SECRET);
  const home = { cache, signer };
  const wall = new PosterWallCache(cache);
  /** The library counts, for members and for the bot: one cache, one reply. */
  const stats = (path: string, auth: 'user' | 'internal', tags: string[], summary: string) =>
    defineRoute({
      method: 'get',
      path,
      auth,
      summary,
      tags,
      responses: { 200: { description: 'Counts', schema: mediaStatsSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c) => c.json(await cache.stats(ctx)),
    });
  /** A member's viewing portrait with its posters signed for the caller. */
  const portrait = async (userId: string, query: PlaybackRangeQuery, auth: AuthContext) =>
    withPosters(ctx, home, await userPortrait(ctx, userId, query), auth);
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/media/server',
      auth: 'user',
      summary: 'Where apps connect to the media server (the public URL, else the internal one)',
      tags: ['media'],
      responses: { 200: { description: 'Server', schema: mediaServerPublicSchema } },
      handler: async (c) => c.json(await mediaServerPublic(ctx)),
    }),
    stats('/api/v1/media/stats', 'user', ['media'], 'Library counts (cached 5 min per replica)'),
    defineRoute({
      method: 'get',
      path: '/api/v1/media/latest',
      auth: 'user',
      summary: "Recently added items for the caller's own media account, with signed poster URLs",
      tags: ['media'],
      request: { query: mediaLatestQuerySchema },
      responses: { 200: { description: 'Latest', schema: mediaLatestSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { query, auth }) =>
        c.json(await latestForUser(ctx, signer, auth.userId, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/media/resume',
      auth: 'user',
      summary: "Continue watching: the caller's own resume points, newest first, signed posters",
      tags: ['media'],
      request: { query: mediaResumeQuerySchema },
      responses: { 200: { description: 'Resume points', schema: mediaResumeSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { query, auth }) =>
        c.json(await resumeForUser(ctx, signer, auth.userId, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/media/posters/:itemId',
      // A signed URL (for `<img src>`) or a bearer token; checked here, so the level is public.
      auth: 'public',
      summary: 'Poster image of an item the caller (or the URL signer) may see',
      tags: ['media'],
      request: { params: posterParamsSchema, query: posterQuerySchema },
      responses: { 200: { description: 'Image bytes', contentType: 'image/*' } },
      errors: ['POSTER_NOT_FOUND', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_AUTH_FAILED'],
      handler: async (c, { params, query }) => {
        const { u, exp, sig, width } = query;
        const image = await posterForRequest(ctx, home, {
          itemId: params.itemId,
          width,
          signed: { u, exp, sig },
          authorization: c.req.header('authorization'),
        });
        return c.body(new Uint8Array(image.bytes), 200, {
          'Content-Type': image.contentType,
          'Cache-Control': 'private, max-age=86400',
          'X-Content-Type-Options': 'nosniff',
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/public/poster-wall',
      auth: 'public',
      summary: 'Slots of the poster wall behind sign-in (pictures only, chosen hourly)',
      tags: ['public'],
      responses: { 200: { description: 'Wall', schema: posterWallSchema } },
      handler: async (c) =>
        c.json(await wall.list(ctx), 200, { 'Cache-Control': 'public, max-age=600' }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/public/poster-wall/:slot',
      auth: 'public',
      summary: "A poster wall slot's image, small",
      tags: ['public'],
      request: { params: posterWallParamsSchema, query: posterWallQuerySchema },
      responses: { 200: { description: 'Image bytes', contentType: 'image/*' } },
      errors: ['POSTER_NOT_FOUND', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_AUTH_FAILED'],
      handler: async (c, { params }) => {
        const image = await wall.tile(ctx, params.slot);
        // Versioned URLs (`?v=`): a slot's new poster gets a new URL, so a day is safe.
        return c.body(new Uint8Array(image.bytes), 200, {
          'Content-Type': image.contentType,
          'Cache-Control': 'public, max-age=86400',
          'X-Content-Type-Options': 'nosniff',
        });
      },
    }),
    stats(
      '/api/v1/internal/media/stats',
      'internal',
      ['internal'],
      'Library counts for the bot (same cache as /media/stats)',
    ),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/playback',
      auth: 'user',
      summary: "The caller's viewing portrait from the Playback Reporting plugin",
      tags: ['me'],
      request: { query: playbackRangeQuerySchema },
      responses: { 200: { description: 'Portrait', schema: playbackProfileSchema } },
      errors: PLAYBACK_ERRORS,
      handler: async (c, { query, auth }) => c.json(await portrait(auth.userId, query, auth)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/users/:id/playback',
      auth: 'admin',
      summary: "A user's viewing portrait",
      tags: ['users'],
      request: { params: idParams, query: playbackRangeQuerySchema },
      responses: { 200: { description: 'Portrait', schema: playbackProfileSchema } },
      errors: ['USER_NOT_FOUND', ...PLAYBACK_ERRORS],
      handler: async (c, { params, query, auth }) => c.json(await portrait(params.id, query, auth)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/playback/history',
      auth: 'admin',
      summary: 'Plays, newest first (≤ 366 days, default the last 30)',
      tags: ['playback'],
      request: { query: playbackHistoryQuerySchema },
      responses: { 200: { description: 'Plays', schema: pageOf(playbackRecordSchema) } },
      errors: ['USER_NOT_FOUND', ...UPSTREAM_ERRORS],
      handler: async (c, { query, auth }) =>
        c.json(await withPosters(ctx, home, await playbackHistory(ctx, query), auth)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/playback/profiles',
      auth: 'admin',
      summary: 'One summary row per member who played in the range, with totals of all',
      tags: ['playback'],
      request: { query: playbackProfilesQuerySchema },
      responses: { 200: { description: 'Profiles', schema: playbackProfilesPageSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { query }) => c.json(await playbackProfiles(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/playback/summary',
      auth: 'admin',
      summary:
        'Plays of everyone per day, hour and method, top clients and titles (≤ 366 days, default 30)',
      tags: ['playback'],
      request: { query: playbackSummaryQuerySchema },
      responses: { 200: { description: 'Summary', schema: playbackSummarySchema } },
      errors: UPSTREAM_ERRORS,
      // Posters signed for the admin, as the live sessions' are.
      handler: async (c, { query, auth }) =>
        c.json(await playbackSummary(ctx, query, posterUrlsFor(signer, auth, ctx.now()))),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/sessions',
      auth: 'admin',
      summary: 'Live sessions on the media server (not paginated)',
      tags: ['sessions'],
      request: { query: sessionsQuerySchema },
      responses: { 200: { description: 'Sessions', schema: sessionListSchema } },
      errors: UPSTREAM_ERRORS,
      // Posters signed for the admin, so the live page can put them in a plain <img src>.
      handler: async (c, { query, auth }) =>
        c.json(
          await listSessions(
            ctx,
            query.activeWithinSeconds,
            posterUrlsFor(signer, auth, ctx.now()),
          ),
        ),
    }),
  ];
}
