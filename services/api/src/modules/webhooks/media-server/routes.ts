import { mediaServerWebhookReplySchema, safeString } from '@usher/contracts';
import { z } from 'zod';
import { AppError } from '../../../errors/app-error.js';
import { secretsEqual } from '../../../http/guards.js';
import { defineRoute, type RouteDef } from '../../../http/route.js';
import type { ModuleContext } from '../../context.js';
import { decodeWebhookBody } from './decode.js';
import { normaliseEvent } from './normalise.js';
import { handleNewItem } from './service.js';

/** `POST /webhooks/media-server` (20-api.md §4, §8.5). */
export function mediaServerWebhookRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/media-server',
      auth: 'webhook',
      summary:
        'Emby library.new / Jellyfin ItemAdded: marks approved requests ingested. Token as ' +
        '?token= or X-Usher-Webhook-Token; body JSON, multipart field "data", or JSON as text/plain',
      tags: ['webhooks'],
      // The only query parameter is the token (the header is the other way to send it).
      request: { query: z.strictObject({ token: safeString().max(256).optional() }) },
      responses: { 200: { description: 'Received', schema: mediaServerWebhookReplySchema } },
      errors: [
        'WEBHOOK_TOKEN_INVALID',
        'WEBHOOK_PAYLOAD_INVALID',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'NOT_CONFIGURED',
      ],
      handler: async (c, { meta, query }) => {
        const expected = await ctx.settings.store.getString('MEDIA_SERVER_WEBHOOK_TOKEN');
        if (!expected) {
          throw new AppError('NOT_CONFIGURED', 'The media-server webhook is switched off', {
            details: { system: 'webhook' },
          });
        }
        const given = query.token ?? c.req.header('x-usher-webhook-token') ?? '';
        if (!secretsEqual(given, expected)) {
          throw new AppError('WEBHOOK_TOKEN_INVALID', 'Missing or wrong webhook token');
        }
        const event = normaliseEvent(await decodeWebhookBody(c));
        return c.json(await handleNewItem(ctx, event, meta.requestId));
      },
    }),
  ];
}
