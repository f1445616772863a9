// Watch calendar (20-api.md "Watch calendar", `POST /admin/calendar/sync`, shared object
// `CalendarWeek`). Days are calendar days in `SCHEDULE_TIMEZONE`; the browser never shifts them.
import { z } from 'zod';
import { calendarDaySchema, requestDaySchema } from './audit.js';
import { safeString, uuidSchema } from './common.js';
import { CALENDAR_STATUSES, CALENDAR_SYNC_OFFSETS } from './values.js';

const tmdbIdSchema = z
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

/** `week` (any day of the week; weeks start Monday) or `weekOffset` −4…4 from this week. */
export const calendarWeekQuerySchema = z
  .strictObject({
    week: requestDaySchema.optional(),
    weekOffset: z.coerce.number().int().min(-4).max(4).optional(),
    status: z.enum(CALENDAR_STATUSES).optional(),
  })
  .refine((q) => q.week === undefined || q.weekOffset === undefined, {
    message: 'give either week or weekOffset, not both',
    path: ['weekOffset'],
  });
export type CalendarWeekQuery = z.infer<typeof calendarWeekQuerySchema>;

export const calendarItemSchema = z.object({
  episodeId: uuidSchema,
  series: z.object({
    tmdbId: z.number().int(),
    name: safeString(),
    /** TMDB path (`/abc.jpg`); the web builds the URL with the TMDB image base. */
    posterPath: safeString().nullable(),
  }),
  season: z.number().int().min(1),
  episode: z.number().int().min(1),
  name: safeString().nullable(),
  airDate: calendarDaySchema.nullable(),
  status: z.enum(CALENDAR_STATUSES),
  /** Whether the caller follows the series. */
  following: z.boolean(),
});
export type CalendarItem = z.infer<typeof calendarItemSchema>;

export const calendarWeekSchema = z
  .object({
    week: z.object({
      /** Monday. */
      start: calendarDaySchema,
      /** Sunday. */
      end: calendarDaySchema,
      timezone: safeString(),
    }),
    /** Counts over the whole week of the scope, whatever the `status` filter. */
    summary: z.object({
      total: z.number().int().min(0),
      ready: z.number().int().min(0),
      today: z.number().int().min(0),
      upcoming: z.number().int().min(0),
      missing: z.number().int().min(0),
    }),
    /** Always seven days, Monday first; items filtered by `status` when given. */
    days: z.array(
      z.object({
        date: calendarDaySchema,
        isToday: z.boolean(),
        items: z.array(calendarItemSchema),
      }),
    ),
  })
  .meta({ id: 'CalendarWeek' });
export type CalendarWeek = z.infer<typeof calendarWeekSchema>;

export const calendarFollowParamsSchema = z.strictObject({
  tmdbId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});
export const calendarFollowReplySchema = z.object({
  tmdbId: z.number().int(),
  following: z.literal(true),
});
export type CalendarFollowReply = z.infer<typeof calendarFollowReplySchema>;

/**
 * `POST /admin/calendar/sync` body, also the `calendar_sync` job's params: one series, a forced
 * TMDB refresh (which also re-checks shows that ended), and the weeks to refresh.
 */
export const calendarSyncRequestSchema = z.strictObject({
  tmdbId: tmdbIdSchema.optional(),
  force: z.boolean().default(false),
  weekOffsets: z
    .array(z.literal(CALENDAR_SYNC_OFFSETS))
    .min(1)
    .max(3)
    .refine((a) => new Set(a).size === a.length, { message: 'week offsets must be distinct' })
    .default([0, 1]),
});
export type CalendarSyncRequest = z.infer<typeof calendarSyncRequestSchema>;
