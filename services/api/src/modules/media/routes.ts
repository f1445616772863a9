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
  sessionListSchema,
  sessionsQuerySchema,
  uuidSchema,
} from '@usher/contracts';
import type { Context } from 'hono';
import { z } from 'zod';
import type { ItemImage } from '../../integrations/media-server/index.js';
import { type RouteDef, routeGroup, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { mediaService } from './service.js';

const api = routeGroup('media');
const playback = routeGroup('playback');
const PLAYBACK_ERRORS = ['MEDIA_ACCOUNT_UNLINKED', ...UPSTREAM_ERRORS];
const IMAGE_ERRORS = ['POSTER_NOT_FOUND', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_AUTH_FAILED'];
const idParams = z.strictObject({ id: uuidSchema });
const stats = { 200: { description: 'Counts', schema: mediaStatsSchema } };
const image = { 200: { description: 'Image bytes', contentType: 'image/*' } };
const portrait = { 200: { description: 'Portrait', schema: playbackProfileSchema } };

/** An image reply, cached as `cacheControl` says. */
const imageReply = (c: Context, img: ItemImage, cacheControl: string) =>
  c.body(new Uint8Array(img.bytes), 200, {
    'Content-Type': img.contentType,
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
  });

/** 20-api.md "Media", `/me/playback`, "Playback, sessions" and `/internal/media/stats`. */
export function mediaRoutes(ctx: ModuleContext): RouteDef[] {
  const media = mediaService(ctx);
  return [
    api.user.get('/api/v1/media/server', {
      summary: 'Where apps connect to the media server (the public URL, else the internal one)',
      responses: { 200: { description: 'Server', schema: mediaServerPublicSchema } },
      json: () => media.server(),
    }),
    api.user.get('/api/v1/media/stats', {
      summary: 'Library counts (cached 5 min per replica)',
      responses: stats,
      errors: UPSTREAM_ERRORS,
      json: () => media.stats(),
    }),
    api.user.get('/api/v1/media/latest', {
      summary: "Recently added items for the caller's own media account, with signed poster URLs",
      request: { query: mediaLatestQuerySchema },
      responses: { 200: { description: 'Latest', schema: mediaLatestSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query, auth }) => media.latest(auth, query),
    }),
    api.user.get('/api/v1/media/resume', {
      summary: "Continue watching: the caller's own resume points, newest first, signed posters",
      request: { query: mediaResumeQuerySchema },
      responses: { 200: { description: 'Resume points', schema: mediaResumeSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query, auth }) => media.resume(auth, query),
    }),
    // A signed URL (for `<img src>`) or a bearer token; checked by the service, so the level is public.
    api.public.get('/api/v1/media/posters/:itemId', {
      summary: 'Poster image of an item the caller (or the URL signer) may see',
      request: { params: posterParamsSchema, query: posterQuerySchema },
      responses: image,
      errors: IMAGE_ERRORS,
      handler: async (c, { params, query: { u, exp, sig, width } }) => {
        const img = await media.poster({
          itemId: params.itemId,
          width,
          signed: { u, exp, sig },
          authorization: c.req.header('authorization'),
        });
        return imageReply(c, img, 'private, max-age=86400');
      },
    }),
    api.public.get('/api/v1/public/poster-wall', {
      summary: 'Slots of the poster wall behind sign-in (pictures only, chosen hourly)',
      tags: ['public'],
      responses: { 200: { description: 'Wall', schema: posterWallSchema } },
      handler: async (c) =>
        c.json(await media.wall(), 200, { 'Cache-Control': 'public, max-age=600' }),
    }),
    api.public.get('/api/v1/public/poster-wall/:slot', {
      summary: "A poster wall slot's image, small",
      tags: ['public'],
      request: { params: posterWallParamsSchema, query: posterWallQuerySchema },
      responses: image,
      errors: IMAGE_ERRORS,
      // Versioned URLs (`?v=`): a slot's new poster gets a new URL, so a day is safe.
      handler: async (c, { params }) =>
        imageReply(c, await media.wallTile(params.slot), 'public, max-age=86400'),
    }),
    api.internal.get('/api/v1/internal/media/stats', {
      summary: 'Library counts for the bot (same cache as /media/stats)',
      tags: ['internal'],
      responses: stats,
      errors: UPSTREAM_ERRORS,
      json: () => media.stats(),
    }),
    api.user.get('/api/v1/me/playback', {
      summary: "The caller's viewing portrait from the Playback Reporting plugin",
      tags: ['me'],
      request: { query: playbackRangeQuerySchema },
      responses: portrait,
      errors: PLAYBACK_ERRORS,
      json: ({ query, auth }) => media.portrait(auth.userId, query, auth),
    }),
    api.admin.get('/api/v1/admin/users/:id/playback', {
      summary: "A user's viewing portrait",
      tags: ['users'],
      request: { params: idParams, query: playbackRangeQuerySchema },
      responses: portrait,
      errors: ['USER_NOT_FOUND', ...PLAYBACK_ERRORS],
      json: ({ params, query, auth }) => media.portrait(params.id, query, auth),
    }),
    playback.admin.get('/api/v1/admin/playback/history', {
      summary: 'Plays, newest first (≤ 366 days, default the last 30)',
      request: { query: playbackHistoryQuerySchema },
      responses: { 200: { description: 'Plays', schema: pageOf(playbackRecordSchema) } },
      errors: ['USER_NOT_FOUND', ...UPSTREAM_ERRORS],
      json: ({ query, auth }) => media.history(query, auth),
    }),
    playback.admin.get('/api/v1/admin/playback/profiles', {
      summary: 'One summary row per member who played in the range, with totals of all',
      request: { query: playbackProfilesQuerySchema },
      responses: { 200: { description: 'Profiles', schema: playbackProfilesPageSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query }) => media.profiles(query),
    }),
    playback.admin.get('/api/v1/admin/playback/summary', {
      summary:
        'Plays of everyone per day, hour and method, top clients and titles (≤ 366 days, default 30)',
      request: { query: playbackSummaryQuerySchema },
      responses: { 200: { description: 'Summary', schema: playbackSummarySchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query, auth }) => media.summary(query, auth),
    }),
    api.admin.get('/api/v1/admin/sessions', {
      summary: 'Live sessions on the media server (not paginated)',
      tags: ['sessions'],
      request: { query: sessionsQuerySchema },
      responses: { 200: { description: 'Sessions', schema: sessionListSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ query, auth }) => media.sessions(query, auth),
    }),
  ];
}
