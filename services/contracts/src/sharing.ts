// Account sharing (docs/sharing.md): events, their evidence, a member's timeline and trust score,
// and the member's own streams.
import { z } from 'zod';
import { isoInstant, pageOf, paginationQuerySchema, safeString, uuidSchema } from './common.js';
import { SHARING_ACTIONS, SHARING_EVENT_STATUSES, SHARING_RULES } from './values.js';

export const sharingEventListQuerySchema = paginationQuerySchema.extend({
  status: z.enum(SHARING_EVENT_STATUSES).optional(),
  rule: z.enum(SHARING_RULES).optional(),
  userId: uuidSchema.optional(),
});
export type SharingEventListQuery = z.infer<typeof sharingEventListQuerySchema>;

const text = safeString();
const nullableText = safeString().nullable();

export const sharingSessionSchema = z.object({
  sessionId: text,
  deviceId: text,
  deviceName: nullableText,
  client: nullableText,
  address: text,
  /** An IPv4 address, an IPv6 /64, or `home`. */
  network: text,
  city: nullableText,
  /** ISO 3166-1 alpha-2. */
  country: nullableText,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  itemName: nullableText,
  startedAt: isoInstant,
  lastSeenAt: isoInstant,
  live: z.boolean(),
  offending: z.boolean(),
});
export type SharingSession = z.infer<typeof sharingSessionSchema>;

export const sharingEvidenceSchema = z.object({
  limit: z.number(),
  count: z.number(),
  sessions: z.array(sharingSessionSchema),
  networks: z.array(text),
  devices: z.array(z.object({ deviceId: text, name: nullableText, client: nullableText })),
  places: z.array(
    z.object({
      city: nullableText,
      country: nullableText,
      latitude: z.number(),
      longitude: z.number(),
    }),
  ),
  travel: z.object({ distanceKm: z.number(), hours: z.number(), speedKmh: z.number() }).optional(),
});
export type SharingEvidence = z.infer<typeof sharingEvidenceSchema>;

export const sharingEventSchema = z
  .object({
    id: uuidSchema,
    user: z.object({ id: uuidSchema, username: text }),
    rule: z.enum(SHARING_RULES),
    detectedAt: isoInstant,
    evidence: sharingEvidenceSchema,
    /** What `SHARING_ACTION` named when the event was recorded. */
    action: z.enum(SHARING_ACTIONS),
    status: z.enum(SHARING_EVENT_STATUSES),
    actionTaken: z.enum(SHARING_ACTIONS).nullable(),
    actionedAt: isoInstant.nullable(),
    actionError: nullableText,
    dismissedAt: isoInstant.nullable(),
    note: nullableText,
  })
  .meta({ id: 'SharingEvent' });
export type SharingEvent = z.infer<typeof sharingEventSchema>;
export const sharingEventListSchema = pageOf(sharingEventSchema);
export type SharingEventList = z.infer<typeof sharingEventListSchema>;

export const dismissSharingEventSchema = z.strictObject({
  note: safeString().trim().max(500).default(''),
});
export type DismissSharingEvent = z.input<typeof dismissSharingEventSchema>;

export const actOnSharingEventSchema = z.strictObject({
  action: z.enum(SHARING_ACTIONS),
});
export type ActOnSharingEvent = z.infer<typeof actOnSharingEventSchema>;

export const sharingExemptSchema = z.strictObject({ exempt: z.boolean() });
export type SharingExempt = z.infer<typeof sharingExemptSchema>;

/** `GET /admin/sharing/members/:userId`: the timeline of the member's streams and their trust. */
export const sharingMemberSchema = z.object({
  user: z.object({ id: uuidSchema, username: text }),
  /** 0–100: falls with confirmed events, recovers with time and with dismissals. */
  trustScore: z.number().int().min(0).max(100),
  exempt: z.boolean(),
  suspendedUntil: isoInstant.nullable(),
  maxStreams: z.number().int(),
  windowHours: z.number().int(),
  /** Newest first, at most 200 (the last 30 days). */
  timeline: z.array(sharingSessionSchema.omit({ offending: true })),
  networks: z.array(z.object({ network: text, streams: z.number().int(), lastSeenAt: isoInstant })),
  devices: z.array(
    z.object({ deviceId: text, name: nullableText, client: nullableText, lastSeenAt: isoInstant }),
  ),
  places: z.array(
    z.object({
      city: nullableText,
      country: nullableText,
      latitude: z.number(),
      longitude: z.number(),
      streams: z.number().int(),
    }),
  ),
  events: z.array(sharingEventSchema),
});
export type SharingMember = z.infer<typeof sharingMemberSchema>;

/** `GET /me/streams`: the member's live streams as the sharing watch last saw them, and the limit. */
export const myStreamsSchema = z.object({
  enabled: z.boolean(),
  limit: z.number().int(),
  streams: z.array(
    z.object({
      deviceName: nullableText,
      client: nullableText,
      itemName: nullableText,
      city: nullableText,
      country: nullableText,
      home: z.boolean(),
      startedAt: isoInstant,
      lastSeenAt: isoInstant,
    }),
  ),
  suspendedUntil: isoInstant.nullable(),
  /** The member's latest events (newest first, at most 10), so a stopped stream has a reason. */
  recent: z.array(
    z.object({
      rule: z.enum(SHARING_RULES),
      detectedAt: isoInstant,
      actionTaken: z.enum(SHARING_ACTIONS).nullable(),
      status: z.enum(SHARING_EVENT_STATUSES),
    }),
  ),
});
export type MyStreams = z.infer<typeof myStreamsSchema>;
