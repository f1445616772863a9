import { z } from 'zod';
import { safeString, uuidSchema } from './common.js';
import { MEDIA_TYPES, METADATA_PAGE_SIZE, METADATA_SEARCH_TYPES } from './values.js';

/** Metadata search (TMDB) as the API exposes it (20-api.md §2 `MetadataResult`, §4). */

/**
 * How far a title has come on this site, from the library and every member's active requests
 * (issues 14, 36): `in_library` (the media server holds it, or a request was ingested with all
 * its episodes), `missing` (partly there: episodes or seasons still missing), `approved`,
 * `requested` (pending), `rejected` (the caller's own request was turned down and nobody's is
 * active), `none`.
 */
export const TITLE_AVAILABILITIES = [
  'in_library',
  'missing',
  'approved',
  'requested',
  'rejected',
  'none',
] as const;
export type TitleAvailability = (typeof TITLE_AVAILABILITIES)[number];

/**
 * A search result's availability for the signed-in caller. Never says who asked for a title:
 * `ownRequestId` is only ever the caller's own request (active, or the rejected one; else null).
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

/** The discovery rails of the new-request page (issue 36), in the order they are shown. */
export const DISCOVER_RAILS = ['trending', 'popular_movies', 'popular_tv', 'upcoming'] as const;
export type DiscoverRail = (typeof DISCOVER_RAILS)[number];

/** `GET /metadata/discover`: each rail's first TMDB page, every title with its availability. */
export const discoverReplySchema = z
  .object({
    rails: z.array(
      z.object({
        rail: z.enum(DISCOVER_RAILS),
        data: z.array(metadataResultSchema),
      }),
    ),
  })
  .meta({ id: 'DiscoverReply' });
export type DiscoverReply = z.infer<typeof discoverReplySchema>;

export const titleParamsSchema = z.strictObject({
  mediaType: z.enum(MEDIA_TYPES),
  tmdbId: tvSeasonsParamsSchema.shape.tmdbId,
});

/** One billed actor of a title. */
export const castMemberSchema = z.object({
  name: safeString(),
  character: safeString(),
  /** TMDB path of the portrait (same image base as posters), or null. */
  profilePath: safeString().nullable(),
});
export type CastMember = z.infer<typeof castMemberSchema>;

/**
 * `GET /metadata/titles/:mediaType/:tmdbId`: what the title sheet shows (issue 36). `runtime` is
 * in minutes (a series: one episode's); `seasons` is empty for a movie and lists a series'
 * seasons (specials dropped) each with its own availability (the library's episodes against
 * TMDB's count, and requests for the season or the whole series).
 */
export const titleDetailsSchema = metadataResultSchema
  .omit({ backdropPath: true, availability: true })
  .extend({
    backdropPath: safeString().nullable(),
    runtime: z.number().int().nullable(),
    genres: z.array(safeString()),
    status: safeString(),
    cast: z.array(castMemberSchema),
    seasons: z.array(
      z.object({
        seasonNumber: z.number().int().min(1),
        name: safeString(),
        episodeCount: z.number().int().min(0),
        airDate: safeString().nullable(),
        state: z.enum(TITLE_AVAILABILITIES),
      }),
    ),
    availability: resultAvailabilitySchema,
  })
  .meta({ id: 'TitleDetails' });
export type TitleDetails = z.infer<typeof titleDetailsSchema>;
