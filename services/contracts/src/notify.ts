import { z } from 'zod';
import { isoInstant, uuidSchema, safeString } from './common.js';
import {
  DELIVERY_STATUSES,
  DELIVERY_TARGETS,
  LOCALES,
  MEDIA_TYPES,
  MEMBER_NOTICE_KINDS,
  RANKING_PERIODS,
  REGISTRATION_MODES,
} from './values.js';

/**
 * Bodies of the events the API pushes to the bot (`POST {BOT_NOTIFY_URL}/notify/<kind>`,
 * 20-api.md §1.7), field by field as 40-bot.md §2.3–2.4 specifies them. The bot parses them with
 * these schemas; unknown fields are stripped (plain `z.object`), so the API may add fields first.
 */

/** Telegram ids: positive for people, negative for groups; ≤ 52 significant bits (10-data.md). */
const telegramId = z
  .number()
  .int()
  .min(-(2 ** 53 - 1))
  .max(2 ** 53 - 1);
const calendarDay = safeString().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Every body carries these (40-bot.md §2.2). */
const eventBase = {
  /** A fresh uuid per push, for logs on both sides. */
  eventId: uuidSchema,
  occurredAt: isoInstant,
};

// ---------------------------------------------------------------------------------------------
// /notify/subscription (40-bot.md §2.3)

export const notifyRequesterSchema = z.object({
  /** Null only when the requester's account was deleted after the request (FK `SET NULL`). */
  userId: uuidSchema.nullable(),
  username: safeString(),
  messengerId: telegramId.nullable(),
  locale: z.enum(LOCALES).nullable(),
});
export type NotifyRequester = z.infer<typeof notifyRequesterSchema>;

/** The media request as every `/notify/subscription` event carries it. */
export const notifySubscriptionItemSchema = z.object({
  id: uuidSchema,
  mediaType: z.enum(MEDIA_TYPES),
  tmdbId: z.number().int().positive(),
  title: safeString().max(200),
  year: z.number().int().nullable(),
  /** 0 = a movie, or a whole series. */
  season: z.number().int().min(0),
  posterPath: safeString().startsWith('/').nullable(),
  note: safeString().max(500).nullable(),
  requester: notifyRequesterSchema,
});
export type NotifySubscriptionItem = z.infer<typeof notifySubscriptionItemSchema>;

/** One approval copy the bot sent for `created` and may now edit. */
export const notifyAdminMessageSchema = z.object({
  chatId: telegramId,
  messageId: z.number().int(),
  hasPhoto: z.boolean(),
});
export type NotifyAdminMessage = z.infer<typeof notifyAdminMessageSchema>;

export const notifyReviewerSchema = z.object({
  /** `reviewed_via` of the request. */
  source: z.enum(['web', 'messenger']),
  /** Usher username of the reviewer, or `messenger:<id>` when the Telegram id is bound to none. */
  name: safeString(),
});
export type NotifyReviewer = z.infer<typeof notifyReviewerSchema>;

const subscriptionBase = { ...eventBase, subscription: notifySubscriptionItemSchema };

export const notifySubscriptionCreatedSchema = z.object({
  event: z.literal('created'),
  ...subscriptionBase,
});

export const notifySubscriptionAutoApprovedSchema = z.object({
  event: z.literal('auto_approved'),
  ...subscriptionBase,
  /** The member's auto-approvals today including this one; null for an admin's own request. */
  quota: z
    .object({ usedToday: z.number().int().min(0), dailyLimit: z.number().int().min(0) })
    .nullable(),
  reviewedAt: isoInstant,
});

export const notifySubscriptionApprovedSchema = z.object({
  event: z.literal('approved'),
  ...subscriptionBase,
  reviewedAt: isoInstant,
  reviewer: notifyReviewerSchema,
  adminMessages: z.array(notifyAdminMessageSchema),
});

export const notifySubscriptionRejectedSchema = z.object({
  event: z.literal('rejected'),
  ...subscriptionBase,
  reviewedAt: isoInstant,
  reviewer: notifyReviewerSchema,
  reason: safeString().min(1).max(500),
  adminMessages: z.array(notifyAdminMessageSchema),
});

export const notifySubscriptionIngestedSchema = z.object({
  event: z.literal('ingested'),
  ...subscriptionBase,
  ingestedAt: isoInstant,
  /** `"have/total"` for series, null for movies. */
  progress: safeString()
    .regex(/^\d+\/\d+$/)
    .nullable(),
  adminMessages: z.array(notifyAdminMessageSchema),
});

export const NotifySubscription = z
  .discriminatedUnion('event', [
    notifySubscriptionCreatedSchema,
    notifySubscriptionAutoApprovedSchema,
    notifySubscriptionApprovedSchema,
    notifySubscriptionRejectedSchema,
    notifySubscriptionIngestedSchema,
  ])
  .meta({ id: 'NotifySubscription' });
export type NotifySubscription = z.infer<typeof NotifySubscription>;

// ---------------------------------------------------------------------------------------------
// Other kinds (40-bot.md §2.4)

export const NotifyRegistration = z
  .object({
    ...eventBase,
    userId: uuidSchema,
    username: safeString(),
    email: safeString().nullable(),
    mediaUserId: safeString().nullable(),
    mode: z.enum(REGISTRATION_MODES),
    expiresAt: isoInstant.nullable(),
    createdAt: isoInstant,
  })
  .meta({ id: 'NotifyRegistration' });
export type NotifyRegistration = z.infer<typeof NotifyRegistration>;

export const NotifyPayment = z
  .object({
    ...eventBase,
    paymentId: uuidSchema,
    userId: uuidSchema,
    username: safeString(),
    planId: uuidSchema,
    planName: safeString(),
    /** Minor units, as Stripe counts them. */
    amount: z.number().int().min(0),
    /** ISO 4217, lower case. */
    currency: safeString().regex(/^[a-z]{3}$/),
    days: z.number().int().min(1),
    previousExpiresAt: isoInstant.nullable(),
    newExpiresAt: isoInstant,
    completedAt: isoInstant,
  })
  .meta({ id: 'NotifyPayment' });
export type NotifyPayment = z.infer<typeof NotifyPayment>;

export const notifyRankingEntrySchema = z.object({
  rank: z.number().int().min(1),
  name: safeString(),
  playCount: z.number().int().min(0),
  durationSeconds: z.number().int().min(0),
});

export const NotifyRanking = z
  .object({
    ...eventBase,
    batchId: uuidSchema,
    period: z.enum(RANKING_PERIODS),
    periodStart: calendarDay,
    periodEnd: calendarDay,
    /** Shown by the bot as `HH:mm` in `timezone`. */
    cutoffAt: isoInstant,
    timezone: safeString().min(1),
    totalDurationSeconds: z.number().int().min(0),
    movies: z.array(notifyRankingEntrySchema).max(25),
    series: z.array(notifyRankingEntrySchema).max(25),
  })
  .meta({ id: 'NotifyRanking' });
export type NotifyRanking = z.infer<typeof NotifyRanking>;

/**
 * A direct message to one member, already written in the member's language by the API (a
 * membership reminder, or the admin's "send me a test"). `text` is plain text: the bot escapes
 * it for Telegram HTML and sends it to `messengerId` as it is.
 */
export const NotifyMember = z
  .object({
    ...eventBase,
    notice: z.enum(MEMBER_NOTICE_KINDS),
    userId: uuidSchema,
    messengerId: telegramId,
    locale: z.enum(LOCALES),
    text: safeString().min(1).max(3500),
    /** A reminder's renewal page (https only, as Telegram's URL buttons need): a Renew button. */
    renewUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .optional(),
  })
  .meta({ id: 'NotifyMember' });
export type NotifyMember = z.infer<typeof NotifyMember>;

/** Body schema per kind, for the bot's validator and the API's notifier. */
export const NOTIFY_BODY_SCHEMAS = {
  subscription: NotifySubscription,
  registration: NotifyRegistration,
  payment: NotifyPayment,
  ranking: NotifyRanking,
  member: NotifyMember,
} as const;

export interface NotifyBodies {
  subscription: NotifySubscription;
  registration: NotifyRegistration;
  payment: NotifyPayment;
  ranking: NotifyRanking;
  member: NotifyMember;
}

// ---------------------------------------------------------------------------------------------
// The bot's reply (40-bot.md §2.2)

export const deliverySchema = z.object({
  to: z.enum(DELIVERY_TARGETS),
  chatId: telegramId.nullable(),
  messageId: z.number().int().optional(),
  hasPhoto: z.boolean().optional(),
  status: z.enum(DELIVERY_STATUSES),
  reason: safeString().optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/**
 * 200 reply of every notify route. `sent` is added by the ranking route (whether the ranking
 * reached a chat). On 502 `DELIVERY_FAILED` the same deliveries travel in `error.details`.
 */
export const notifyReplySchema = z.object({
  ok: z.literal(true),
  deliveries: z.array(deliverySchema),
  sent: z.boolean().optional(),
});
export type NotifyReply = z.infer<typeof notifyReplySchema>;
