import {
  type MetadataResult,
  type ResultAvailability,
  type TitleAvailability,
  discoverReplySchema,
  metadataSearchQuerySchema,
  metadataSearchReplySchema,
  titleDetailsSchema,
  titleParamsSchema,
  tvSeasonsParamsSchema,
  tvSeasonsReplySchema,
} from '@usher/contracts';
import type { RequestMeta } from '../../http/context.js';
import { optionalCaller } from '../../http/guards.js';
import { StoredLimiter } from '../../http/rate-limit.js';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { discoverMetadata, searchMetadata, titleSheet, tvSeasons } from './service.js';

/**
 * The availability of a search page's titles for one signed-in caller, keyed `movie:603`. It lives
 * in the requests module, which depends on this one, so `app.ts` hands it in.
 */
export type AvailabilityLookup = (
  userId: string,
  titles: Pick<MetadataResult, 'mediaType' | 'tmdbId'>[],
) => Promise<Map<string, ResultAvailability>>;

/** Each season's availability of a series for one caller (the title sheet, issue 36). */
export type SeasonLookup = (
  userId: string,
  tmdbId: number,
  seasons: { seasonNumber: number; episodeCount: number }[],
) => Promise<Map<number, TitleAvailability>>;

export interface MetadataRouteDeps {
  availability?: AvailabilityLookup;
  seasons?: SeasonLookup;
}

const NO_AVAILABILITY: ResultAvailability = { state: 'none', ownRequestId: null };

/**
 * Lists of titles with each title's `availability` for `userId`: ONE lookup for all of them
 * (library and requests), whichever list a title is in. The search page, the discovery rails and
 * the title sheet all badge through here (issue 36).
 */
async function withAvailability<L extends { data: MetadataResult[] }>(
  lists: L[],
  userId: string,
  lookup: AvailabilityLookup,
): Promise<L[]> {
  const titles = lists.flatMap((l) => l.data);
  if (titles.length === 0) return lists;
  const states = await lookup(userId, titles);
  return lists.map((list) => ({
    ...list,
    data: list.data.map((r) => {
      const availability = states.get(`${r.mediaType}:${r.tmdbId}`);
      return availability ? { ...r, availability } : r;
    }),
  }));
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
          const [page] = await withAvailability([reply], caller.userId, deps.availability);
          return c.json(page);
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
  routes.push(
    defineRoute({
      method: 'get',
      path: '/api/v1/metadata/discover',
      auth: 'user',
      summary: "Trending, popular and upcoming titles from TMDB, with the caller's availability",
      tags: ['metadata'],
      responses: { 200: { description: 'Rails', schema: discoverReplySchema } },
      // Not under the per-IP limit: the rails are cached per language (at most four TMDB calls
      // per lifetime, whoever asks), and every visit to the page reads them.
      errors: UPSTREAM_ERRORS,
      handler: async (c, { auth }) => {
        const { rails } = await discoverMetadata(ctx);
        if (!deps.availability) return c.json({ rails });
        return c.json({ rails: await withAvailability(rails, auth.userId, deps.availability) });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/metadata/titles/:mediaType/:tmdbId',
      auth: 'user',
      summary: "A title's details, cast and (series) per-season availability for the caller",
      tags: ['metadata'],
      request: { params: titleParamsSchema },
      responses: { 200: { description: 'Title', schema: titleDetailsSchema } },
      errors: ['METADATA_NOT_FOUND', 'RATE_LIMITED', ...UPSTREAM_ERRORS],
      handler: async (c, { params, meta, auth }) => {
        await limit(meta);
        const sheet = await titleSheet(ctx, params.mediaType, params.tmdbId);
        const asResult: MetadataResult = { ...sheet, backdropPath: sheet.backdropPath };
        const [[availability], seasons] = await Promise.all([
          deps.availability
            ? withAvailability([{ data: [asResult] }], auth.userId, deps.availability).then(
                ([list]) => list!.data.map((r) => r.availability ?? NO_AVAILABILITY),
              )
            : [NO_AVAILABILITY],
          sheet.seasons.length > 0 && deps.seasons
            ? deps.seasons(auth.userId, sheet.tmdbId, sheet.seasons)
            : new Map<number, TitleAvailability>(),
        ]);
        return c.json({
          ...sheet,
          seasons: sheet.seasons.map((s) => ({
            ...s,
            state: seasons.get(s.seasonNumber) ?? 'none',
          })),
          availability: availability ?? NO_AVAILABILITY,
        });
      },
    }),
  );
  return routes;
}
