import {
  NOTICE_PLACEHOLDERS,
  noticeTemplateKeys,
  type TemplateNoticeKind,
} from '@usher/contracts/values';
import { unknownPlaceholder } from './placeholders.js';
import type { SettingDefinition, ValueOfDefinition } from './types.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** One language's words of a lifecycle notice: the mail subject / webhook title and the text. */
interface NoticeWords {
  subject: string;
  text: string;
}

/**
 * The four settings of a lifecycle notice kind's texts (docs/lifecycle.md "Texts"):
 * `<PREFIX>_SUBJECT_EN`, `<PREFIX>_TEMPLATE_EN`, `<PREFIX>_SUBJECT_ZH_CN`, `<PREFIX>_TEMPLATE_ZH_CN`
 * (`noticeTemplateKeys`),
 * each checked on save against the placeholders the kind fills in (`modules/lifecycle/messages.ts`).
 */
const noticeTemplates = <const K extends TemplateNoticeKind>(
  kind: K,
  name: string,
  defaults: { en: NoticeWords; zhCN: NoticeWords },
) => {
  const check = (value: unknown) => unknownPlaceholder(String(value), NOTICE_PLACEHOLDERS[kind]);
  const help = `Plain text; ${NOTICE_PLACEHOLDERS[kind].map((p) => `{${p}}`).join(', ')}`;
  const subject = <const K extends string>(key: K, language: string, value: string) =>
    ({
      key,
      group: 'lifecycle',
      type: 'string',
      label: `${name} subject (${language})`,
      description: `Mail subject, webhook title. ${help}`,
      default: value,
      maxLength: 200,
      check,
    }) as const satisfies SettingDefinition;
  const text = <const K extends string>(key: K, language: string, value: string) =>
    ({
      key,
      group: 'lifecycle',
      type: 'text',
      label: `${name} message (${language})`,
      description: help,
      default: value,
      multiline: true,
      maxLength: 2000,
      check,
    }) as const satisfies SettingDefinition;
  const [en, zhCN] = [noticeTemplateKeys(kind, 'en'), noticeTemplateKeys(kind, 'zh-CN')];
  return [
    subject(en.subject, 'English', defaults.en.subject),
    text(en.text, 'English', defaults.en.text),
    subject(zhCN.subject, 'Simplified Chinese', defaults.zhCN.subject),
    text(zhCN.text, 'Simplified Chinese', defaults.zhCN.text),
  ] as const;
};

/** The issuer as typed (a trailing slash is part of it): absolute http(s), no query or fragment. */
function checkIssuer(value: unknown): string | null {
  const text = String(value);
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use http:// or https://';
  if (url.username || url.password || url.search || url.hash || /[?#]/.test(text)) {
    return 'must not contain user info, a query or a fragment';
  }
  return null;
}

const CRON = <const K extends string>(key: K, def: string, label: string, description: string) =>
  ({
    key,
    group: 'schedule',
    type: 'cron',
    label,
    description,
    default: def,
    apply: 'rearm',
  }) as const satisfies SettingDefinition;

/**
 * Every runtime setting of 30-settings.md §4, in display order. Deployment variables (§4.9) are
 * read-only and built separately from the process configuration. Kept `as const` so the keys and
 * their types are known to the compiler (`SettingKey`, `SettingValueOf`); list defaults are
 * written `[] as string[]` because a `readonly []` would not be a `SettingValue`.
 */
const DEFINITIONS = [
  // §4.1 general
  {
    key: 'SITE_NAME',
    group: 'general',
    type: 'string',
    label: 'Site name',
    description: 'Shown in the web app, mails and bot messages',
    default: 'Usher',
    minLength: 1,
    maxLength: 60,
  },
  {
    key: 'PUBLIC_WEB_URL',
    group: 'general',
    type: 'url',
    label: 'Public web address',
    description:
      'Public address of the web app; used for mail links, Stripe return URLs and the webhook URL shown to admins',
    default: '',
  },
  {
    key: 'LOG_LEVEL',
    group: 'general',
    type: 'enum',
    label: 'Log level',
    description: 'Applied to the API logger at once',
    default: 'info',
    options: LOG_LEVELS,
  },
  {
    key: 'REGISTRATION_MODE',
    group: 'general',
    type: 'enum',
    label: 'Registration mode',
    description:
      'open: anyone may sign up with a trial; invite: a valid redeem code is required and grants its days',
    default: 'invite',
    options: ['open', 'invite'],
  },
  {
    key: 'DEFAULT_TRIAL_DAYS',
    group: 'general',
    type: 'integer',
    label: 'Trial days',
    description: 'Open mode only; 0 = no trial (the account starts expired)',
    default: 7,
    min: 0,
    max: 3650,
  },
  {
    key: 'EMAIL_VERIFICATION',
    group: 'general',
    type: 'boolean',
    label: 'Verify email at registration',
    description: 'Require an emailed code; effective only when email is configured',
    default: false,
  },
  {
    key: 'REGISTRATION_EMAIL_DOMAINS',
    group: 'general',
    type: 'list',
    label: 'Allowed email domains',
    description: 'Exact host names; empty = any domain; also applies to email changes',
    default: [] as string[],
    pattern: /^[a-z0-9.-]+\.[a-z0-9-]{2,}$/,
    patternHint: 'lowercase host names (punycode for IDN)',
    maxItems: 100,
  },
  // §4.2 media_server
  {
    key: 'MEDIA_SERVER_KIND',
    group: 'media_server',
    type: 'enum',
    label: 'Server kind',
    description: 'Selects the adapter (paths, auth headers, bodies)',
    default: 'emby',
    options: ['emby', 'jellyfin'],
  },
  {
    key: 'MEDIA_SERVER_URL',
    group: 'media_server',
    type: 'url',
    label: 'Server URL',
    description: "Internal base URL the API calls (Emby's /emby prefix is added automatically)",
    default: '',
  },
  {
    key: 'MEDIA_SERVER_API_KEY',
    group: 'media_server',
    type: 'secret',
    label: 'API key',
    description: 'Server API key with admin rights',
    default: '',
    sensitive: true,
    boundTo: ['MEDIA_SERVER_URL'],
    pattern: /^[A-Za-z0-9]{16,128}$/,
    patternHint: '16–128 letters and digits',
  },
  {
    key: 'MEDIA_SERVER_PUBLIC_URL',
    group: 'media_server',
    type: 'url',
    label: 'Public server URL',
    description: 'Address shown to members for their apps; empty → the server URL',
    default: '',
  },
  {
    key: 'MEDIA_SERVER_WEBHOOK_TOKEN',
    group: 'media_server',
    type: 'secret',
    label: 'Webhook token',
    description: 'Token of the media-server webhook; empty turns the webhook off',
    default: '',
    sensitive: true,
    allowEmpty: true,
    pattern: /^[A-Za-z0-9_-]{32,128}$/,
    patternHint: '32–128 characters A-Z a-z 0-9 _ -',
    fallbackHint: 'Generated at first start unless set in the environment',
  },
  {
    key: 'MEDIA_SERVER_TIMEOUT_SECONDS',
    group: 'media_server',
    type: 'integer',
    label: 'Timeout (seconds)',
    description: 'Per call; long scans and playback queries use three times this',
    default: 10,
    min: 2,
    max: 60,
  },
  {
    key: 'MEDIA_SERVER_TIMEZONE',
    group: 'media_server',
    type: 'timezone',
    label: 'Playback plugin timezone',
    description:
      'Zone the Playback Reporting plugin writes local times in; empty → the schedule timezone',
    default: '',
  },
  {
    key: 'MEMBER_LIBRARY_IDS',
    group: 'media_server',
    type: 'list',
    label: 'Member libraries',
    description: 'Libraries a new member may see; empty = all',
    default: [] as string[],
    pattern: /^[A-Za-z0-9-]{1,64}$/,
    patternHint: 'library ids',
    maxItems: 100,
  },
  {
    key: 'MEMBER_STREAM_LIMIT',
    group: 'media_server',
    type: 'integer',
    label: 'Simultaneous streams',
    description: '0 = unlimited',
    default: 3,
    min: 0,
    max: 20,
  },
  {
    key: 'MEMBER_ALLOW_DOWNLOADS',
    group: 'media_server',
    type: 'boolean',
    label: 'Allow downloads',
    description: 'EnableContentDownloading',
    default: false,
  },
  {
    key: 'MEMBER_ALLOW_VIDEO_TRANSCODING',
    group: 'media_server',
    type: 'boolean',
    label: 'Allow video transcoding',
    description: 'EnableVideoPlaybackTranscoding',
    default: false,
  },
  {
    key: 'MEMBER_ALLOW_AUDIO_TRANSCODING',
    group: 'media_server',
    type: 'boolean',
    label: 'Allow audio transcoding',
    description: 'EnableAudioPlaybackTranscoding',
    default: true,
  },
  {
    key: 'MEMBER_ALLOW_REMUXING',
    group: 'media_server',
    type: 'boolean',
    label: 'Allow remuxing',
    description: 'EnablePlaybackRemuxing',
    default: true,
  },
  {
    key: 'MEMBER_ALLOW_REMOTE_ACCESS',
    group: 'media_server',
    type: 'boolean',
    label: 'Allow remote access',
    description: 'EnableRemoteAccess',
    default: true,
  },
  // §4.3 metadata
  {
    key: 'TMDB_API_KEY',
    group: 'metadata',
    type: 'secret',
    label: 'TMDB API key',
    description: 'A v3 key (32 hex) or a v4 read token (starts with eyJ)',
    default: '',
    sensitive: true,
    boundTo: ['TMDB_API_BASE'],
    pattern: /^([0-9a-f]{32}|eyJ[A-Za-z0-9._-]+)$/,
    patternHint: '32 hex characters or a token starting with eyJ',
  },
  {
    key: 'TMDB_LANGUAGE',
    group: 'metadata',
    type: 'string',
    label: 'Language',
    description: 'Titles and overviews',
    default: 'en-US',
    pattern: /^[a-z]{2}(-[A-Z]{2})?$/,
    patternHint: 'e.g. en-US or zh-CN',
  },
  {
    key: 'TMDB_INCLUDE_ADULT',
    group: 'metadata',
    type: 'boolean',
    label: 'Include adult titles',
    description: '',
    default: false,
  },
  {
    key: 'TMDB_API_BASE',
    group: 'metadata',
    type: 'url',
    label: 'API base',
    description: 'Override for tests and the demo',
    default: 'https://api.themoviedb.org/3',
  },
  {
    key: 'TMDB_IMAGE_BASE',
    group: 'metadata',
    type: 'url',
    label: 'Image base',
    description: 'Poster URLs = base + /w500 + path; also given to the bot',
    default: 'https://image.tmdb.org/t/p',
  },
  {
    key: 'METADATA_CACHE_HOURS',
    group: 'metadata',
    type: 'integer',
    label: 'Search cache (hours)',
    description: 'Lifetime of cached searches',
    default: 6,
    min: 1,
    max: 168,
  },
  // §4.4 automation
  {
    key: 'AUTOMATION_KIND',
    group: 'automation',
    type: 'enum',
    label: 'Automation tool',
    description:
      'moviepilot: subscribe, manual search and dispatch; servarr: Radarr/Sonarr-compatible add-and-monitor',
    default: 'moviepilot',
    options: ['moviepilot', 'servarr'],
  },
  {
    key: 'AUTOMATION_URL',
    group: 'automation',
    type: 'url',
    label: 'Tool URL',
    description: 'Empty = no automation (approved requests wait for manual action)',
    default: '',
  },
  {
    key: 'MOVIEPILOT_USERNAME',
    group: 'automation',
    type: 'string',
    label: 'MoviePilot user',
    description: 'A dedicated account without 2FA',
    default: '',
    maxLength: 100,
  },
  {
    key: 'MOVIEPILOT_PASSWORD',
    group: 'automation',
    type: 'secret',
    label: 'MoviePilot password',
    description: '',
    default: '',
    sensitive: true,
    boundTo: ['AUTOMATION_URL', 'MOVIEPILOT_USERNAME'],
    maxLength: 4096,
  },
  {
    key: 'AUTOMATION_API_KEY',
    group: 'automation',
    type: 'secret',
    label: 'API key (servarr)',
    description: 'X-Api-Key of the movie service',
    default: '',
    sensitive: true,
    boundTo: ['AUTOMATION_URL', 'AUTOMATION_SERIES_URL'],
    maxLength: 4096,
  },
  {
    key: 'AUTOMATION_SERIES_URL',
    group: 'automation',
    type: 'url',
    label: 'Series service URL',
    description: 'servarr: a separate series service; empty → the tool URL',
    default: '',
  },
  {
    key: 'AUTOMATION_SERIES_API_KEY',
    group: 'automation',
    type: 'secret',
    label: 'Series API key',
    description: 'Empty → the API key',
    default: '',
    sensitive: true,
    boundTo: ['AUTOMATION_SERIES_URL', 'AUTOMATION_URL'],
    maxLength: 4096,
  },
  {
    key: 'AUTOMATION_QUALITY_PROFILE',
    group: 'automation',
    type: 'string',
    label: 'Quality profile',
    description: 'servarr: profile name; empty → the first listed',
    default: '',
    maxLength: 200,
  },
  {
    key: 'AUTOMATION_ROOT_FOLDER',
    group: 'automation',
    type: 'string',
    label: 'Root folder',
    description: 'servarr: root folder path; empty → the first listed',
    default: '',
    maxLength: 1000,
  },
  {
    key: 'AUTOMATION_AUTO_DISPATCH',
    group: 'automation',
    type: 'boolean',
    label: 'Send approved requests automatically',
    description: '',
    default: true,
  },
  {
    key: 'REQUEST_AUTO_APPROVE_DAILY_LIMIT',
    group: 'automation',
    type: 'integer',
    label: 'Auto-approved requests per day',
    description:
      "A member's first N requests per business day are approved without review; 0 = review all",
    default: 0,
    min: 0,
    max: 100,
  },
  {
    key: 'REQUEST_ADMIN_AUTO_APPROVE',
    group: 'automation',
    type: 'boolean',
    label: 'Approve admin requests at once',
    description: '',
    default: true,
  },
  {
    key: 'REQUEST_MAX_PENDING_PER_USER',
    group: 'automation',
    type: 'integer',
    label: 'Pending requests per member',
    description: '',
    default: 10,
    min: 1,
    max: 100,
  },
  // §4.5 email
  {
    key: 'SMTP_HOST',
    group: 'email',
    type: 'string',
    label: 'SMTP host',
    description: 'Host name or IP',
    default: '',
    maxLength: 253,
  },
  {
    key: 'SMTP_PORT',
    group: 'email',
    type: 'integer',
    label: 'SMTP port',
    description: '',
    default: 587,
    min: 1,
    max: 65535,
  },
  {
    key: 'SMTP_SECURITY',
    group: 'email',
    type: 'enum',
    label: 'Security',
    description:
      'starttls (upgrade required), tls (implicit, usually 465), none (local relays and tests only)',
    default: 'starttls',
    options: ['starttls', 'tls', 'none'],
  },
  {
    key: 'SMTP_USERNAME',
    group: 'email',
    type: 'string',
    label: 'Username',
    description: 'Empty = no AUTH',
    default: '',
    maxLength: 254,
  },
  {
    key: 'SMTP_PASSWORD',
    group: 'email',
    type: 'secret',
    label: 'Password',
    description: '',
    default: '',
    sensitive: true,
    boundTo: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USERNAME'],
    maxLength: 4096,
  },
  {
    key: 'SMTP_FROM',
    group: 'email',
    type: 'string',
    label: 'Sender',
    description: 'addr@host or Name <addr@host>; empty → the username',
    default: '',
    maxLength: 320,
    pattern: /^([^<>]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/,
    patternHint: 'addr@host or Name <addr@host>',
  },
  {
    key: 'EMAIL_CODE_TTL_MINUTES',
    group: 'email',
    type: 'integer',
    label: 'Code lifetime (minutes)',
    description: '',
    default: 10,
    min: 1,
    max: 1440,
  },
  {
    key: 'EMAIL_CODE_RESEND_SECONDS',
    group: 'email',
    type: 'integer',
    label: 'Resend gap (seconds)',
    description: '',
    default: 60,
    min: 0,
    max: 3600,
  },
  {
    key: 'EMAIL_CODE_DAILY_LIMIT',
    group: 'email',
    type: 'integer',
    label: 'Codes per address per day',
    description: '',
    default: 5,
    min: 1,
    max: 1000,
  },
  {
    key: 'EMAIL_CODE_IP_DAILY_LIMIT',
    group: 'email',
    type: 'integer',
    label: 'Codes per IP per day',
    description: '',
    default: 15,
    min: 1,
    max: 5000,
  },
  // §4.6 payment
  {
    key: 'STRIPE_SECRET_KEY',
    group: 'payment',
    type: 'secret',
    label: 'Stripe secret key',
    description: '',
    default: '',
    sensitive: true,
    pattern: /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
    patternHint: 'sk_test_…, sk_live_… or rk_…',
  },
  {
    key: 'STRIPE_WEBHOOK_SECRET',
    group: 'payment',
    type: 'secret',
    label: 'Webhook signing secret',
    description: 'Of the endpoint …/api/v1/webhooks/stripe',
    default: '',
    sensitive: true,
    pattern: /^whsec_[A-Za-z0-9]+$/,
    patternHint: 'whsec_…',
  },
  {
    key: 'STRIPE_SUCCESS_URL',
    group: 'payment',
    type: 'url',
    label: 'Success URL',
    description: 'May contain {CHECKOUT_SESSION_ID}',
    default: '',
    fallbackHint:
      'PUBLIC_WEB_URL + /console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}',
  },
  {
    key: 'STRIPE_CANCEL_URL',
    group: 'payment',
    type: 'url',
    label: 'Cancel URL',
    description: '',
    default: '',
    fallbackHint: 'PUBLIC_WEB_URL + /console/renewal?checkout=cancelled',
  },
  {
    key: 'STRIPE_PAYMENT_METHODS',
    group: 'payment',
    type: 'list',
    label: 'Payment methods',
    description: 'Empty = whatever the Stripe dashboard enables',
    default: [] as string[],
    pattern: /^(card|alipay|wechat_pay)$/,
    patternHint: 'card, alipay or wechat_pay',
    maxItems: 3,
  },
  // §4.7 messenger
  {
    key: 'MESSENGER_ADMIN_CHAT_ID',
    group: 'messenger',
    type: 'chat_id',
    label: 'Admin chat',
    description: 'Receives registration and payment events, and rankings when no group is set',
    default: '',
    allowEmpty: true,
  },
  {
    key: 'MESSENGER_GROUP_CHAT_ID',
    group: 'messenger',
    type: 'chat_id',
    label: 'Community group',
    description: 'Receives rankings; empty → the admin chat',
    default: '',
    allowEmpty: true,
  },
  {
    key: 'MESSENGER_APPROVER_IDS',
    group: 'messenger',
    type: 'list',
    label: 'Approvers',
    description: 'Telegram user ids who review requests; empty → the admin chat decides',
    default: [] as string[],
    pattern: /^[1-9]\d{0,15}$/,
    patternHint: 'positive Telegram user ids',
    maxItems: 20,
  },
  {
    key: 'MESSENGER_GROUP_LINK',
    group: 'messenger',
    type: 'url',
    label: 'Group invite link',
    description: 'For {groupLink} in the welcome',
    default: '',
    check: (v) =>
      v === '' || /^https:\/\/t\.me\//.test(String(v)) ? null : 'must be a https://t.me/… link',
  },
  {
    key: 'MESSENGER_WELCOME_TEMPLATE',
    group: 'messenger',
    type: 'text',
    label: 'Welcome message',
    description: 'Telegram HTML; {names} and {groupLink}; empty = welcomes off',
    default: '👋 Welcome, <b>{names}</b>!\n📢 Announcements and help: {groupLink}',
    multiline: true,
    allowEmpty: true,
    maxLength: 1000,
    check: checkWelcome,
  },
  // §4.8 schedule
  {
    key: 'JOBS_ENABLED',
    group: 'schedule',
    type: 'boolean',
    label: 'Scheduled jobs',
    description: 'Master switch for scheduled runs; manual runs still work',
    default: true,
    apply: 'rearm',
  },
  {
    key: 'SCHEDULE_TIMEZONE',
    group: 'schedule',
    type: 'timezone',
    label: 'Business timezone',
    description: 'Cron evaluation, "today", ranking periods, daily quotas, query dates',
    default: 'UTC',
    apply: 'rearm',
  },
  CRON('EXPIRY_CHECK_CRON', '0 * * * *', 'Expiry check', 'Expiry enforcement'),
  CRON('CALENDAR_SYNC_CRON', '0 */12 * * *', 'Calendar sync', 'Watch-calendar sync'),
  {
    key: 'CALENDAR_SYNC_ON_START',
    group: 'schedule',
    type: 'boolean',
    label: 'Calendar sync at start',
    description: 'One sync 15 s after an API start',
    default: true,
  },
  {
    key: 'RANKING_ENABLED',
    group: 'schedule',
    type: 'boolean',
    label: 'Rankings',
    description: 'Generate daily/weekly rankings on schedule',
    default: false,
    apply: 'rearm',
  },
  CRON('RANKING_DAILY_CRON', '0 20 * * *', 'Daily ranking', ''),
  CRON('RANKING_WEEKLY_CRON', '30 20 * * 0', 'Weekly ranking', ''),
  {
    key: 'RANKING_PUSH',
    group: 'schedule',
    type: 'boolean',
    label: 'Push rankings to the bot',
    description: '',
    default: true,
  },
  {
    key: 'RANKING_TOP_N',
    group: 'schedule',
    type: 'integer',
    label: 'Ranking entries',
    description: 'Per category',
    default: 10,
    min: 3,
    max: 25,
  },
  {
    key: 'RANKING_LIBRARY_IDS',
    group: 'schedule',
    type: 'list',
    label: 'Ranking libraries',
    description: 'Empty = all',
    default: [] as string[],
    pattern: /^[A-Za-z0-9-]{1,64}$/,
    patternHint: 'library ids',
    maxItems: 100,
  },
  CRON('CLEANUP_CRON', '30 3 * * *', 'Cleanup', 'Retention cleanup'),
  // Scheduled backups (issue 32; docs/operations.md "Backup and restore"): off until a schedule is
  // set. The folder is the deployment variable BACKUP_DIR (a volume, not a runtime choice).
  {
    key: 'BACKUP_CRON',
    group: 'schedule',
    type: 'cron',
    label: 'Backup',
    description:
      'When the backup job writes a backup file to BACKUP_DIR; empty = no scheduled backups',
    default: '',
    allowEmpty: true,
    apply: 'rearm',
  },
  {
    key: 'BACKUP_KEEP',
    group: 'schedule',
    type: 'integer',
    label: 'Backups kept',
    description: 'The backup job deletes older backup files in BACKUP_DIR beyond this many',
    default: 7,
    min: 1,
    max: 365,
  },
  // lifecycle (issue 29; docs/lifecycle.md)
  {
    key: 'REMINDER_DAYS',
    group: 'lifecycle',
    type: 'list',
    label: 'Reminder days',
    description:
      'Remind a member this many days before the membership ends; one reminder per threshold; empty = reminders off',
    default: ['7', '3', '1'] as string[],
    pattern: /^([1-9]|[1-5][0-9]|60)$/,
    patternHint: 'whole numbers of days from 1 to 60',
    maxItems: 10,
  },
  {
    key: 'REMINDER_CHANNELS',
    group: 'lifecycle',
    type: 'list',
    label: 'Reminder channels',
    description:
      'email (members with an address), messenger (members linked to the bot), webhook (the address below)',
    default: ['email', 'messenger'] as string[],
    pattern: /^(email|messenger|webhook)$/,
    patternHint: 'email, messenger or webhook',
    maxItems: 3,
  },
  {
    key: 'REMINDER_CRON',
    group: 'lifecycle',
    type: 'cron',
    label: 'Reminder check',
    description: 'When the reminder job looks for members to remind',
    default: '15 * * * *',
    apply: 'rearm',
  },
  {
    key: 'MEDIA_ACCOUNT_DELETE_AFTER_DAYS',
    group: 'lifecycle',
    type: 'integer',
    label: 'Delete media accounts after (days)',
    description: 'Days after expiry; 0 = never delete (expired accounts stay disabled)',
    default: 0,
    min: 0,
    max: 3650,
  },
  {
    key: 'INACTIVITY_DISABLE_DAYS',
    group: 'lifecycle',
    type: 'integer',
    label: 'Disable after inactivity (days)',
    description: 'Days without playback; 0 = off',
    default: 0,
    min: 0,
    max: 3650,
  },
  {
    key: 'NOTIFY_WEBHOOK_URL',
    group: 'lifecycle',
    type: 'secret',
    label: 'Notification webhook',
    description:
      'Receives member notices (Discord, ntfy or any JSON endpoint); secret, never shown',
    default: '',
    sensitive: true,
    maxLength: 2048,
    check: (v) =>
      v === '' || /^https?:\/\/[^\s#]+$/.test(String(v))
        ? null
        : 'must be an absolute http:// or https:// URL without a #fragment',
  },
  {
    key: 'NOTIFY_WEBHOOK_FORMAT',
    group: 'lifecycle',
    type: 'enum',
    label: 'Webhook format',
    description: 'json: an event object; discord: {content}; ntfy: plain text with a Title header',
    default: 'json',
    options: ['json', 'discord', 'ntfy'],
  },
  ...noticeTemplates('expiry_reminder', 'Reminder', {
    en: {
      subject: '{siteName}: your membership ends in {daysLeft} day(s)',
      text:
        'Hi {username},\n\nyour {siteName} membership ends on {expiresAt} ({daysLeft} day(s) left). ' +
        'Renew now to keep your access: {renewUrl}\n\nAlready renewed? Then you can ignore this message.',
    },
    zhCN: {
      subject: '{siteName}：会员将在 {daysLeft} 天后到期',
      text:
        '{username}，你好：\n\n你的 {siteName} 会员将于 {expiresAt} 到期（剩余 {daysLeft} 天）。' +
        '立即续期即可保留访问权限：{renewUrl}\n\n如已续期，请忽略本消息。',
    },
  }),
  ...noticeTemplates('deletion_warning', 'Deletion warning', {
    en: {
      subject: '{siteName}: your media account will be deleted on {deleteAt}',
      text:
        'Hi {username},\n\nyour {siteName} membership ended on {expiresAt}. Your media-server ' +
        'account will be deleted on {deleteAt}, with its watch history and settings. Renew before ' +
        'then to keep it: {renewUrl}\n\nYour {siteName} account itself stays, and you can renew at ' +
        'any time.',
    },
    zhCN: {
      subject: '{siteName}：你的媒体账号将于 {deleteAt} 删除',
      text:
        '{username}，你好：\n\n你的 {siteName} 会员已于 {expiresAt} 到期。你的媒体服务器账号将于 ' +
        '{deleteAt} 删除，其中的观看记录和设置也会一并删除。在此之前续费即可保留：{renewUrl}\n\n' +
        '你的 {siteName} 账号本身会保留，随时可以续费。',
    },
  }),
  ...noticeTemplates('inactivity_warning', 'Inactivity warning', {
    en: {
      subject: '{siteName}: we miss you — your access pauses on {disableAt}',
      text:
        'Hi {username},\n\nnothing has played on your {siteName} account for {days} days. To keep ' +
        'places free for active members, your media access will be paused on {disableAt}. Play ' +
        'anything before then and nothing changes.\n\nIf it is paused, ask an admin to switch it ' +
        'back on.',
    },
    zhCN: {
      subject: '{siteName}：好久不见——你的观看权限将于 {disableAt} 暂停',
      text:
        '{username}，你好：\n\n你的 {siteName} 账号已经 {days} 天没有播放记录。为了把名额留给活跃成员，' +
        '你的媒体访问权限将于 {disableAt} 暂停。在此之前播放任意内容即可保持不变。\n\n' +
        '如果已被暂停，请联系管理员重新开启。',
    },
  }),
  // Account sharing (issue 30; docs/sharing.md)
  {
    key: 'SHARING_ENABLED',
    group: 'sharing',
    type: 'boolean',
    label: 'Watch for account sharing',
    description:
      'Every 30 s the sharing watch reads live sessions from the media server and applies the rules below',
    default: false,
    apply: 'rearm',
  },
  {
    key: 'SHARING_MAX_STREAMS',
    group: 'sharing',
    type: 'integer',
    label: 'Streams at once',
    description:
      'Streams a member may play at the same time from public networks; a plan may set its own limit',
    default: 2,
    min: 1,
    max: 100,
  },
  {
    key: 'SHARING_WINDOW_HOURS',
    group: 'sharing',
    type: 'integer',
    label: 'Window (hours)',
    description: 'How far back networks and devices are counted',
    default: 24,
    min: 1,
    max: 720,
  },
  {
    key: 'SHARING_MAX_NETWORKS',
    group: 'sharing',
    type: 'integer',
    label: 'Networks in the window',
    description: 'Distinct public networks (an IPv4 address or an IPv6 /64) allowed in the window',
    default: 3,
    min: 1,
    max: 100,
  },
  {
    key: 'SHARING_MAX_DEVICES',
    group: 'sharing',
    type: 'integer',
    label: 'Devices in the window',
    description: 'Distinct devices allowed to play from public networks in the window',
    default: 5,
    min: 1,
    max: 100,
  },
  {
    key: 'SHARING_TRAVEL_KMH',
    group: 'sharing',
    type: 'integer',
    label: 'Impossible travel (km/h)',
    description:
      'Two streams whose places are farther apart than this speed allows in the time between them',
    default: 800,
    min: 50,
    max: 20000,
  },
  {
    key: 'SHARING_ACTION',
    group: 'sharing',
    type: 'enum',
    label: 'Action',
    description:
      'notify: record the event only; message: show a message on the offending streams; stop: stop them; suspend: switch media access off for the hours below',
    default: 'notify',
    options: ['notify', 'message', 'stop', 'suspend'],
  },
  {
    key: 'SHARING_SUSPEND_HOURS',
    group: 'sharing',
    type: 'integer',
    label: 'Suspension (hours)',
    description: 'How long a suspension lasts; access comes back by itself afterwards',
    default: 24,
    min: 1,
    max: 8760,
  },
  {
    key: 'SHARING_CONFIRM',
    group: 'sharing',
    type: 'boolean',
    label: 'Wait for an admin',
    description:
      'Record events and let an admin confirm the action at /admin/sharing instead of acting at once',
    default: false,
  },
  // Single sign-on (docs/sso.md)
  {
    key: 'OIDC_ENABLED',
    group: 'sso',
    type: 'boolean',
    label: 'Single sign-on',
    description: 'Offer "Sign in with …" through an OpenID Connect provider',
    default: false,
  },
  {
    key: 'OIDC_ISSUER_URL',
    group: 'sso',
    type: 'string',
    label: 'Issuer',
    description:
      'The provider\'s issuer exactly as it writes "iss", trailing slash included (Authentik: https://auth.example.org/application/o/<slug>/)',
    default: '',
    maxLength: 2048,
    check: checkIssuer,
  },
  {
    key: 'OIDC_DISCOVERY_URL',
    group: 'sso',
    type: 'url',
    label: 'Discovery document',
    description:
      'Optional: the address of the discovery document when it is not <issuer>/.well-known/openid-configuration',
    default: '',
  },
  {
    key: 'OIDC_CLIENT_ID',
    group: 'sso',
    type: 'string',
    label: 'Client ID',
    description: 'The client registered for Usher at the provider',
    default: '',
    maxLength: 255,
  },
  {
    key: 'OIDC_CLIENT_SECRET',
    group: 'sso',
    type: 'secret',
    label: 'Client secret',
    description: 'Empty for a public client (PKCE only)',
    default: '',
    sensitive: true,
    boundTo: ['OIDC_ISSUER_URL', 'OIDC_DISCOVERY_URL'],
    maxLength: 1024,
  },
  {
    key: 'OIDC_SCOPES',
    group: 'sso',
    type: 'string',
    label: 'Scopes',
    description: 'Space-separated; must include openid (add groups where the provider needs it)',
    default: 'openid profile email',
    maxLength: 500,
    check: (v) =>
      String(v).split(/\s+/).includes('openid') && /^[\x21\x23-\x5b\x5d-\x7e ]+$/.test(String(v))
        ? null
        : 'must be space-separated scope names including openid',
  },
  {
    key: 'OIDC_BUTTON_LABEL',
    group: 'sso',
    type: 'string',
    label: 'Button label',
    description: 'Shown on the sign-in page, e.g. "Sign in with Authentik"',
    default: 'Sign in with SSO',
    minLength: 1,
    maxLength: 60,
  },
  {
    key: 'OIDC_AUTO_REDIRECT',
    group: 'sso',
    type: 'boolean',
    label: 'Go straight to the provider',
    description: 'The sign-in page redirects at once; /login?local=1 still shows the password form',
    default: false,
  },
  {
    key: 'OIDC_ALLOW_REGISTRATION',
    group: 'sso',
    type: 'boolean',
    label: 'Create accounts on first sign-in',
    description: 'New members follow the registration mode: in invite mode they enter a code once',
    default: true,
  },
  {
    key: 'OIDC_GROUPS_CLAIM',
    group: 'sso',
    type: 'string',
    label: 'Groups claim',
    description: "Claim of the ID token or userinfo that lists the person's groups",
    default: 'groups',
    minLength: 1,
    maxLength: 100,
  },
  {
    key: 'OIDC_ADMIN_GROUPS',
    group: 'sso',
    type: 'list',
    label: 'Admin groups',
    description: 'Members of any of these groups become administrators when they sign in',
    default: [] as string[],
    pattern: /^\S(.{0,253}\S)?$/,
    patternHint: 'group names as the provider sends them',
    maxItems: 20,
  },
  {
    key: 'OIDC_PASSWORD_LOGIN',
    group: 'sso',
    type: 'boolean',
    label: 'Password sign-in',
    description:
      'Off: while single sign-on works, only the bootstrap admin keeps a password (break-glass)',
    default: true,
  },
  {
    key: 'OIDC_LINK_BY_VERIFIED_EMAIL',
    group: 'sso',
    type: 'boolean',
    label: 'Link by verified e-mail',
    description:
      'A first sign-in whose address the provider verified joins the account with that address',
    default: false,
  },
] as const satisfies readonly SettingDefinition[];

type Definition = (typeof DEFINITIONS)[number];

/** Every runtime setting key: a typo'd key does not compile. */
export type SettingKey = Definition['key'];

/**
 * The value a key resolves to, from its definition: `boolean`, `number` for integers, `string[]`
 * for lists, the listed options for an enum, `string` for the other types.
 */
export type SettingValueOf<K extends SettingKey> = ValueOfDefinition<
  Extract<Definition, { key: K }>
>;

/** `SettingValueOf<K>` when that is a string, else `string` (what `getString` answers). */
export type SettingStringOf<K extends SettingKey> =
  SettingValueOf<K> extends string ? SettingValueOf<K> : string;

/** A definition whose key is one of `SettingKey`. */
export type KnownSettingDefinition = SettingDefinition & { key: SettingKey };

export const SETTING_DEFINITIONS: readonly KnownSettingDefinition[] = DEFINITIONS;

const TELEGRAM_TAGS = /<\/?([a-zA-Z]+)(\s[^>]*)?>/g;

/** The welcome template: Telegram HTML subset, `{names}` required, no other placeholder. */
function checkWelcome(value: unknown): string | null {
  const text = String(value);
  if (text === '') return null;
  if (!text.includes('{names}')) return 'must contain {names}';
  const unknown = [...text.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((name) => name !== 'names' && name !== 'groupLink');
  if (unknown.length) return `unknown placeholder {${unknown[0]}}; use {names} and {groupLink}`;
  for (const match of text.matchAll(TELEGRAM_TAGS)) {
    if (!['b', 'i', 'u', 's', 'code', 'a'].includes(match[1]!.toLowerCase())) {
      return `tag <${match[1]}> is not allowed; use b, i, u, s, code, a`;
    }
  }
  return null;
}

/** Looked up by any string (request bodies); what it finds carries a `SettingKey`. */
export const DEFINITIONS_BY_KEY: ReadonlyMap<string, KnownSettingDefinition> = new Map(
  SETTING_DEFINITIONS.map((d) => [d.key, d]),
);
