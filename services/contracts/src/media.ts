import { z } from 'zod';
import { requestDaySchema } from './audit.js';
import { isoInstant, paginationQuerySchema, safeString, uuidSchema } from './common.js';
import { MEDIA_SERVER_KINDS } from './values.js';

/** Media home, playback portrait and live sessions (20-api.md "Media", "Playback, sessions"). */

export const MEDIA_HOME_STATES = [
  'ok',
  'not_configured',
  'unlinked',
  'expired',
  'disabled',
] as const;
export type MediaHomeState = (typeof MEDIA_HOME_STATES)[number];
export const PLAYBACK_RANGES = ['today', '7d', '30d', '90d', 'all', 'custom'] as const;
export type PlaybackRange = (typeof PLAYBACK_RANGES)[number];
export const PLAY_METHODS = ['DirectPlay', 'DirectStream', 'Transcode', 'unknown'] as const;
/** Longest custom range of a portrait, in days (20-api.md `/me/playback`). */
export const PORTRAIT_MAX_DAYS = 92;
/** Longest range of the admin history and profiles, in days. */
export const HISTORY_MAX_DAYS = 366;

export const mediaServerPublicSchema = z
  .object({
    configured: z.boolean(),
    kind: z.enum(MEDIA_SERVER_KINDS),
    /** `MEDIA_SERVER_PUBLIC_URL`, else the internal URL; null when neither is set. */
    publicUrl: safeString().nullable(),
  })
  .meta({ id: 'MediaServerPublic' });
export type MediaServerPublic = z.infer<typeof mediaServerPublicSchema>;

export const mediaStatsSchema = z
  .object({
    configured: z.boolean(),
    movieCount: z.number().int().min(0),
    seriesCount: z.number().int().min(0),
    episodeCount: z.number().int().min(0),
    /** When the counts were read from the server (per-replica cache, 5 min); null when unconfigured. */
    cachedAt: isoInstant.nullable(),
  })
  .meta({ id: 'MediaStats' });
export type MediaStats = z.infer<typeof mediaStatsSchema>;

export const mediaLatestQuerySchema = z.strictObject({
  type: z.enum(['movie', 'series']).default('movie'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type MediaLatestQuery = z.infer<typeof mediaLatestQuerySchema>;

export const mediaLatestItemSchema = z.object({
  itemId: safeString(),
  name: safeString(),
  type: safeString(),
  year: z.number().int().nullable(),
  seriesName: safeString().optional(),
  addedAt: isoInstant.nullable(),
  /** Signed: works in a plain `<img src>` for 24 h (20-api.md, clarification of 2026-11-25). */
  posterUrl: safeString(),
});
export type MediaLatestItem = z.infer<typeof mediaLatestItemSchema>;

export const mediaLatestSchema = z
  .object({ state: z.enum(MEDIA_HOME_STATES), items: z.array(mediaLatestItemSchema) })
  .meta({ id: 'MediaLatest' });
export type MediaLatest = z.infer<typeof mediaLatestSchema>;

export const mediaResumeQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(12),
});
export type MediaResumeQuery = z.infer<typeof mediaResumeQuerySchema>;

/** One "continue watching" entry: where the member stopped in a film or an episode (issue 36). */
export const mediaResumeItemSchema = z.object({
  itemId: safeString(),
  name: safeString(),
  type: safeString(),
  year: z.number().int().nullable(),
  seriesName: safeString().optional(),
  season: z.number().int().optional(),
  episode: z.number().int().optional(),
  positionSeconds: z.number().int().min(0),
  runtimeSeconds: z.number().int().min(0).nullable(),
  /** How far in, 0–100; null when the server does not know the runtime. */
  percent: z.number().min(0).max(100).nullable(),
  lastPlayedAt: isoInstant.nullable(),
  /** Signed like `MediaLatestItem.posterUrl`. */
  posterUrl: safeString(),
});
export type MediaResumeItem = z.infer<typeof mediaResumeItemSchema>;

export const mediaResumeSchema = z
  .object({ state: z.enum(MEDIA_HOME_STATES), items: z.array(mediaResumeItemSchema) })
  .meta({ id: 'MediaResume' });
export type MediaResume = z.infer<typeof mediaResumeSchema>;

const mediaItemIdSchema = safeString().regex(/^(?:[0-9a-fA-F]{32}|[0-9a-fA-F-]{36}|\d{1,20})$/);

export const posterParamsSchema = z.strictObject({ itemId: mediaItemIdSchema });
export const posterQuerySchema = z.strictObject({
  width: z.coerce.number().int().min(100).max(800).default(400),
  /** The signing user (see `PosterSigner`); with `exp` and `sig`. */
  u: uuidSchema.optional(),
  exp: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 40)
    .optional(),
  sig: safeString().max(64).optional(),
});
export type PosterQuery = z.infer<typeof posterQuerySchema>;

export const playbackRangeQuerySchema = z
  .strictObject({
    range: z.enum(PLAYBACK_RANGES).default('30d'),
    from: requestDaySchema.optional(),
    to: requestDaySchema.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.range !== 'custom') return;
    if (!q.from || !q.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'A custom range needs from and to' });
      return;
    }
    const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1;
    if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to is before from' });
    else if (days > PORTRAIT_MAX_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `A custom range covers at most ${PORTRAIT_MAX_DAYS} days`,
      });
    }
  });
export type PlaybackRangeQuery = z.infer<typeof playbackRangeQuerySchema>;

const playbackUserSchema = z.object({
  mediaUserId: safeString(),
  name: safeString(),
  userId: uuidSchema.optional(),
});

export const playbackRecordSchema = z
  .object({
    at: isoInstant,
    user: playbackUserSchema,
    itemId: safeString(),
    itemName: safeString(),
    itemType: safeString(),
    client: safeString(),
    device: safeString(),
    playMethod: z.enum(PLAY_METHODS),
    durationSeconds: z.number().int().min(0),
    /** The item's poster, signed for the caller like `MediaLatestItem.posterUrl`. */
    posterUrl: safeString().optional(),
  })
  .meta({ id: 'PlaybackRecord' });
export type PlaybackRecord = z.infer<typeof playbackRecordSchema>;

export const playbackTotalsSchema = z.object({
  playCount: z.number().int().min(0),
  durationSeconds: z.number().int().min(0),
  activeDays: z.number().int().min(0),
  averageSeconds: z.number().int().min(0),
  lastPlayedAt: isoInstant.nullable(),
});
export type PlaybackTotals = z.infer<typeof playbackTotalsSchema>;

const usageSchema = z.object({
  name: safeString(),
  count: z.number().int().min(0),
  durationSeconds: z.number().int().min(0),
});
const bucketSchema = z.object({
  count: z.number().int().min(0),
  durationSeconds: z.number().int().min(0),
});

export const playbackProfileSchema = z
  .object({
    range: z.object({ from: isoInstant.nullable(), to: isoInstant }),
    /** The zone the hour and weekday buckets are counted in (the business time zone). */
    timeZone: safeString(),
    totals: playbackTotalsSchema,
    /** 24 buckets, hour 0 first. */
    byHour: z.array(bucketSchema).length(24),
    /** 7 buckets, Monday first (ISO weekdays). */
    byWeekday: z.array(bucketSchema).length(7),
    /** Plays by weekday (Monday first) and hour (0 first): the portrait's heatmap (issue 36). */
    byWeekdayHour: z.array(z.array(z.number().int().min(0)).length(24)).length(7),
    clients: z.array(usageSchema),
    devices: z.array(usageSchema),
    playMethods: z.object({
      directPlay: z.number().int().min(0),
      directStream: z.number().int().min(0),
      transcode: z.number().int().min(0),
    }),
    /** Favourite genres, by time watched (the media server's `Genres` of the items played). */
    tags: z.array(usageSchema),
    recent: z.array(playbackRecordSchema).max(10),
  })
  .meta({ id: 'PlaybackProfile' });
export type PlaybackProfile = z.infer<typeof playbackProfileSchema>;

export const playbackHistoryQuerySchema = paginationQuerySchema.extend({
  userId: uuidSchema.optional(),
  username: safeString().min(1).max(64).optional(),
  keyword: safeString().min(1).max(100).optional(),
  from: requestDaySchema.optional(),
  to: requestDaySchema.optional(),
});
export type PlaybackHistoryQuery = z.infer<typeof playbackHistoryQuerySchema>;

/** `GET /admin/playback/summary`: inclusive days, default the last 30 (≤ 366). */
export const playbackSummaryQuerySchema = z.strictObject({
  from: requestDaySchema.optional(),
  to: requestDaySchema.optional(),
});
export type PlaybackSummaryQuery = z.infer<typeof playbackSummaryQuerySchema>;

/** A movie or a series (its episodes together) with its plays in the range and its poster. */
export const playbackTitleSchema = z.object({
  kind: z.enum(['movie', 'series']),
  /** The movie's or series' id on the media server; `name:<series>` for a series it lost. */
  itemKey: safeString(),
  name: safeString(),
  playCount: z.number().int().min(0),
  durationSeconds: z.number().int().min(0),
  /** Signed for the caller like `MediaLatestItem.posterUrl`; absent when there is none. */
  posterUrl: safeString().optional(),
});
export type PlaybackTitle = z.infer<typeof playbackTitleSchema>;

/**
 * Plays of every member in a range, as the admin dashboard and the playback page chart them
 * (issue 36): per day and per hour in the business zone, by play method, the top clients and
 * the most watched titles. Aggregated inside the Playback Reporting plugin: no play is read.
 */
export const playbackSummarySchema = z
  .object({
    range: z.object({ from: isoInstant, to: isoInstant }),
    /** The zone the days and hours are counted in (the business time zone). */
    timeZone: safeString(),
    totals: z.object({
      playCount: z.number().int().min(0),
      durationSeconds: z.number().int().min(0),
    }),
    /** Every day of the range, oldest first, `YYYY-MM-DD` in `timeZone`. */
    byDay: z.array(
      z.object({
        day: safeString(),
        count: z.number().int().min(0),
        durationSeconds: z.number().int().min(0),
      }),
    ),
    /** 24 buckets, hour 0 first. */
    byHour: z.array(bucketSchema).length(24),
    playMethods: z.object({
      directPlay: z.number().int().min(0),
      directStream: z.number().int().min(0),
      transcode: z.number().int().min(0),
    }),
    /** The clients with the most watch time, at most 8. */
    clients: z.array(usageSchema).max(8),
    /** The most watched movies and series, at most 12. */
    topTitles: z.array(playbackTitleSchema).max(12),
  })
  .meta({ id: 'PlaybackSummary' });
export type PlaybackSummary = z.infer<typeof playbackSummarySchema>;

export const PROFILE_SORTS = ['duration', 'plays', 'activeDays', 'lastPlayed'] as const;
export const playbackProfilesQuerySchema = paginationQuerySchema.extend({
  range: z.enum(PLAYBACK_RANGES).default('30d'),
  from: requestDaySchema.optional(),
  to: requestDaySchema.optional(),
  keyword: safeString().min(1).max(100).optional(),
  sort: z.enum(PROFILE_SORTS).default('duration'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type PlaybackProfilesQuery = z.infer<typeof playbackProfilesQuerySchema>;

export const playbackProfileRowSchema = z
  .object({
    user: z.object({
      id: uuidSchema.nullable(),
      username: safeString().nullable(),
      mediaUserId: safeString(),
      name: safeString(),
    }),
    totals: playbackTotalsSchema,
    /** Hour of day (business zone) with the most time watched; null without plays. */
    peakHour: z.number().int().min(0).max(23).nullable(),
    tags: z.array(safeString()).max(2),
  })
  .meta({ id: 'PlaybackProfileRow' });
export type PlaybackProfileRow = z.infer<typeof playbackProfileRowSchema>;

export const playbackProfilesPageSchema = z.object({
  data: z.array(playbackProfileRowSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  summary: z.object({
    userCount: z.number().int().min(0),
    playCount: z.number().int().min(0),
    durationSeconds: z.number().int().min(0),
  }),
  range: z.object({ from: isoInstant.nullable(), to: isoInstant }),
});
export type PlaybackProfilesPage = z.infer<typeof playbackProfilesPageSchema>;

export const sessionsQuerySchema = z.strictObject({
  activeWithinSeconds: z.coerce.number().int().min(60).max(3600).default(600),
});

export const sessionSchema = z
  .object({
    id: safeString(),
    user: z.object({
      mediaUserId: safeString(),
      name: safeString(),
      userId: uuidSchema.optional(),
      username: safeString().optional(),
    }),
    client: safeString(),
    deviceName: safeString(),
    deviceId: safeString(),
    appVersion: safeString(),
    remoteAddress: safeString().nullable(),
    lastActivityAt: isoInstant.nullable(),
    nowPlaying: z
      .object({
        itemId: safeString(),
        name: safeString(),
        type: safeString(),
        seriesName: safeString().nullable(),
        season: z.number().int().nullable(),
        episode: z.number().int().nullable(),
        runtimeSeconds: z.number().min(0).nullable(),
        /** The item's poster, signed for the asking admin like `MediaLatestItem.posterUrl`. */
        posterUrl: safeString().optional(),
      })
      .nullable(),
    playState: z
      .object({
        positionSeconds: z.number().min(0),
        isPaused: z.boolean(),
        playMethod: z.enum(PLAY_METHODS),
        /** 0–1, null when the runtime is unknown. */
        progress: z.number().min(0).max(1).nullable(),
        transcoding: z.boolean(),
        /** Bits per second of the transcoded stream; null when direct or not reported. */
        bitrate: z.number().int().min(0).nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

export const sessionListSchema = z.object({
  data: z.array(sessionSchema),
  fetchedAt: isoInstant,
});
export type SessionList = z.infer<typeof sessionListSchema>;

/** How many tiles the sign-in poster wall shows at most. */
export const POSTER_WALL_SIZE = 8;

/**
 * `GET /public/poster-wall`: image URLs for the dimmed wall behind sign-in and sign-up. Anonymous,
 * so it names no item: each URL is a slot number plus a version that changes when the slot's
 * poster does (docs/media.md "Poster wall").
 */
export const posterWallSchema = z
  .object({ posters: z.array(safeString()).max(POSTER_WALL_SIZE) })
  .meta({ id: 'PosterWall' });
export type PosterWall = z.infer<typeof posterWallSchema>;

export const posterWallParamsSchema = z.strictObject({
  slot: z.coerce
    .number()
    .int()
    .min(0)
    .max(POSTER_WALL_SIZE - 1),
});
export const posterWallQuerySchema = z.strictObject({ v: safeString().max(16).optional() });
