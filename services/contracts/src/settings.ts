import { z } from 'zod';
import { isoInstant, uuidSchema } from './common.js';

export const SETTING_GROUPS = [
  'general',
  'media_server',
  'metadata',
  'automation',
  'email',
  'payment',
  'messenger',
  'schedule',
  'deployment',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

export const SETTING_TYPES = [
  'string',
  'text',
  'secret',
  'boolean',
  'integer',
  'url',
  'enum',
  'list',
  'cron',
  'timezone',
  'chat_id',
] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

export const SETTING_SOURCES = ['db', 'env', 'default', 'unset'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];
export const SETTING_STATES = ['ok', 'invalid', 'undecryptable', 'plaintext'] as const;
export type SettingState = (typeof SETTING_STATES)[number];
export const SETTING_APPLY = ['live', 'rearm', 'restart'] as const;

/** A setting's effective value on the wire: typed per `SettingType`. */
export const settingValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
]);
export type SettingValue = z.infer<typeof settingValueSchema>;

/** One setting as `GET /admin/settings` shows it (30-settings.md §2). */
export const settingItemSchema = z
  .object({
    key: z.string(),
    group: z.enum(SETTING_GROUPS),
    label: z.string(),
    description: z.string(),
    type: z.enum(SETTING_TYPES),
    options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
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
    masked: z.string().optional(),
    default: settingValueSchema.nullable().optional(),
    fallbackHint: z.string().optional(),
    state: z.enum(SETTING_STATES),
    stateReason: z.string().optional(),
    updatedAt: isoInstant.optional(),
    updatedBy: z.object({ id: uuidSchema, username: z.string() }).optional(),
  })
  .meta({ id: 'SettingItem' });
export type SettingItem = z.infer<typeof settingItemSchema>;

export const settingsListSchema = z.object({
  groups: z.array(
    z.object({
      group: z.enum(SETTING_GROUPS),
      label: z.string(),
      testable: z.boolean(),
      items: z.array(settingItemSchema),
    }),
  ),
  encryption: z.object({ keyId: z.string(), undecryptable: z.array(z.string()) }),
});

export const settingsUpdateRequestSchema = z.strictObject({
  values: z.record(z.string(), settingValueSchema.nullable()),
});

export const settingsGroupReplySchema = z.object({
  group: z.enum(SETTING_GROUPS),
  items: z.array(settingItemSchema),
});

/** `GET /internal/settings` (20-api.md §7): non-sensitive values the bot needs. */
export const internalSettingsSchema = z.object({
  adminChatId: z.string().nullable(),
  groupChatId: z.string().nullable(),
  approverIds: z.array(z.string()),
  approverFallback: z.enum(['none', 'admin_user', 'admin_group']),
  welcomeTemplate: z.string().nullable(),
  groupLink: z.string().nullable(),
  timezone: z.string(),
  tmdbImageBase: z.string(),
  webUrl: z.string().nullable(),
  siteName: z.string(),
});
export type InternalSettings = z.infer<typeof internalSettingsSchema>;

/** Outcome of one connection-test check (30-settings.md §6). */
export const SETTING_CHECK_STATUSES = ['ok', 'warn', 'fail'] as const;
export type SettingCheckStatus = (typeof SETTING_CHECK_STATUSES)[number];
/**
 * Why a check did not pass, as a code the web translates (the `message` keeps the details in
 * English): the upstream failure kinds of 50-integrations.md §0, plus the test's own deadline.
 */
export const SETTING_CHECK_REASONS = [
  'timeout',
  'network',
  'tls',
  'auth',
  'not_found',
  'rejected',
  'http_4xx',
  'http_5xx',
  'invalid_response',
  'not_configured',
  'deadline',
  'not_run',
] as const;
export type SettingCheckReason = (typeof SETTING_CHECK_REASONS)[number];

/**
 * `POST /admin/settings/:group/test`: an optional draft overlaid on the stored values (never
 * saved; a sensitive key left out keeps its stored value), and for the email group an address
 * that receives a test message.
 */
export const settingsTestRequestSchema = z.strictObject({
  values: z.record(z.string(), settingValueSchema.nullable()).optional(),
  to: z.email().max(254).optional(),
});
export type SettingsTestRequest = z.infer<typeof settingsTestRequestSchema>;

export const settingCheckSchema = z
  .object({
    /** What was checked: `tmdb`, `smtp`, `stripe`, `movies`, `preview`, … */
    target: z.string(),
    status: z.enum(SETTING_CHECK_STATUSES),
    /** Human-readable result; never contains a secret. */
    message: z.string(),
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
