import { z } from 'zod';
import {
  CREATE_OUTCOMES,
  REQUEST_STATUSES,
  REQUEST_TYPES,
  REVIEW_SOURCES,
  type RequestType,
} from './values.js';
import {
  isoInstant,
  paginationQuerySchema,
  uuidSchema,
  safeString,
  safeJsonRecord,
  isSafeJson,
  UNSAFE_TEXT_MESSAGE,
} from './common.js';

/** Media requests (10-data.md §4, 20-api.md §5–§7): the seed's "subscriptions". */

const telegramId = z
  .number()
  .int()
  .min(-(2 ** 53 - 1))
  .max(2 ** 53 - 1);
const positiveTelegramId = z
  .number()
  .int()
  .min(1)
  .max(2 ** 53 - 1);

/** TMDB image path, e.g. `/abc.jpg` (10-data.md `poster_path`). */
export const posterPathSchema = safeString()
  .regex(/^\/[A-Za-z0-9._-]+$/)
  .max(200);
export const tmdbIdSchema = z
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

export const ingestProgressSchema = z.object({
  have: z.number().int().min(0),
  total: z.number().int().min(0),
  /** Last episode seen in the library, `S01E05`; null when none yet. */
  last: safeString().nullable(),
});
export type IngestProgress = z.infer<typeof ingestProgressSchema>;

const requestFields = {
  id: uuidSchema,
  type: z.enum(REQUEST_TYPES),
  tmdbId: z.number().int(),
  /** 0 = movie or whole series; ≥ 1 = that season. */
  season: z.number().int().min(0),
  name: safeString(),
  year: z.number().int().nullable(),
  posterPath: safeString().nullable(),
  /** TMDB backdrop path stored at creation (issue 14); optional, older rows and the bot send none. */
  backdropPath: safeString().nullable().optional(),
  note: safeString(),
  status: z.enum(REQUEST_STATUSES),
  reviewSource: z.enum(REVIEW_SOURCES).nullable(),
  reviewedAt: isoInstant.nullable(),
  reviewer: z.object({ username: safeString() }).nullable(),
  rejectReason: safeString().nullable(),
  retryFromId: uuidSchema.nullable(),
  ingestProgress: ingestProgressSchema.nullable(),
  ingestedAt: isoInstant.nullable(),
  createdAt: isoInstant,
};

/** `MediaRequest` as members see it (20-api.md §2). */
export const mediaRequestSchema = z.object(requestFields).meta({ id: 'MediaRequest' });
export type MediaRequest = z.infer<typeof mediaRequestSchema>;

/** `MediaRequest` with the admin fields (requester, automation state). */
export const adminMediaRequestSchema = z
  .object({
    ...requestFields,
    /** `id` is null once the requester's account was deleted; the name is a snapshot. */
    requester: z.object({ id: uuidSchema.nullable(), username: safeString() }),
    automation: z.object({
      dispatchedAt: isoInstant.nullable(),
      ref: safeString().nullable(),
      error: safeString().nullable(),
      candidatesSearchedAt: isoInstant.nullable(),
    }),
  })
  .meta({ id: 'AdminMediaRequest' });
export type AdminMediaRequest = z.infer<typeof adminMediaRequestSchema>;

export const requestIdParamsSchema = z.strictObject({ id: safeString() });

export const listOwnRequestsQuerySchema = paginationQuerySchema.extend({
  status: z.enum(REQUEST_STATUSES).optional(),
});

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const listAdminRequestsQuerySchema = paginationQuerySchema.extend({
  status: z.enum(REQUEST_STATUSES).optional(),
  type: z.enum(REQUEST_TYPES).optional(),
  userId: uuidSchema.optional(),
  search: safeString().trim().min(1).max(200).optional(),
  hasAutomationError: booleanQuery.optional(),
});

const titleKey = {
  type: z.enum(REQUEST_TYPES),
  tmdbId: tmdbIdSchema,
  season: z.number().int().min(0).max(200),
};

const seasonRule = (v: { type: RequestType; season: number }) => v.type === 'TV' || v.season === 0;
const seasonRuleMessage = { message: 'A movie request has season 0', path: ['season'] };

export const checkExistingBodySchema = z
  .strictObject(titleKey)
  .refine(seasonRule, seasonRuleMessage);

export const existingSummarySchema = z.object({
  matchType: z.enum(['movie', 'series', 'season']),
  mediaItemId: safeString(),
  /** Season numbers present in the library (series), empty for movies. */
  seasons: z.array(z.number().int()),
  episodeCount: z.number().int().min(0),
  message: safeString(),
});
export type ExistingSummary = z.infer<typeof existingSummarySchema>;

export const checkExistingReplySchema = z.object({
  inLibrary: z.boolean(),
  detection: z.enum(['ok', 'failed', 'not_configured']),
  summary: existingSummarySchema.optional(),
  activeRequest: z.object({ id: uuidSchema, status: z.enum(REQUEST_STATUSES) }).optional(),
});
export type CheckExistingReply = z.infer<typeof checkExistingReplySchema>;

const createFields = {
  ...titleKey,
  name: safeString().trim().min(1).max(200),
  year: z.number().int().min(1800).max(3000).nullable().optional(),
  posterPath: posterPathSchema.nullable().optional(),
  /** The result's `backdropPath`, kept for the pages where the request is the subject. */
  backdropPath: posterPathSchema.nullable().optional(),
  note: safeString().trim().max(500).optional(),
  /** Whether the member confirmed after `ALREADY_IN_LIBRARY`. */
  confirmExisting: z.boolean().optional(),
};

export const createRequestBodySchema = z
  .strictObject(createFields)
  .refine(seasonRule, seasonRuleMessage);
export type CreateRequestBody = z.infer<typeof createRequestBodySchema>;

export const createRequestReplySchema = z.object({
  outcome: z.enum(CREATE_OUTCOMES),
  request: mediaRequestSchema,
});

export const resubmitRequestBodySchema = z.strictObject({
  note: safeString().trim().min(1).max(500),
  confirmExisting: z.boolean().optional(),
});

export const rejectRequestBodySchema = z.strictObject({
  reason: safeString().trim().min(1).max(500),
});

export const adminRequestReplySchema = z.object({ request: adminMediaRequestSchema });

export const verifyIngestReplySchema = z.object({
  request: adminMediaRequestSchema,
  progress: ingestProgressSchema.nullable(),
});

// ---------------------------------------------------------------------------------------------
// Internal routes for the bot (20-api.md §7)

const languageCode = safeString().max(35).optional();

export const internalCreateRequestBodySchema = z
  .strictObject({ messengerId: positiveTelegramId, languageCode, ...createFields })
  .refine(seasonRule, seasonRuleMessage);

export const internalApproveBodySchema = z.strictObject({
  approverMessengerId: positiveTelegramId,
});

export const internalRejectBodySchema = z.strictObject({
  approverMessengerId: positiveTelegramId,
  reason: safeString().trim().min(1).max(500),
  pendingActionId: uuidSchema.optional(),
});

export const internalReviewReplySchema = z.object({
  request: adminMediaRequestSchema,
  /** False when the request already had the outcome asked for (double tap). */
  changed: z.boolean(),
});

export const adminMessagesBodySchema = z.strictObject({
  messages: z
    .array(
      z.strictObject({
        approverMessengerId: positiveTelegramId.nullable().optional(),
        chatId: telegramId,
        messageId: z.number().int().nullable().optional(),
        hasPhoto: z.boolean(),
        status: z.enum(['sent', 'send_failed']),
        reason: safeString().max(500).nullable().optional(),
      }),
    )
    .max(50),
});

export const PENDING_ACTION_KIND = /^[a-z][a-z0-9_]{1,31}$/;
export const PENDING_ACTION_PAYLOAD_MAX_BYTES = 16 * 1024;

const pendingPayload = z
  .record(safeString(), z.unknown())
  .refine(isSafeJson, { message: UNSAFE_TEXT_MESSAGE })
  .refine(
    (v) => new TextEncoder().encode(JSON.stringify(v)).length <= PENDING_ACTION_PAYLOAD_MAX_BYTES,
    { message: 'payload is larger than 16 KiB' },
  );
const ttlSeconds = z.number().int().min(10).max(3600);

export const createPendingActionBodySchema = z.strictObject({
  kind: safeString().regex(PENDING_ACTION_KIND),
  chatId: telegramId,
  messengerUserId: telegramId,
  payload: pendingPayload,
  ttlSeconds,
});

export const updatePendingActionBodySchema = z.strictObject({
  payload: pendingPayload,
  ttlSeconds: ttlSeconds.optional(),
});

export const pendingActionKeyQuerySchema = z.strictObject({
  kind: safeString().regex(PENDING_ACTION_KIND),
  chatId: z.coerce.number().pipe(telegramId),
  messengerUserId: z.coerce.number().pipe(telegramId),
});

export const pendingActionSchema = z
  .object({
    id: uuidSchema,
    kind: safeString(),
    chatId: z.number().int(),
    messengerUserId: z.number().int(),
    payload: safeJsonRecord(),
    expiresAt: isoInstant,
  })
  .meta({ id: 'PendingAction' });
export type PendingAction = z.infer<typeof pendingActionSchema>;

export const createdPendingActionSchema = z.object({ id: uuidSchema, expiresAt: isoInstant });

// ---------------------------------------------------------------------------------------------
// Media-server webhook reply (20-api.md §4)

export const mediaServerWebhookReplySchema = z.object({
  received: z.literal(true),
  matched: z
    .object({ calendar: z.number().int().min(0), requests: z.number().int().min(0) })
    .optional(),
  ignored: z.literal(true).optional(),
  test: z.literal(true).optional(),
  deferred: z.literal(true).optional(),
});
export type MediaServerWebhookReply = z.infer<typeof mediaServerWebhookReplySchema>;

// ---------------------------------------------------------------------------------------------
// Manual search and dispatch (admin, MoviePilot only; 20-api.md §6)

export const manualSearchBodySchema = z.strictObject({
  /** Required for a whole-series request; defaults to the request's season otherwise. */
  season: z.number().int().min(1).max(200).optional(),
});

export const candidateSchema = z
  .object({
    index: z.number().int().min(0),
    title: safeString(),
    site: safeString(),
    sizeBytes: z.number().nullable(),
    seeders: z.number().int().nullable(),
    peers: z.number().int().nullable(),
    publishedAt: safeString().nullable(),
    volumeFactor: safeString().nullable(),
  })
  .meta({ id: 'AutomationCandidate' });
export type AutomationCandidate = z.infer<typeof candidateSchema>;

export const manualSearchReplySchema = z.object({
  candidates: z.array(candidateSchema).max(50),
  searchedAt: isoInstant,
});

export const manualDispatchBodySchema = z.strictObject({
  candidateIndex: z.number().int().min(0).max(49),
});

export const manualDispatchReplySchema = z.object({
  request: adminMediaRequestSchema,
  accepted: z.literal(true),
});
