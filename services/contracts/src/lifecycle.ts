import { z } from 'zod';
import {
  cappedPageOf,
  isoInstant,
  pageOf,
  paginationQuerySchema,
  safeString,
  uuidSchema,
} from './common.js';
import {
  ANNOUNCEMENT_AUDIENCES,
  ANNOUNCEMENT_CHANNELS,
  LIFECYCLE_CHANNELS,
  LOCALES,
  NOTICE_KINDS,
  NOTICE_STATUSES,
  TEMPLATE_NOTICE_KINDS,
} from './values.js';

/**
 * Admin tools of the membership lifecycle (docs/lifecycle.md): the preview of a notice kind's
 * texts and "send me a test". Both use the calling admin as the sample member.
 */

/** Which notice's texts: the expiry reminder unless said otherwise. */
const templateKind = z.enum(TEMPLATE_NOTICE_KINDS).default('expiry_reminder');

/** `POST /admin/lifecycle/preview`: a draft subject/text overlays the saved template. */
export const lifecyclePreviewRequestSchema = z
  .strictObject({
    kind: templateKind,
    locale: z.enum(LOCALES),
    subject: safeString().optional(),
    text: safeString().optional(),
  })
  .meta({ id: 'LifecyclePreviewRequest' });
export type LifecyclePreviewRequest = z.input<typeof lifecyclePreviewRequestSchema>;

const rendered = {
  locale: z.enum(LOCALES),
  subject: z.string(),
  text: z.string(),
};
const sampleMember = { username: z.string(), siteName: z.string() };

/** The rendered texts, and the values the placeholders were filled with (per kind). */
export const lifecyclePreviewReplySchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('expiry_reminder'),
      ...rendered,
      sample: z.object({
        ...sampleMember,
        daysLeft: z.number().int().min(1),
        expiresAt: isoInstant,
        renewUrl: z.string(),
      }),
    }),
    z.object({
      kind: z.literal('deletion_warning'),
      ...rendered,
      sample: z.object({
        ...sampleMember,
        expiresAt: isoInstant,
        deleteAt: isoInstant,
        renewUrl: z.string(),
      }),
    }),
    z.object({
      kind: z.literal('inactivity_warning'),
      ...rendered,
      sample: z.object({
        ...sampleMember,
        days: z.number().int().min(1),
        disableAt: isoInstant,
      }),
    }),
  ])
  .meta({ id: 'LifecyclePreview' });
export type LifecyclePreview = z.infer<typeof lifecyclePreviewReplySchema>;

/** `POST /admin/lifecycle/test`: a kind's saved texts, sent to the calling admin on one channel. */
export const lifecycleTestRequestSchema = z
  .strictObject({
    kind: templateKind,
    channel: z.enum(LIFECYCLE_CHANNELS),
    locale: z.enum(LOCALES).optional(),
  })
  .meta({ id: 'LifecycleTestRequest' });
export type LifecycleTestRequest = z.input<typeof lifecycleTestRequestSchema>;

export const lifecycleTestReplySchema = z
  .object({
    kind: z.enum(TEMPLATE_NOTICE_KINDS),
    channel: z.enum(LIFECYCLE_CHANNELS),
    locale: z.enum(LOCALES),
    status: z.literal('sent'),
  })
  .meta({ id: 'LifecycleTestReply' });
export type LifecycleTestReply = z.infer<typeof lifecycleTestReplySchema>;

// ---------------------------------------------------------------------------------------------
// Notices: what the lifecycle jobs sent, skipped or failed (docs/lifecycle.md)

/** One notice on one channel: a row of `member_notices`. */
export const noticeSchema = z
  .object({
    id: uuidSchema,
    userId: uuidSchema,
    username: z.string(),
    kind: z.enum(NOTICE_KINDS),
    channel: z.enum(LIFECYCLE_CHANNELS),
    status: z.enum(NOTICE_STATUSES),
    /** Tries so far (a failed notice is tried again by the next run, three tries in all). */
    attempts: z.number().int().min(0),
    /** Why it was skipped or failed. */
    detail: z.string().nullable(),
    /** The membership end it was about, and the threshold (days before it). */
    expiresAt: isoInstant.nullable(),
    days: z.number().int().nullable(),
    createdAt: isoInstant,
    updatedAt: isoInstant,
  })
  .meta({ id: 'Notice' });
export type Notice = z.infer<typeof noticeSchema>;

/** `GET /admin/notices`: newest first, filtered by member, kind, channel or status. */
export const noticesQuerySchema = paginationQuerySchema.extend({
  userId: uuidSchema.optional(),
  kind: z.enum(NOTICE_KINDS).optional(),
  channel: z.enum(LIFECYCLE_CHANNELS).optional(),
  status: z.enum(NOTICE_STATUSES).optional(),
});
export type NoticesQuery = z.infer<typeof noticesQuerySchema>;
export const noticesPageSchema = pageOf(noticeSchema).meta({ id: 'NoticesPage' });
export type NoticesPage = z.infer<typeof noticesPageSchema>;

/** `GET /admin/lifecycle/upcoming?days=14`: who gets which reminder, when, on which channel. */
export const lifecycleUpcomingQuerySchema = paginationQuerySchema.extend({
  days: z.coerce.number().int().min(1).max(60).default(14),
});
export type LifecycleUpcomingQuery = z.infer<typeof lifecycleUpcomingQuerySchema>;

export const upcomingReminderSchema = z
  .object({
    userId: uuidSchema,
    username: z.string(),
    expiresAt: isoInstant,
    /** The `REMINDER_DAYS` threshold. */
    days: z.number().int().min(1).max(60),
    /** When the job sends it: the threshold's start, or the next run when it has begun. */
    dueAt: isoInstant,
    channels: z.array(
      z.object({
        channel: z.enum(LIFECYCLE_CHANNELS),
        /** `pending` = will be sent; the others as in the notices log. */
        status: z.enum(['pending', ...NOTICE_STATUSES]),
        detail: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'UpcomingReminder' });
export type UpcomingReminder = z.infer<typeof upcomingReminderSchema>;
export const lifecycleUpcomingPageSchema = cappedPageOf(upcomingReminderSchema).meta({
  id: 'LifecycleUpcomingPage',
});
export type LifecycleUpcomingPage = z.infer<typeof lifecycleUpcomingPageSchema>;

// ---------------------------------------------------------------------------------------------
// The member's notice preferences and the unsubscribe link

/** `GET/PUT /me/notifications`: whether reminders reach the member by mail and by the bot. */
export const notificationPreferencesSchema = z
  .strictObject({ email: z.boolean(), messenger: z.boolean() })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** `POST /public/unsubscribe?token=`: the signed link of a reminder mail (RFC 8058 one-click). */
export const unsubscribeQuerySchema = z.strictObject({
  token: safeString()
    .min(10)
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+$/),
});
export const unsubscribeReplySchema = z
  .object({ channel: z.literal('email'), subscribed: z.literal(false) })
  .meta({ id: 'UnsubscribeReply' });
export type UnsubscribeReply = z.infer<typeof unsubscribeReplySchema>;

// ---------------------------------------------------------------------------------------------
// Announcements: the operator's voice to the community

/** `POST /admin/announcements`: shown in the console to every recipient, sent on `channels`. */
export const announcementCreateSchema = z
  .strictObject({
    title: safeString().trim().min(1).max(120),
    body: safeString().trim().min(1).max(3000),
    audience: z.enum(ANNOUNCEMENT_AUDIENCES),
    channels: z
      .array(z.enum(ANNOUNCEMENT_CHANNELS))
      .max(ANNOUNCEMENT_CHANNELS.length)
      .refine((list) => new Set(list).size === list.length, { message: 'listed twice' }),
  })
  .meta({ id: 'AnnouncementCreate' });
export type AnnouncementCreate = z.infer<typeof announcementCreateSchema>;

export const announcementCreatedSchema = z
  .object({ id: uuidSchema, recipients: z.number().int().min(0) })
  .meta({ id: 'AnnouncementCreated' });
export type AnnouncementCreated = z.infer<typeof announcementCreatedSchema>;

const deliveryCounts = z.object({
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  skipped: z.number().int().min(0),
});

export const announcementSchema = z
  .object({
    id: uuidSchema,
    title: z.string(),
    body: z.string(),
    audience: z.enum(ANNOUNCEMENT_AUDIENCES),
    channels: z.array(z.enum(ANNOUNCEMENT_CHANNELS)),
    recipients: z.number().int().min(0),
    /** `sending` until the job finds nothing left to send or retry. */
    status: z.enum(['sending', 'done']),
    createdBy: z.string().nullable(),
    createdAt: isoInstant,
    finishedAt: isoInstant.nullable(),
    /** Recipients who opened it in the console. */
    read: z.number().int().min(0),
    email: deliveryCounts,
    messenger: deliveryCounts,
  })
  .meta({ id: 'Announcement' });
export type Announcement = z.infer<typeof announcementSchema>;
export const announcementsPageSchema = pageOf(announcementSchema).meta({
  id: 'AnnouncementsPage',
});
export type AnnouncementsPage = z.infer<typeof announcementsPageSchema>;

/** `GET /me/announcements`: the latest ones for the member, unread first. */
export const memberAnnouncementSchema = z
  .object({
    id: uuidSchema,
    title: z.string(),
    body: z.string(),
    createdAt: isoInstant,
    read: z.boolean(),
  })
  .meta({ id: 'MemberAnnouncement' });
export type MemberAnnouncement = z.infer<typeof memberAnnouncementSchema>;
export const memberAnnouncementsSchema = z
  .object({ data: z.array(memberAnnouncementSchema), unread: z.number().int().min(0) })
  .meta({ id: 'MemberAnnouncements' });
export type MemberAnnouncements = z.infer<typeof memberAnnouncementsSchema>;
