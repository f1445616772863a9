/**
 * `@usher/contracts/values`: the contract's plain values — every `as const` list, the limits,
 * the list-reply shape and the locale rule — with no import at all, so the web bundle and the
 * bot can use them without pulling zod in. The zod schemas build their enums from these lists,
 * so each list is written once.
 */

// ---- Lists and paging (20-api.md §1.4) ----

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** A page of a list reply: `{data, total, page, pageSize}` (the shape `pageOf` validates). */
export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  pageSize: number;
  /** Lists that count at most 10 000 rows (`cappedPageOf`): true when more match. */
  totalCapped?: boolean;
}

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

// ---- Users and accounts (20-api.md §2, §4–§6) ----

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];
export const REGISTERED_VIA = ['bootstrap', 'open', 'invite', 'admin'] as const;
export const REGISTRATION_MODES = ['open', 'invite'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];
export const MEDIA_STATES = [
  'enabled',
  'disabled_expired',
  'disabled_by_admin',
  'unlinked',
] as const;
export type MediaState = (typeof MEDIA_STATES)[number];
export const MEDIA_SERVER_KINDS = ['emby', 'jellyfin'] as const;

export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** `GET /admin/users` sorts and membership filters. */
export const ADMIN_USER_SORTS = ['createdAt', 'expiresAt', 'username', 'lastLoginAt'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const MEMBERSHIP_STATUSES = ['active', 'expired', 'never'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
export const MEDIA_CLEANUP_OUTCOMES = ['deleted', 'queued', 'none'] as const;
export type MediaCleanupOutcome = (typeof MEDIA_CLEANUP_OUTCOMES)[number];
export const BULK_USER_ACTIONS = [
  'extend',
  'activate',
  'deactivate',
  'media_enable',
  'media_disable',
  'delete',
] as const;
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];

// ---- Languages (60-web.md §6.4, 40-bot.md §10.1) ----

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * A language tag (`navigator.languages`, Telegram's `language_code`) as a locale Usher speaks:
 * any `zh*` is Simplified Chinese, any `en*` English, anything else null (the caller's fallback).
 */
export function localeOf(tag: string | null | undefined): Locale | null {
  const lower = (tag ?? '').toLowerCase();
  if (lower.startsWith('zh')) return 'zh-CN';
  if (lower.startsWith('en')) return 'en';
  return null;
}

// ---- Auth, audit, jobs ----

/** Auth levels a route can declare (20-api.md §1.2). */
export const AUTH_LEVELS = ['public', 'user', 'admin', 'internal', 'webhook'] as const;
export type AuthLevel = (typeof AUTH_LEVELS)[number];
export const ACTOR_TYPES = ['user', 'admin', 'bot', 'system', 'webhook'] as const;
export const JOB_RUN_STATUSES = ['running', 'succeeded', 'failed', 'skipped', 'abandoned'] as const;
export const JOB_TRIGGERS = ['schedule', 'manual', 'startup'] as const;

// ---- Redeem codes (20-api.md §5, §6) ----

export const REDEEM_CODE_STATUSES = ['active', 'exhausted', 'expired'] as const;
/** The code list's status filter: a code status, or every code. */
export const CODE_STATUS_FILTERS = [...REDEEM_CODE_STATUSES, 'all'] as const;
export type CodeStatusFilter = (typeof CODE_STATUS_FILTERS)[number];
export const REDEMPTION_KINDS = ['register', 'renew'] as const;
export type RedemptionKind = (typeof REDEMPTION_KINDS)[number];
export const MEDIA_SYNC_OUTCOMES = ['applied', 'queued', 'none'] as const;
export type MediaSyncOutcome = (typeof MEDIA_SYNC_OUTCOMES)[number];

// ---- Plans and payments (10-data.md §3) ----

/**
 * Plan currencies and their minor-unit exponent as Stripe counts them: 0 for jpy (whole yen),
 * 3 for kwd (fils; Stripe wants the last digit 0), 2 otherwise. Prices are stored in minor units.
 */
export const CURRENCY_EXPONENTS = {
  usd: 2,
  eur: 2,
  gbp: 2,
  cny: 2,
  hkd: 2,
  jpy: 0,
  sgd: 2,
  cad: 2,
  aud: 2,
  kwd: 3,
} as const;
export type PlanCurrency = keyof typeof CURRENCY_EXPONENTS;
export const PLAN_CURRENCIES = Object.keys(CURRENCY_EXPONENTS) as [PlanCurrency, ...PlanCurrency[]];
/** Largest plan price in minor units (10-data.md §3). */
export const MAX_PLAN_PRICE = 99_999_999;
export const PAYMENT_STATUSES = ['pending', 'completed', 'expired', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const WEBHOOK_EVENT_STATUSES = ['received', 'processed', 'skipped', 'failed'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** A price in minor units as a major-unit number (`1999` usd → 19.99, `500` jpy → 500). */
export function toMajorUnits(amount: number, currency: string): number {
  const exponent = CURRENCY_EXPONENTS[currency.toLowerCase() as PlanCurrency] ?? 2;
  return amount / 10 ** exponent;
}

// ---- Media requests and metadata (10-data.md §4, 20-api.md §4–§7) ----

export const REQUEST_TYPES = ['MOVIE', 'TV'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
export const REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'INGESTED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
/** Statuses that block another request for the same (type, tmdbId, season). */
export const ACTIVE_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'INGESTED'] as const;
export const REVIEW_SOURCES = ['manual', 'auto_quota', 'auto_admin'] as const;
export type ReviewSource = (typeof REVIEW_SOURCES)[number];
export const REVIEWED_VIA = ['web', 'messenger', 'system'] as const;
export type ReviewedVia = (typeof REVIEWED_VIA)[number];
export const ADMIN_MESSAGE_STATUSES = ['sent', 'send_failed', 'edit_failed', 'deleted'] as const;
export const CREATE_OUTCOMES = ['created', 'auto_approved'] as const;

export const MEDIA_TYPES = ['movie', 'tv'] as const;
export const METADATA_SEARCH_TYPES = ['multi', ...MEDIA_TYPES] as const;
export const METADATA_PAGE_SIZE = 20;

// ---- Notifications to the bot (40-bot.md §2) ----

export const NOTIFY_KINDS = [
  'subscription',
  'registration',
  'payment',
  'ranking',
  'member',
] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
/** Channels of membership notices (settings `REMINDER_CHANNELS`, docs/lifecycle.md). */
export const LIFECYCLE_CHANNELS = ['email', 'messenger', 'webhook'] as const;
export type LifecycleChannel = (typeof LIFECYCLE_CHANNELS)[number];
/** What a `member` notify is about (a direct message to one member). */
/**
 * Bot messages a second when the API sends to many members at once (an announcement): below
 * Telegram's ~30 a second across chats; each member gets one message, far below one a second
 * per chat (docs/lifecycle.md; the bot's bench checks it against the fake's flood control).
 */
export const BULK_MESSAGES_PER_SECOND = 25;
export const MEMBER_NOTICE_KINDS = [
  'membership_reminder',
  'announcement',
  'deletion_warning',
  'inactivity_warning',
  'sharing_suspension',
  'test',
] as const;
export type MemberNoticeKind = (typeof MEMBER_NOTICE_KINDS)[number];
/** Kinds and states of a row of the notices log (`member_notices`, docs/lifecycle.md). */
export const NOTICE_KINDS = [
  'expiry_reminder',
  'announcement',
  'deletion_warning',
  'inactivity_warning',
  'sharing_suspension',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/**
 * The notice kinds whose words the operator writes (settings `<PREFIX>_SUBJECT_<LANG>` and
 * `<PREFIX>_TEMPLATE_<LANG>`, docs/lifecycle.md "Texts"), with the placeholders each one fills
 * in: a template naming any other is refused on save and in the preview.
 */
export const TEMPLATE_NOTICE_KINDS = [
  'expiry_reminder',
  'deletion_warning',
  'inactivity_warning',
] as const satisfies readonly NoticeKind[];
export type TemplateNoticeKind = (typeof TEMPLATE_NOTICE_KINDS)[number];
export const NOTICE_PLACEHOLDERS = {
  expiry_reminder: ['username', 'siteName', 'daysLeft', 'expiresAt', 'renewUrl'],
  deletion_warning: ['username', 'siteName', 'expiresAt', 'deleteAt', 'renewUrl'],
  inactivity_warning: ['username', 'siteName', 'days', 'disableAt'],
} as const satisfies Record<TemplateNoticeKind, readonly string[]>;
const TEMPLATE_PREFIX = {
  expiry_reminder: 'REMINDER',
  deletion_warning: 'DELETION_WARNING',
  inactivity_warning: 'INACTIVITY_WARNING',
} as const satisfies Record<TemplateNoticeKind, string>;
const TEMPLATE_LANGUAGE = { en: 'EN', 'zh-CN': 'ZH_CN' } as const satisfies Record<Locale, string>;
type TemplateKey<
  K extends TemplateNoticeKind,
  L extends Locale,
  Part extends string,
> = `${(typeof TEMPLATE_PREFIX)[K]}_${Part}_${(typeof TEMPLATE_LANGUAGE)[L]}`;

/** The setting keys of one kind's subject and text in one language (`REMINDER_SUBJECT_ZH_CN`). */
export function noticeTemplateKeys<K extends TemplateNoticeKind, L extends Locale>(
  kind: K,
  locale: L,
): { subject: TemplateKey<K, L, 'SUBJECT'>; text: TemplateKey<K, L, 'TEMPLATE'> } {
  const [prefix, language] = [TEMPLATE_PREFIX[kind], TEMPLATE_LANGUAGE[locale]];
  return {
    subject: `${prefix}_SUBJECT_${language}` as TemplateKey<K, L, 'SUBJECT'>,
    text: `${prefix}_TEMPLATE_${language}` as TemplateKey<K, L, 'TEMPLATE'>,
  };
}
export const NOTICE_STATUSES = ['sending', 'sent', 'failed', 'skipped'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
/** Who an announcement goes to, and the channels besides the console. */
export const ANNOUNCEMENT_AUDIENCES = ['all', 'active', 'expiring', 'expired'] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];
export const ANNOUNCEMENT_CHANNELS = ['email', 'messenger'] as const;
export const SUBSCRIPTION_EVENTS = [
  'created',
  'auto_approved',
  'approved',
  'rejected',
  'ingested',
] as const;
export type SubscriptionEvent = (typeof SUBSCRIPTION_EVENTS)[number];
export const RANKING_PERIODS = ['daily', 'weekly'] as const;
export const DELIVERY_TARGETS = [
  'approver',
  'requester',
  'adminCopy',
  'adminChat',
  'groupChat',
  'member',
] as const;
export const DELIVERY_STATUSES = [
  'sent',
  'edited',
  'unchanged',
  'gone',
  'blocked',
  'failed',
  'skipped',
] as const;

// ---- Account sharing (docs/sharing.md) ----
export const SHARING_RULES = ['streams', 'networks', 'devices', 'travel'] as const;
export type SharingRuleName = (typeof SHARING_RULES)[number];
export const SHARING_ACTIONS = ['notify', 'message', 'stop', 'suspend'] as const;
export type SharingActionName = (typeof SHARING_ACTIONS)[number];
export const SHARING_EVENT_STATUSES = ['open', 'actioned', 'dismissed'] as const;
export type SharingEventStatusName = (typeof SHARING_EVENT_STATUSES)[number];

// ---- Settings (30-settings.md) ----

export const SETTING_GROUPS = [
  'general',
  'media_server',
  'metadata',
  'automation',
  'email',
  'payment',
  'messenger',
  'schedule',
  'lifecycle',
  'sharing',
  'sso',
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

// ---- Errors (20-api.md §1.5) ----

/**
 * Every error code the API can answer with, and the HTTP status it travels with.
 * One table so the API's error handler, the OpenAPI document and the web's translations agree.
 * Later capabilities add their codes here (20-api.md lists them per route).
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  WEBHOOK_SIGNATURE_INVALID: 400,
  WEBHOOK_PAYLOAD_INVALID: 400,
  SETTING_INVALID: 400,
  /** The single sign-on could not be completed: state, code or ID token refused (details.reason). */
  SSO_STATE_INVALID: 400,
  UNAUTHENTICATED: 401,
  TOKEN_INVALID: 401,
  TOKEN_REVOKED: 401,
  INTERNAL_AUTH_FAILED: 401,
  INVALID_CREDENTIALS: 401,
  WEBHOOK_TOKEN_INVALID: 401,
  FORBIDDEN: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  NOT_AN_APPROVER: 403,
  ACCOUNT_DISABLED: 403,
  /** No account is linked to this sign-in and new accounts are not created (docs/sso.md). */
  SSO_REGISTRATION_CLOSED: 403,
  /** `OIDC_PASSWORD_LOGIN=false`: only the bootstrap admin still signs in with a password. */
  PASSWORD_LOGIN_DISABLED: 403,
  NOT_FOUND: 404,
  SSO_DISABLED: 404,
  IDENTITY_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  MEDIA_USER_NOT_FOUND: 404,
  REDEEM_CODE_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  PAYMENT_NOT_FOUND: 404,
  MESSENGER_NOT_BOUND: 404,
  REQUEST_NOT_FOUND: 404,
  METADATA_NOT_FOUND: 404,
  PENDING_ACTION_NOT_FOUND: 404,
  CANDIDATE_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  JOB_RUN_NOT_FOUND: 404,
  BACKUP_NOT_FOUND: 404,
  SETTING_GROUP_NOT_FOUND: 404,
  SETTING_TEST_UNSUPPORTED: 404,
  POSTER_NOT_FOUND: 404,
  DEVICE_NOT_FOUND: 404,
  BLACKLIST_ENTRY_NOT_FOUND: 404,
  LIBRARY_NOT_FOUND: 404,
  QUALITY_GROUP_NOT_FOUND: 404,
  RANKING_NOT_FOUND: 404,
  SERIES_NOT_TRACKED: 404,
  SHARING_EVENT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  JOB_RUNNING: 409,
  /** The sharing event was already actioned or dismissed (docs/sharing.md). */
  SHARING_EVENT_CLOSED: 409,
  BLACKLIST_ENTRY_EXISTS: 409,
  SCAN_IN_PROGRESS: 409,
  REDEEM_CODE_ALREADY_USED: 409,
  REQUEST_EXISTS: 409,
  ALREADY_IN_LIBRARY: 409,
  REQUEST_STATE_CHANGED: 409,
  NOT_REDISPATCHABLE: 409,
  MEDIA_USER_ALREADY_BOUND: 409,
  USERNAME_TAKEN: 409,
  EMAIL_TAKEN: 409,
  MESSENGER_ALREADY_BOUND: 409,
  MESSENGER_ID_IN_USE: 409,
  /** The provider account is already linked to another Usher account. */
  SSO_IDENTITY_TAKEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CURRENT_PASSWORD_INVALID: 422,
  PASSWORD_UNCHANGED: 422,
  REDEEM_CODE_INVALID: 422,
  ACCOUNT_NEVER_EXPIRES: 422,
  ACCOUNT_NOT_RENEWABLE: 422,
  MAX_USES_BELOW_USED: 422,
  /** A plan order that is not every plan on sale exactly once (details say which ids). */
  PLAN_ORDER_MISMATCH: 422,
  MEDIA_ACCOUNT_UNLINKED: 422,
  MEDIA_ACCESS_REQUIRED: 422,
  REQUEST_LIMIT_REACHED: 422,
  NOT_IN_LIBRARY: 422,
  SEASON_REQUIRED: 422,
  LAST_ADMIN: 422,
  CANNOT_MODIFY_SELF: 422,
  UPSTREAM_REJECTED: 422,
  REGISTRATION_CODE_REQUIRED: 422,
  EMAIL_DOMAIN_NOT_ALLOWED: 422,
  EMAIL_CODE_REQUIRED: 422,
  EMAIL_CODE_INVALID: 422,
  EMAIL_VERIFICATION_OFF: 422,
  EMAIL_UNCHANGED: 422,
  /** "Send me a test" on a channel the admin cannot be reached on (no address, not linked). */
  REMINDER_CHANNEL_UNAVAILABLE: 422,
  /** An unsubscribe link that was not signed by this server (altered or cut short). */
  UNSUBSCRIBE_LINK_INVALID: 400,
  BIND_CODE_INVALID: 422,
  SETTING_READ_ONLY: 422,
  SETTING_UNKNOWN_KEY: 422,
  /** A test or save moves a secret's destination without the secret (details.keys). */
  SECRET_REENTRY_REQUIRED: 422,
  /** Unlinking would leave the account without any way to sign in. */
  LAST_SIGN_IN_METHOD: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_AUTH_FAILED: 502,
  NOT_CONFIGURED: 503,
  NOT_SUPPORTED: 503,
  SERVICE_UNAVAILABLE: 503,
  /** The identity provider did not answer (down, slow, broken discovery). */
  SSO_UNAVAILABLE: 503,
  /** The database cannot be reached (outage, restart): retry after `Retry-After`. */
  DATABASE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** Which external system an upstream or configuration error is about (20-api.md §1.5). */
export const UPSTREAM_SYSTEMS = [
  'media_server',
  'webhook',
  'tmdb',
  'automation',
  'smtp',
  'stripe',
  'playback_reporting',
  'bot',
] as const;
export type UpstreamSystem = (typeof UPSTREAM_SYSTEMS)[number];

// ---- Devices and media quality (20-api.md §6) ----

export const DEVICE_ACTION_KINDS = [
  'logout',
  'blacklist_add',
  'blacklist_remove',
  'enforce_blacklist',
] as const;
export type DeviceActionKind = (typeof DEVICE_ACTION_KINDS)[number];

export const QUALITY_STATES = ['fresh', 'stale', 'missing'] as const;
export type QualityState = (typeof QUALITY_STATES)[number];
export const QUALITY_RESOLUTIONS = ['uhd4k', 'fhd1080', 'hd720', 'sd', 'unknown'] as const;
export type QualityResolution = (typeof QUALITY_RESOLUTIONS)[number];
export const QUALITY_CODECS = ['h264', 'hevc', 'av1', 'other'] as const;
export const QUALITY_HDR = ['sdr', 'hdr10', 'hdr10plus', 'hlg', 'dolbyVision'] as const;

// ---- Watch calendar (10-data.md §10, derived on read) ----

/** `ready` = in the library; else by air date against today in `SCHEDULE_TIMEZONE`. */
export const CALENDAR_STATUSES = ['ready', 'today', 'upcoming', 'missing'] as const;
export type CalendarStatus = (typeof CALENDAR_STATUSES)[number];
export const CALENDAR_SCOPES = ['global', 'following'] as const;
export type CalendarScope = (typeof CALENDAR_SCOPES)[number];
/** Week offsets a calendar sync may refresh (20-api.md `POST /admin/calendar/sync`). */
export const CALENDAR_SYNC_OFFSETS = [-1, 0, 1] as const;
