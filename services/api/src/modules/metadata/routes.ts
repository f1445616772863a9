import {
  metadataSearchQuerySchema,
  metadataSearchReplySchema,
  tvSeasonsParamsSchema,
  tvSeasonsReplySchema,
} from '@usher/contracts';
import type { RequestMeta } from '../../http/context.js';
import { StoredLimiter } from '../../http/rate-limit.js';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { searchMetadata, tvSeasons } from './service.js';

/**
 * Metadata search and series seasons (20-api.md §4), public and rate limited per IP (30 / min,
 * §1.6), and their twins for the bot under `/internal` (no limit).
 */
export function metadataRoutes(ctx: ModuleContext): RouteDef[] {
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
          return c.json(await searchMetadata(ctx, query));
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
