import { z } from 'zod';
import { isoInstant, safeString } from './common.js';
import { LIFECYCLE_CHANNELS, LOCALES } from './values.js';

/**
 * Admin tools of the membership lifecycle (docs/lifecycle.md): the preview of a reminder and
 * "send me a test". Both use the calling admin as the sample member.
 */

/** `POST /admin/lifecycle/preview`: a draft subject/text overlays the saved template. */
export const lifecyclePreviewRequestSchema = z
  .strictObject({
    locale: z.enum(LOCALES),
    subject: safeString().optional(),
    text: safeString().optional(),
  })
  .meta({ id: 'LifecyclePreviewRequest' });
export type LifecyclePreviewRequest = z.infer<typeof lifecyclePreviewRequestSchema>;

export const lifecyclePreviewReplySchema = z
  .object({
    kind: z.literal('reminder'),
    locale: z.enum(LOCALES),
    subject: z.string(),
    text: z.string(),
    /** The values the placeholders were filled with. */
    sample: z.object({
      username: z.string(),
      siteName: z.string(),
      daysLeft: z.number().int().min(1),
      expiresAt: isoInstant,
      renewUrl: z.string(),
    }),
  })
  .meta({ id: 'LifecyclePreview' });
export type LifecyclePreview = z.infer<typeof lifecyclePreviewReplySchema>;

/** `POST /admin/lifecycle/test`: the saved reminder, sent to the calling admin on one channel. */
export const lifecycleTestRequestSchema = z
  .strictObject({
    channel: z.enum(LIFECYCLE_CHANNELS),
    locale: z.enum(LOCALES).optional(),
  })
  .meta({ id: 'LifecycleTestRequest' });
export type LifecycleTestRequest = z.infer<typeof lifecycleTestRequestSchema>;

export const lifecycleTestReplySchema = z
  .object({
    channel: z.enum(LIFECYCLE_CHANNELS),
    locale: z.enum(LOCALES),
    status: z.literal('sent'),
  })
  .meta({ id: 'LifecycleTestReply' });
export type LifecycleTestReply = z.infer<typeof lifecycleTestReplySchema>;
