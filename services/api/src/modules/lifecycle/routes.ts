import {
  announcementCreateSchema,
  announcementCreatedSchema,
  announcementsPageSchema,
  lifecyclePreviewReplySchema,
  lifecyclePreviewRequestSchema,
  lifecycleTestReplySchema,
  lifecycleTestRequestSchema,
  lifecycleUpcomingPageSchema,
  lifecycleUpcomingQuerySchema,
  noticesPageSchema,
  noticesQuerySchema,
  notificationPreferencesSchema,
  unsubscribeQuerySchema,
  memberAnnouncementsSchema,
  paginationQuerySchema,
  unsubscribeReplySchema,
  uuidSchema,
} from '@usher/contracts';
import { z } from 'zod';
import { noContent, type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import {
  createAnnouncement,
  listAnnouncements,
  markAnnouncementRead,
  memberAnnouncements,
} from './announcements.js';
import { setInactivityExempt } from './inactivity.js';
import { listNotices, upcomingReminders } from './notices.js';
import { previewNotice, sendTestNotice } from './service.js';
import { readPreferences, savePreferences, unsubscribe } from './unsubscribe.js';

const api = routeGroup('settings');

const announcementParams = z.strictObject({ id: uuidSchema });
const exemptBody = z.strictObject({ exempt: z.boolean() }).meta({ id: 'InactivityExempt' });
const exemptReply = z
  .object({ userId: uuidSchema, exempt: z.boolean() })
  .meta({ id: 'InactivityExemptReply' });

export function lifecycleRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.admin.post('/api/v1/admin/announcements', {
      summary: 'Post an announcement to an audience, shown in the console and sent on channels',
      request: { body: announcementCreateSchema },
      responses: {
        202: {
          description: 'Accepted; sending in the background',
          schema: announcementCreatedSchema,
        },
      },
      handler: async (c, { body, auth, meta }) =>
        c.json(await createAnnouncement(ctx, auth.userId, body, meta), 202),
    }),
    api.admin.get('/api/v1/admin/announcements', {
      summary: 'Announcements with their delivery and read counts, newest first',
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Newest first', schema: announcementsPageSchema } },
      json: ({ query }) => listAnnouncements(ctx, query),
    }),
    api.admin.put('/api/v1/admin/users/:id/inactivity-exempt', {
      summary: 'Never switch this member off for inactivity (or again)',
      tags: ['users'],
      request: { params: announcementParams, body: exemptBody },
      responses: { 200: { description: 'Saved', schema: exemptReply } },
      errors: ['NOT_FOUND'],
      json: ({ params, body, auth, meta }) =>
        setInactivityExempt(ctx, auth.userId, params.id, body.exempt, meta),
    }),
    api.user.get('/api/v1/me/announcements', {
      summary: 'Your latest announcements, unread first',
      tags: ['me'],
      responses: { 200: { description: 'Announcements', schema: memberAnnouncementsSchema } },
      json: ({ auth }) => memberAnnouncements(ctx, auth.userId),
    }),
    api.user.post('/api/v1/me/announcements/:id/read', {
      summary: 'Mark an announcement read',
      tags: ['me'],
      request: { params: announcementParams },
      responses: { 204: { description: 'Read' } },
      errors: ['NOT_FOUND'],
      handler: (c, { params, auth }) =>
        noContent(c, markAnnouncementRead(ctx, auth.userId, params.id)),
    }),
    api.admin.post('/api/v1/admin/lifecycle/preview', {
      summary:
        'Render a lifecycle notice (the reminder unless `kind` says otherwise), optionally with a draft subject and text',
      request: { body: lifecyclePreviewRequestSchema },
      responses: {
        200: {
          description: 'The notice as a member would read it',
          schema: lifecyclePreviewReplySchema,
        },
      },
      errors: ['SETTING_INVALID'],
      json: ({ body, auth }) => previewNotice(ctx, auth.userId, body),
    }),
    api.admin.post('/api/v1/admin/lifecycle/test', {
      summary: "Send a lifecycle notice's saved texts to yourself on one channel",
      request: { body: lifecycleTestRequestSchema },
      responses: { 200: { description: 'Sent', schema: lifecycleTestReplySchema } },
      errors: ['REMINDER_CHANNEL_UNAVAILABLE', 'NOT_CONFIGURED', 'UPSTREAM_UNAVAILABLE'],
      json: ({ body, auth }) => sendTestNotice(ctx, auth.userId, body),
    }),
    // `…/upcoming`, and the issue's name for the same view (`GET …/preview?days=14`; `POST
    // …/preview` renders a template instead). Both stay: the web page calls `preview`.
    ...['upcoming', 'preview'].map((name) =>
      api.admin.get(`/api/v1/admin/lifecycle/${name}`, {
        summary: 'The reminders coming up: who gets which, when, on which channel',
        request: { query: lifecycleUpcomingQuerySchema },
        responses: {
          200: { description: 'Soonest first', schema: lifecycleUpcomingPageSchema },
        },
        json: ({ query }) => upcomingReminders(ctx, query),
      }),
    ),
    api.admin.get('/api/v1/admin/notices', {
      summary: 'What the lifecycle sent, skipped or failed, per member and channel',
      request: { query: noticesQuerySchema },
      responses: { 200: { description: 'Newest first', schema: noticesPageSchema } },
      json: ({ query }) => listNotices(ctx, query),
    }),
    api.user.get('/api/v1/me/notifications', {
      summary: 'Whether reminders reach you by e-mail and by the bot',
      tags: ['me'],
      responses: { 200: { description: 'Preferences', schema: notificationPreferencesSchema } },
      json: ({ auth }) => readPreferences(ctx, auth.userId),
    }),
    api.user.put('/api/v1/me/notifications', {
      summary: 'Choose whether reminders reach you by e-mail and by the bot',
      tags: ['me'],
      request: { body: notificationPreferencesSchema },
      responses: { 200: { description: 'Preferences', schema: notificationPreferencesSchema } },
      json: ({ body, auth, meta }) => savePreferences(ctx, auth.userId, body, meta),
    }),
    api.public.post('/api/v1/public/unsubscribe', {
      summary: "Stop reminder mails with a mail's signed link (RFC 8058 one-click, or the page)",
      tags: ['public'],
      request: { query: unsubscribeQuerySchema },
      responses: { 200: { description: 'Unsubscribed', schema: unsubscribeReplySchema } },
      errors: ['UNSUBSCRIBE_LINK_INVALID'],
      json: ({ query, meta }) => unsubscribe(ctx, query.token, meta),
    }),
  ];
}
