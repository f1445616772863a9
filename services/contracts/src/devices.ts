// Devices and media quality (20-api.md §6 "Devices" and "Playback, sessions, quality").
import { z } from 'zod';
import { isoInstant, pageOf, paginationQuerySchema, safeString, uuidSchema } from './common.js';
import {
  DEVICE_ACTION_KINDS,
  QUALITY_CODECS,
  QUALITY_HDR,
  QUALITY_RESOLUTIONS,
  QUALITY_STATES,
} from './values.js';

const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

// ---- Devices ----

export const deviceListQuerySchema = paginationQuerySchema.extend({
  /** An Usher user: the devices their media account used last. */
  userId: uuidSchema.optional(),
  /** A client app name, matched like the blacklist (case and spacing ignored). */
  client: safeString().trim().min(1).max(100).optional(),
  blacklisted: boolQuery.optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

export const deviceSchema = z
  .object({
    /** The id `POST /admin/devices/:deviceId/logout` takes (Emby's list Id, Jellyfin's Id). */
    id: safeString(),
    /** The DeviceId the client reported (equal to `id` on Jellyfin). */
    deviceId: safeString(),
    name: safeString(),
    client: safeString(),
    appVersion: safeString(),
    lastUser: z
      .object({
        mediaUserId: safeString(),
        name: safeString(),
        userId: uuidSchema.optional(),
        username: safeString().optional(),
      })
      .nullable(),
    lastActivityAt: isoInstant.nullable(),
    /** Emby only. */
    ip: safeString().nullable(),
    blacklisted: z.boolean(),
  })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof deviceSchema>;
export const deviceListSchema = pageOf(deviceSchema);
export type DeviceList = z.infer<typeof deviceListSchema>;

export const deviceStatsSchema = z.object({
  total: z.number().int().min(0),
  activeLast24h: z.number().int().min(0),
  byClient: z.array(z.object({ client: safeString(), count: z.number().int().min(0) })),
  topUsers: z.array(
    z.object({
      userId: uuidSchema.optional(),
      mediaUserId: safeString(),
      name: safeString(),
      count: z.number().int().min(0),
    }),
  ),
  blacklistEntries: z.number().int().min(0),
  activeSessions: z.number().int().min(0),
});
export type DeviceStats = z.infer<typeof deviceStatsSchema>;

// Jellyfin web clients report base64 DeviceIds of their user agent, often 150–250 characters.
export const deviceParamsSchema = z.strictObject({ deviceId: safeString().min(1).max(512) });

export const deviceActionSchema = z
  .object({
    id: uuidSchema,
    action: z.enum(DEVICE_ACTION_KINDS),
    deviceId: safeString().nullable(),
    deviceName: safeString().nullable(),
    clientName: safeString().nullable(),
    mediaUserId: safeString().nullable(),
    user: z.object({ id: uuidSchema, username: safeString() }).nullable(),
    /** Null: the scheduled job. */
    actor: z.object({ id: uuidSchema, username: safeString() }).nullable(),
    outcome: z.enum(['ok', 'failed']),
    note: safeString().nullable(),
    createdAt: isoInstant,
  })
  .meta({ id: 'DeviceAction' });
export type DeviceAction = z.infer<typeof deviceActionSchema>;
export const deviceActionListSchema = pageOf(deviceActionSchema);

export const blacklistEntrySchema = z
  .object({
    id: uuidSchema,
    clientName: safeString(),
    reason: safeString(),
    createdBy: z.object({ id: uuidSchema, username: safeString() }).nullable(),
    createdAt: isoInstant,
  })
  .meta({ id: 'BlacklistEntry' });
export type BlacklistEntry = z.infer<typeof blacklistEntrySchema>;
export const blacklistListSchema = pageOf(blacklistEntrySchema);

export const blacklistCreateSchema = z.strictObject({
  clientName: safeString().trim().min(1).max(100),
  reason: safeString().trim().max(255).default(''),
  logoutNow: z.boolean().default(true),
});
export type BlacklistCreate = z.infer<typeof blacklistCreateSchema>;

/** What a blacklist sweep did: devices signed out, and sign-outs the media server refused. */
export const logoutOutcomeSchema = z.object({
  loggedOut: z.number().int().min(0),
  failed: z.number().int().min(0),
});
export type LogoutOutcome = z.infer<typeof logoutOutcomeSchema>;

export const blacklistCreatedSchema = logoutOutcomeSchema.extend({ entry: blacklistEntrySchema });
export type BlacklistCreated = z.infer<typeof blacklistCreatedSchema>;

export const blacklistParamsSchema = z.strictObject({ id: safeString().max(64) });

// ---- Media quality ----

const counts = <T extends readonly string[]>(keys: T) =>
  z.object(
    Object.fromEntries(keys.map((k) => [k, z.number().int().min(0)])) as {
      [K in T[number]]: z.ZodNumber;
    },
  );

export const qualityLibraryParamsSchema = z.strictObject({
  /** A library id, or `all`. */
  libraryId: safeString().min(1).max(64),
});
export const qualityGroupParamsSchema = qualityLibraryParamsSchema.extend({
  groupId: safeString().min(1).max(64),
});

export const qualityLibraryListSchema = z.object({
  data: z.array(
    z.object({
      libraryId: safeString(),
      name: safeString(),
      collectionType: safeString().nullable(),
      report: z.object({
        state: z.enum(QUALITY_STATES),
        computedAt: isoInstant.nullable(),
        itemCount: z.number().int().min(0),
        scanning: z.boolean(),
        scanError: safeString().nullable(),
      }),
    }),
  ),
});
export type QualityLibraryList = z.infer<typeof qualityLibraryListSchema>;

export const qualityGroupSchema = z.object({
  /** A movie's item id, or a series id (its episodes). */
  groupId: safeString(),
  kind: z.enum(['movie', 'series']),
  name: safeString(),
  itemCount: z.number().int().min(1),
  /** Low quality = below 1080p. */
  worstResolution: z.enum(['hd720', 'sd']),
});
export type QualityGroup = z.infer<typeof qualityGroupSchema>;

export const qualityReportSchema = z
  .object({
    library: z.object({ id: safeString(), name: safeString() }),
    state: z.enum(QUALITY_STATES),
    computedAt: isoInstant.nullable(),
    scanning: z.boolean(),
    itemCount: z.number().int().min(0),
    resolution: counts(QUALITY_RESOLUTIONS),
    codec: counts(QUALITY_CODECS),
    hdr: counts(QUALITY_HDR),
    lowQuality: pageOf(qualityGroupSchema),
    /** `all`: libraries whose last scan failed, or that were never scanned. */
    failedLibraries: z.array(
      z.object({ id: safeString(), name: safeString(), error: safeString().nullable() }),
    ),
  })
  .meta({ id: 'QualityReport' });
export type QualityReport = z.infer<typeof qualityReportSchema>;

export const qualityItemSchema = z.object({
  itemId: safeString(),
  name: safeString(),
  season: z.number().int().nullable(),
  episode: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  resolution: z.enum(QUALITY_RESOLUTIONS),
  codec: safeString(),
  hdr: z.enum(QUALITY_HDR),
  bitrate: z.number().int().nullable(),
});
export type QualityItem = z.infer<typeof qualityItemSchema>;

export const qualityGroupDetailSchema = z.object({
  group: qualityGroupSchema,
  /** Episodes ordered by season and episode; `seasons` groups them. */
  items: z.array(qualityItemSchema),
  seasons: z.array(z.object({ season: z.number().int().nullable(), itemCount: z.number().int() })),
});
export type QualityGroupDetail = z.infer<typeof qualityGroupDetailSchema>;

export const qualityScanStartedSchema = z.object({
  scanStartedAt: isoInstant,
  /** Poll `GET /admin/job-runs/:runId` for progress (`summary.progress`). */
  runId: uuidSchema,
});
