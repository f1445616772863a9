import {
  lifecyclePreviewReplySchema,
  lifecyclePreviewRequestSchema,
  lifecycleTestReplySchema,
  lifecycleTestRequestSchema,
} from '@usher/contracts';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { previewReminder, sendTestReminder } from './service.js';

export function lifecycleRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/lifecycle/preview',
      auth: 'admin',
      summary: 'Render the membership reminder, optionally with a draft subject and text',
      tags: ['settings'],
      request: { body: lifecyclePreviewRequestSchema },
      responses: {
        200: {
          description: 'The reminder as a member would read it',
          schema: lifecyclePreviewReplySchema,
        },
      },
      errors: ['SETTING_INVALID'],
      handler: async (c, { body, auth }) => c.json(await previewReminder(ctx, auth.userId, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/lifecycle/test',
      auth: 'admin',
      summary: 'Send the saved membership reminder to yourself on one channel',
      tags: ['settings'],
      request: { body: lifecycleTestRequestSchema },
      responses: { 200: { description: 'Sent', schema: lifecycleTestReplySchema } },
      errors: ['REMINDER_CHANNEL_UNAVAILABLE', 'NOT_CONFIGURED', 'UPSTREAM_UNAVAILABLE'],
      handler: async (c, { body, auth }) => c.json(await sendTestReminder(ctx, auth.userId, body)),
    }),
  ];
}
