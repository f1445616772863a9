import { z } from 'zod';
import {
  SETTING_APPLY,
  SETTING_CHECK_REASONS,
  SETTING_CHECK_STATUSES,
  SETTING_GROUPS,
  SETTING_SOURCES,
  SETTING_STATES,
  SETTING_TYPES,
} from './values.js';
import { isoInstant, uuidSchema, safeString } from './common.js';

/** A setting's effective value on the wire: typed per `SettingType`. */
export const settingValueSchema = z.union([
  safeString(),
  z.number(),
  z.boolean(),
  z.array(safeString()),
]);
export type SettingValue = z.infer<typeof settingValueSchema>;

/** One setting as `GET /admin/settings` shows it (30-settings.md §2). */
export const settingItemSchema = z
  .object({
    key: safeString(),
    group: z.enum(SETTING_GROUPS),
    label: safeString(),
    description: safeString(),
    type: z.enum(SETTING_TYPES),
    options: z.array(z.object({ value: safeString(), label: safeString() })).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    multiline: z.boolean(),
    sensitive: z.boolean(),
    editable: z.boolean(),
    allowEmpty: z.boolean(),
    apply: z.enum(SETTING_APPLY),
    source: z.enum(SETTING_SOURCES),
    hasValue: z.boolean(),
    value: settingValueSchema.nullable().optional(),
    masked: safeString().optional(),
    default: settingValueSchema.nullable().optional(),
    fallbackHint: safeString().optional(),
    state: z.enum(SETTING_STATES),
    stateReason: safeString().optional(),
    updatedAt: isoInstant.optional(),
    updatedBy: z.object({ id: uuidSchema, username: safeString() }).optional(),
  })
  .meta({ id: 'SettingItem' });
export type SettingItem = z.infer<typeof settingItemSchema>;

export const settingsListSchema = z.object({
  groups: z.array(
    z.object({
      group: z.enum(SETTING_GROUPS),
      label: safeString(),
      testable: z.boolean(),
      items: z.array(settingItemSchema),
    }),
  ),
  encryption: z.object({ keyId: safeString(), undecryptable: z.array(safeString()) }),
});

export const settingsUpdateRequestSchema = z.strictObject({
  values: z.record(safeString(), settingValueSchema.nullable()),
});

export const settingsGroupReplySchema = z.object({
  group: z.enum(SETTING_GROUPS),
  items: z.array(settingItemSchema),
});

/** `GET /internal/settings` (20-api.md §7): non-sensitive values the bot needs. */
export const internalSettingsSchema = z.object({
  adminChatId: safeString().nullable(),
  groupChatId: safeString().nullable(),
  approverIds: z.array(safeString()),
  approverFallback: z.enum(['none', 'admin_user', 'admin_group']),
  welcomeTemplate: safeString().nullable(),
  groupLink: safeString().nullable(),
  timezone: safeString(),
  tmdbImageBase: safeString(),
  webUrl: safeString().nullable(),
  siteName: safeString(),
});
export type InternalSettings = z.infer<typeof internalSettingsSchema>;

/**
 * `POST /admin/settings/:group/test`: an optional draft overlaid on the stored values (never
 * saved; a sensitive key left out keeps its stored value), and for the email group an address
 * that receives a test message.
 */
export const settingsTestRequestSchema = z.strictObject({
  values: z.record(safeString(), settingValueSchema.nullable()).optional(),
  to: z.email().max(254).optional(),
});
export type SettingsTestRequest = z.infer<typeof settingsTestRequestSchema>;

export const settingCheckSchema = z
  .object({
    /** What was checked: `tmdb`, `smtp`, `stripe`, `movies`, `preview`, … */
    target: safeString(),
    status: z.enum(SETTING_CHECK_STATUSES),
    /** Human-readable result; never contains a secret. */
    message: safeString(),
    /** Set when the status is not `ok` and the cause is known. */
    reason: z.enum(SETTING_CHECK_REASONS).optional(),
    latencyMs: z.number().int().min(0),
  })
  .meta({ id: 'SettingCheck' });
export type SettingCheck = z.infer<typeof settingCheckSchema>;

/** Failures are data: `ok` is false when any check failed, and the status is still 200. */
export const settingsTestReplySchema = z.object({
  ok: z.boolean(),
  checks: z.array(settingCheckSchema),
});
export type SettingsTestReply = z.infer<typeof settingsTestReplySchema>;
