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
import { defineRoute, noContent, type RouteDef } from '../../http/route.js';
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

const announcementParams = z.strictObject({ id: uuidSchema });
const exemptBody = z.strictObject({ exempt: z.boolean() }).meta({ id: 'InactivityExempt' });
const exemptReply = z
  .object({ userId: uuidSchema, exempt: z.boolean() })
  .meta({ id: 'InactivityExemptReply' });

export function lifecycleRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/announcements',
      auth: 'admin',
      summary: 'Post an announcement to an audience, shown in the console and sent on channels',
      tags: ['settings'],
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
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/announcements',
      auth: 'admin',
      summary: 'Announcements with their delivery and read counts, newest first',
      tags: ['settings'],
      request: { query: paginationQuerySchema },
      responses: { 200: { description: 'Newest first', schema: announcementsPageSchema } },
      handler: async (c, { query }) => c.json(await listAnnouncements(ctx, query)),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/admin/users/:id/inactivity-exempt',
      auth: 'admin',
      summary: 'Never switch this member off for inactivity (or again)',
      tags: ['users'],
      request: { params: announcementParams, body: exemptBody },
      responses: { 200: { description: 'Saved', schema: exemptReply } },
      errors: ['NOT_FOUND'],
      handler: async (c, { params, body, auth, meta }) =>
        c.json(await setInactivityExempt(ctx, auth.userId, params.id, body.exempt, meta)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/announcements',
      auth: 'user',
      summary: 'Your latest announcements, unread first',
      tags: ['me'],
      responses: { 200: { description: 'Announcements', schema: memberAnnouncementsSchema } },
      handler: async (c, { auth }) => c.json(await memberAnnouncements(ctx, auth.userId)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/me/announcements/:id/read',
      auth: 'user',
      summary: 'Mark an announcement read',
      tags: ['me'],
      request: { params: announcementParams },
      responses: { 204: { description: 'Read' } },
      errors: ['NOT_FOUND'],
      handler: (c, { params, auth }) =>
        noContent(c, markAnnouncementRead(ctx, auth.userId, params.id)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/lifecycle/preview',
      auth: 'admin',
      summary:
        'Render a lifecycle notice (the reminder unless `kind` says otherwise), optionally with a draft subject and text',
      tags: ['settings'],
      request: { body: lifecyclePreviewRequestSchema },
      responses: {
        200: {
          description: 'The notice as a member would read it',
          schema: lifecyclePreviewReplySchema,
        },
      },
      errors: ['SETTING_INVALID'],
      handler: async (c, { body, auth }) => c.json(await previewNotice(ctx, auth.userId, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/lifecycle/test',
      auth: 'admin',
      summary: "Send a lifecycle notice's saved texts to yourself on one channel",
      tags: ['settings'],
      request: { body: lifecycleTestRequestSchema },
      responses: { 200: { description: 'Sent', schema: lifecycleTestReplySchema } },
      errors: ['REMINDER_CHANNEL_UNAVAILABLE', 'NOT_CONFIGURED', 'UPSTREAM_UNAVAILABLE'],
      handler: async (c, { body, auth }) => c.json(await sendTestNotice(ctx, auth.userId, body)),
    }),
    // `…/upcoming`, and the issue's name for the same view (`GET …/preview?days=14`; `POST
    // …/preview` renders a template instead). Both stay: the web page calls `preview`.
    ...['upcoming', 'preview'].map((name) =>
      defineRoute({
        method: 'get',
        path: `/api/v1/admin/lifecycle/${name}`,
        auth: 'admin',
        summary: 'The reminders coming up: who gets which, when, on which channel',
        tags: ['settings'],
        request: { query: lifecycleUpcomingQuerySchema },
        responses: {
          200: { description: 'Soonest first', schema: lifecycleUpcomingPageSchema },
        },
        handler: async (c, { query }) => c.json(await upcomingReminders(ctx, query)),
      }),
    ),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/notices',
      auth: 'admin',
      summary: 'What the lifecycle sent, skipped or failed, per member and channel',
      tags: ['settings'],
      request: { query: noticesQuerySchema },
      responses: { 200: { description: 'Newest first', schema: noticesPageSchema } },
      handler: async (c, { query }) => c.json(await listNotices(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/me/notifications',
      auth: 'user',
      summary: 'Whether reminders reach you by e-mail and by the bot',
      tags: ['me'],
      responses: { 200: { description: 'Preferences', schema: notificationPreferencesSchema } },
      handler: async (c, { auth }) => c.json(await readPreferences(ctx, auth.userId)),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/me/notifications',
      auth: 'user',
      summary: 'Choose whether reminders reach you by e-mail and by the bot',
      tags: ['me'],
      request: { body: notificationPreferencesSchema },
      responses: { 200: { description: 'Preferences', schema: notificationPreferencesSchema } },
      handler: async (c, { body, auth, meta }) =>
        c.json(await savePreferences(ctx, auth.userId, body, meta)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/public/unsubscribe',
      auth: 'public',
      summary: "Stop reminder mails with a mail's signed link (RFC 8058 one-click, or the page)",
      tags: ['public'],
      request: { query: unsubscribeQuerySchema },
      responses: { 200: { description: 'Unsubscribed', schema: unsubscribeReplySchema } },
      errors: ['UNSUBSCRIBE_LINK_INVALID'],
      handler: async (c, { query, meta }) => c.json(await unsubscribe(ctx, query.token, meta)),
    }),
  ];
}
