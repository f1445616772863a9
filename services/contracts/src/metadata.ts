import { z } from 'zod';
import { safeString, uuidSchema } from './common.js';
import { MEDIA_TYPES, METADATA_PAGE_SIZE, METADATA_SEARCH_TYPES } from './values.js';

/** Metadata search (TMDB) as the API exposes it (20-api.md §2 `MetadataResult`, §4). */

/**
 * How far a title has come on this site, from every member's active requests (issue 14):
 * `in_library` (a request was ingested with all its episodes), `missing` (ingested, episodes
 * still missing), `approved`, `requested` (pending), `none`.
 */
export const TITLE_AVAILABILITIES = [
  'in_library',
  'missing',
  'approved',
  'requested',
  'none',
] as const;
export type TitleAvailability = (typeof TITLE_AVAILABILITIES)[number];

/**
 * A search result's availability for the signed-in caller. Never says who asked for a title:
 * `ownRequestId` is only ever the caller's own active request (else null).
 */
export const resultAvailabilitySchema = z
  .object({
    state: z.enum(TITLE_AVAILABILITIES),
    ownRequestId: uuidSchema.nullable(),
  })
  .meta({ id: 'ResultAvailability' });
export type ResultAvailability = z.infer<typeof resultAvailabilitySchema>;

export const metadataResultSchema = z
  .object({
    tmdbId: z.number().int(),
    mediaType: z.enum(MEDIA_TYPES),
    title: safeString(),
    originalTitle: safeString(),
    year: z.number().int().nullable(),
    overview: safeString(),
    /** TMDB path; the poster URL is `tmdbImageBase` + `/w500` + this path. */
    posterPath: safeString().nullable(),
    /** TMDB path of the wide backdrop (same image base, e.g. `/w780`); optional, absent in old caches. */
    backdropPath: safeString().nullable().optional(),
    voteAverage: z.number(),
    /** Present when the caller sent a valid bearer token (members and admins); absent otherwise. */
    availability: resultAvailabilitySchema.optional(),
  })
  .meta({ id: 'MetadataResult' });
export type MetadataResult = z.infer<typeof metadataResultSchema>;

export const metadataSearchQuerySchema = z.strictObject({
  query: safeString().trim().min(1).max(100),
  type: z.enum(METADATA_SEARCH_TYPES).default('multi'),
  page: z.coerce.number().int().min(1).max(50).default(1),
});
export type MetadataSearchQuery = z.infer<typeof metadataSearchQuerySchema>;

export const metadataSearchReplySchema = z.object({
  data: z.array(metadataResultSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  pageSize: z.literal(METADATA_PAGE_SIZE),
});
export type MetadataSearchReply = z.infer<typeof metadataSearchReplySchema>;

export const tvSeasonsParamsSchema = z.strictObject({
  tmdbId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

export const tvSeasonsReplySchema = z
  .object({
    tmdbId: z.number().int(),
    name: safeString(),
    status: safeString(),
    seasons: z.array(
      z.object({
        seasonNumber: z.number().int().min(1),
        name: safeString(),
        episodeCount: z.number().int().min(0),
        airDate: safeString().nullable(),
      }),
    ),
  })
  .meta({ id: 'TvSeasons' });
export type TvSeasons = z.infer<typeof tvSeasonsReplySchema>;
