/**
 * The bot's environment, parsed once at start (40-bot.md §1.1). A discriminated union on
 * MESSENGER_UPDATE_MODE: webhook adds WEBHOOK_URL, polling adds DATABASE_URL. Failures come back
 * as the exact `config: …` lines of §1.2, never carrying a value.
 */
import { LOCALES, type Locale } from '@usher/contracts/values';
import { z } from 'zod';

/** The bot speaks the languages Usher has a locale for. */
export const LANGUAGES = LOCALES;
export type Lang = Locale;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

interface CommonConfig {
  MESSENGER_BOT_TOKEN: string;
  MESSENGER_WEBHOOK_SECRET: string;
  INTERNAL_API_SECRET: string;
  API_URL: string;
  BOT_PORT: number;
  BOT_LANGUAGE: Lang;
  MESSENGER_ADMIN_CHAT_ID: number | null;
  MESSENGER_GROUP_CHAT_ID: number | null;
  MESSENGER_API_ROOT: string;
  LOG_LEVEL: (typeof LOG_LEVELS)[number];
}

export interface WebhookConfig extends CommonConfig {
  MESSENGER_UPDATE_MODE: 'webhook';
  WEBHOOK_URL: string;
}

export interface PollingConfig extends CommonConfig {
  MESSENGER_UPDATE_MODE: 'polling';
  DATABASE_URL: string;
}

export type BotConfig = WebhookConfig | PollingConfig;

export type ConfigResult = { ok: true; config: BotConfig } | { ok: false; errors: string[] };

const TOKEN = /^\d+:[A-Za-z0-9_-]{30,}$/;
const OFFICIAL_ROOT = 'https://api.telegram.org';
const WEBHOOK_SECRET = /^[A-Za-z0-9_-]{32,256}$/;
const PLACEHOLDERS = ['change-me', 'changeme', 'example', 'placeholder', 'secret', 'password'];

/** Same rule as the API's secret check: long enough and not copied from an example. */
function weakInternalSecret(value: string): boolean {
  const lower = value.trim().toLowerCase();
  return (
    value.length < 64 ||
    PLACEHOLDERS.includes(lower) ||
    lower.startsWith('your-') ||
    value.includes('<') ||
    value.includes('>') ||
    new Set(value).size < 8
  );
}

const chatId = z
  .string()
  .regex(/^-?\d+$/)
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n) && n !== 0);

/** Empty `NAME=` lines mean "not set", as in the API. */
function read(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function loadConfig(env: Record<string, string | undefined>): ConfigResult {
  const errors: string[] = [];
  const required = (name: string) => {
    const value = read(env, name);
    if (value === undefined) errors.push(`config: ${name} is required`);
    return value ?? '';
  };

  const token = required('MESSENGER_BOT_TOKEN');
  if (token && !TOKEN.test(token)) {
    errors.push(
      'config: MESSENGER_BOT_TOKEN must look like 123456:ABC… (digits, a colon, 30+ characters)',
    );
  }
  const webhookSecret = required('MESSENGER_WEBHOOK_SECRET');
  if (webhookSecret && !WEBHOOK_SECRET.test(webhookSecret)) {
    errors.push('config: MESSENGER_WEBHOOK_SECRET must be 32-256 characters of A-Z a-z 0-9 _ -');
  }
  const internal = required('INTERNAL_API_SECRET');
  if (internal && weakInternalSecret(internal)) {
    errors.push(
      'config: INTERNAL_API_SECRET must be at least 64 characters and not the example value',
    );
  }

  const mode = read(env, 'MESSENGER_UPDATE_MODE') ?? 'webhook';
  if (mode !== 'webhook' && mode !== 'polling') {
    errors.push(
      `config: MESSENGER_UPDATE_MODE must be "webhook" or "polling" (got "${mode.slice(0, 40)}")`,
    );
  }

  const apiRoot = read(env, 'MESSENGER_API_ROOT');
  let webhookUrl = '';
  if (mode === 'webhook') {
    const raw = read(env, 'WEBHOOK_URL');
    if (raw === undefined) {
      errors.push('config: WEBHOOK_URL is required when MESSENGER_UPDATE_MODE=webhook');
    } else {
      webhookUrl = raw.endsWith('/') ? raw.slice(0, -1) : raw;
      // http:// only for a non-official Bot API root (the testkit fake): Telegram itself calls
      // HTTPS only. Compose always sets MESSENGER_API_ROOT, usually to the official root.
      const officialRoot = (apiRoot ?? OFFICIAL_ROOT).replace(/\/+$/, '') === OFFICIAL_ROOT;
      if (!validWebhookUrl(webhookUrl, !officialRoot)) {
        errors.push('config: WEBHOOK_URL must be an https:// URL without query or fragment');
      }
    }
  }
  let databaseUrl = '';
  if (mode === 'polling') {
    const raw = read(env, 'DATABASE_URL');
    if (raw === undefined) {
      errors.push(
        'config: DATABASE_URL is required when MESSENGER_UPDATE_MODE=polling (the polling lease is stored in PostgreSQL)',
      );
    } else if (!/^postgres(ql)?:\/\//.test(raw)) {
      errors.push('config: DATABASE_URL must be a postgres:// URL');
    } else {
      databaseUrl = raw;
    }
  }

  const apiUrl = (read(env, 'API_URL') ?? 'http://localhost:8080').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#]+/.test(apiUrl) || !URL.canParse(apiUrl)) {
    errors.push('config: API_URL must be an http:// or https:// URL');
  }
  const portRaw = read(env, 'BOT_PORT') ?? '8000';
  const port = Number(portRaw);
  if (!/^\d+$/.test(portRaw) || port < 1 || port > 65535) {
    errors.push('config: BOT_PORT must be a port number (1-65535)');
  }
  const language = read(env, 'BOT_LANGUAGE') ?? 'en';
  if (!(LANGUAGES as readonly string[]).includes(language)) {
    errors.push('config: BOT_LANGUAGE must be "en" or "zh-CN"');
  }
  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    errors.push('config: LOG_LEVEL must be one of debug, info, warn, error');
  }
  const chats: Record<string, number | null> = {};
  for (const name of ['MESSENGER_ADMIN_CHAT_ID', 'MESSENGER_GROUP_CHAT_ID']) {
    const raw = read(env, name);
    const parsed = raw === undefined ? null : chatId.safeParse(raw);
    if (parsed && !parsed.success) errors.push(`config: ${name} must be a non-zero integer`);
    chats[name] = parsed?.success ? parsed.data : null;
  }
  const root = (apiRoot ?? OFFICIAL_ROOT).replace(/\/+$/, '');
  if (!URL.canParse(root) || !/^https?:/.test(root)) {
    errors.push('config: MESSENGER_API_ROOT must be an http:// or https:// URL');
  }

  if (errors.length > 0) return { ok: false, errors };
  const common: CommonConfig = {
    MESSENGER_BOT_TOKEN: token,
    MESSENGER_WEBHOOK_SECRET: webhookSecret,
    INTERNAL_API_SECRET: internal,
    API_URL: apiUrl,
    BOT_PORT: port,
    BOT_LANGUAGE: language as Lang,
    MESSENGER_ADMIN_CHAT_ID: chats.MESSENGER_ADMIN_CHAT_ID ?? null,
    MESSENGER_GROUP_CHAT_ID: chats.MESSENGER_GROUP_CHAT_ID ?? null,
    MESSENGER_API_ROOT: root,
    LOG_LEVEL: logLevel as CommonConfig['LOG_LEVEL'],
  };
  const config: BotConfig =
    mode === 'polling'
      ? { ...common, MESSENGER_UPDATE_MODE: 'polling', DATABASE_URL: databaseUrl }
      : { ...common, MESSENGER_UPDATE_MODE: 'webhook', WEBHOOK_URL: webhookUrl };
  return { ok: true, config };
}

/** `https://` (or `http://` when a fake Bot API root is configured), no query or fragment. */
function validWebhookUrl(value: string, fakeRoot: boolean): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const schemeOk = url.protocol === 'https:' || (fakeRoot && url.protocol === 'http:');
  return (
    schemeOk && url.search === '' && url.hash === '' && !value.includes('#') && !value.includes('?')
  );
}
