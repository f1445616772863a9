import {
  type MetadataResult,
  type MetadataSearchReply,
  type ResultAvailability,
  metadataSearchQuerySchema,
  metadataSearchReplySchema,
  tvSeasonsParamsSchema,
  tvSeasonsReplySchema,
} from '@usher/contracts';
import type { RequestMeta } from '../../http/context.js';
import { optionalCaller } from '../../http/guards.js';
import { StoredLimiter } from '../../http/rate-limit.js';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { searchMetadata, tvSeasons } from './service.js';

/**
 * The availability of a search page's titles for one signed-in caller, keyed `movie:603`. It lives
 * in the requests module, which depends on this one, so `app.ts` hands it in.
 */
export type AvailabilityLookup = (
  userId: string,
  titles: Pick<MetadataResult, 'mediaType' | 'tmdbId'>[],
) => Promise<Map<string, ResultAvailability>>;

export interface MetadataRouteDeps {
  availability?: AvailabilityLookup;
}

/** The page with each result's `availability` when the public search has a signed-in caller. */
async function withAvailability(
  reply: MetadataSearchReply,
  userId: string,
  lookup: AvailabilityLookup,
): Promise<MetadataSearchReply> {
  if (reply.data.length === 0) return reply;
  const states = await lookup(userId, reply.data);
  return {
    ...reply,
    data: reply.data.map((r) => {
      const availability = states.get(`${r.mediaType}:${r.tmdbId}`);
      return availability ? { ...r, availability } : r;
    }),
  };
}

/**
 * Metadata search and series seasons (20-api.md §4), public and rate limited per IP (30 / min,
 * §1.6), and their twins for the bot under `/internal` (no limit). The public search adds each
 * result's `availability` when the caller sends a valid bearer token (issue 14, docs/requests.md);
 * anonymous callers and the bot get the spec's shape.
 */
export function metadataRoutes(ctx: ModuleContext, deps: MetadataRouteDeps = {}): RouteDef[] {
  const limiter = new StoredLimiter(ctx.db, {
    name: 'metadata_ip',
    points: 30,
    durationSeconds: 60,
  });
  // Every call counts, answered or not: the limit protects the TMDB key's own quota.
  const limit = async ({ ip: clientIp }: RequestMeta) => {
    const ip = clientIp ?? 'unknown';
    await limiter.reserve(ip);
  };

  const routes: RouteDef[] = [];
  for (const level of ['public', 'internal'] as const) {
    const prefix = level === 'public' ? '/api/v1' : '/api/v1/internal';
    const extraErrors = level === 'public' ? ['RATE_LIMITED'] : [];
    routes.push(
      defineRoute({
        method: 'get',
        path: `${prefix}/metadata/search`,
        auth: level,
        summary: 'Search TMDB for movies and series (persons dropped)',
        tags: ['metadata'],
        request: { query: metadataSearchQuerySchema },
        responses: { 200: { description: 'One result page', schema: metadataSearchReplySchema } },
        errors: [...extraErrors, ...UPSTREAM_ERRORS],
        handler: async (c, { query, meta }) => {
          if (level === 'public') await limit(meta);
          const reply = await searchMetadata(ctx, query);
          if (level !== 'public' || !deps.availability) return c.json(reply);
          const caller = await optionalCaller(c.req.header('authorization'), ctx);
          if (!caller) return c.json(reply);
          return c.json(await withAvailability(reply, caller.userId, deps.availability));
        },
      }),
      defineRoute({
        method: 'get',
        path: `${prefix}/metadata/tv/:tmdbId/seasons`,
        auth: level,
        summary: "A series' seasons from TMDB (specials dropped)",
        tags: ['metadata'],
        request: { params: tvSeasonsParamsSchema },
        responses: { 200: { description: 'Seasons', schema: tvSeasonsReplySchema } },
        errors: ['METADATA_NOT_FOUND', ...extraErrors, ...UPSTREAM_ERRORS],
        handler: async (c, { params, meta }) => {
          if (level === 'public') await limit(meta);
          return c.json(await tvSeasons(ctx, params.tmdbId));
        },
      }),
    );
  }
  return routes;
}
