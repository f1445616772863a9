/** Start-up config rules (40-bot.md §1.1–1.2) and the runtime settings cache (§5). */
import { randomBytes } from 'node:crypto';
import type { InternalSettings } from '@usher/contracts';
import type { ApiResult } from '../src/api-client.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { resolveSettings, SettingsCache } from '../src/settings.js';
import { memoryLogs } from './support/harness.js';

const good = {
  MESSENGER_BOT_TOKEN: '7000000001:AAFakeTokenForUsherTestsOnly_1234567',
  MESSENGER_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
  INTERNAL_API_SECRET: randomBytes(32).toString('hex'),
  WEBHOOK_URL: 'https://bot.example.org/',
};

const errors = (env: Record<string, string | undefined>) => {
  const result = loadConfig(env);
  return result.ok ? [] : result.errors;
};

describe('config', () => {
  it('should accept a webhook config and strip one trailing slash', () => {
    const result = loadConfig(good);
    expect(result.ok && result.config).toMatchObject({
      MESSENGER_UPDATE_MODE: 'webhook',
      WEBHOOK_URL: 'https://bot.example.org',
      API_URL: 'http://localhost:8080',
      BOT_PORT: 8000,
      BOT_LANGUAGE: 'en',
      MESSENGER_API_ROOT: 'https://api.telegram.org',
    });
  });

  it.each(['MESSENGER_BOT_TOKEN', 'MESSENGER_WEBHOOK_SECRET', 'INTERNAL_API_SECRET'])(
    'should name a missing %s',
    (name) => {
      expect(errors({ ...good, [name]: '' })).toEqual([`config: ${name} is required`]);
    },
  );

  it('should print every problem, never a value', () => {
    const lines = errors({
      MESSENGER_BOT_TOKEN: 'nope-token-value',
      MESSENGER_WEBHOOK_SECRET: 'short!',
      INTERNAL_API_SECRET: 'change-me',
      MESSENGER_UPDATE_MODE: 'carrier-pigeon',
    });
    expect(lines).toEqual([
      'config: MESSENGER_BOT_TOKEN must look like 123456:ABC… (digits, a colon, 30+ characters)',
      'config: MESSENGER_WEBHOOK_SECRET must be 32-256 characters of A-Z a-z 0-9 _ -',
      'config: INTERNAL_API_SECRET must be at least 64 characters and not the example value',
      'config: MESSENGER_UPDATE_MODE must be "webhook" or "polling" (got "carrier-pigeon")',
    ]);
    expect(lines.join('\n')).not.toContain('nope-token-value');
    expect(lines.join('\n')).not.toContain('short!');
  });

  it('should require WEBHOOK_URL in webhook mode', () => {
    expect(errors({ ...good, WEBHOOK_URL: undefined })).toEqual([
      'config: WEBHOOK_URL is required when MESSENGER_UPDATE_MODE=webhook',
    ]);
  });

  it.each([
    'http://bot.example.org',
    'https://bot.example.org/?a=1',
    'https://bot.example.org/#x',
    'not a url',
  ])('should refuse WEBHOOK_URL %s', (url) => {
    expect(errors({ ...good, WEBHOOK_URL: url })).toEqual([
      'config: WEBHOOK_URL must be an https:// URL without query or fragment',
    ]);
  });

  it('should accept http:// only with a non-official Bot API root', () => {
    expect(
      errors({
        ...good,
        WEBHOOK_URL: 'http://127.0.0.1:8000',
        MESSENGER_API_ROOT: 'http://127.0.0.1:9',
      }),
    ).toEqual([]);
    expect(
      errors({
        ...good,
        WEBHOOK_URL: 'http://bot.example.org',
        MESSENGER_API_ROOT: 'https://api.telegram.org/',
      }),
    ).toEqual(['config: WEBHOOK_URL must be an https:// URL without query or fragment']);
  });

  it('should require DATABASE_URL in polling mode and not WEBHOOK_URL', () => {
    expect(errors({ ...good, WEBHOOK_URL: undefined, MESSENGER_UPDATE_MODE: 'polling' })).toEqual([
      'config: DATABASE_URL is required when MESSENGER_UPDATE_MODE=polling (the polling lease is stored in PostgreSQL)',
    ]);
    const ok = loadConfig({
      ...good,
      MESSENGER_UPDATE_MODE: 'polling',
      DATABASE_URL: 'postgres://u:p@db:5432/usher',
    });
    expect(ok.ok && ok.config.MESSENGER_UPDATE_MODE).toBe('polling');
  });

  it('should check the optional values', () => {
    expect(
      errors({
        ...good,
        BOT_PORT: '70000',
        BOT_LANGUAGE: 'de',
        LOG_LEVEL: 'trace',
        MESSENGER_ADMIN_CHAT_ID: '0',
      }),
    ).toEqual([
      'config: BOT_PORT must be a port number (1-65535)',
      'config: BOT_LANGUAGE must be "en" or "zh-CN"',
      'config: LOG_LEVEL must be one of debug, info, warn, error',
      'config: MESSENGER_ADMIN_CHAT_ID must be a non-zero integer',
    ]);
  });
});

const apiSettings = (patch: Partial<InternalSettings> = {}): InternalSettings => ({
  adminChatId: '-100123',
  groupChatId: null,
  approverIds: ['42'],
  approverFallback: 'admin_group',
  welcomeTemplate: 'Hi {names}',
  groupLink: null,
  timezone: 'Asia/Shanghai',
  tmdbImageBase: 'https://img.example.org/t/p/',
  webUrl: 'https://usher.example.org/',
  siteName: 'Usher',
  ...patch,
});

describe('settings cache', () => {
  const env = { MESSENGER_ADMIN_CHAT_ID: 555, MESSENGER_GROUP_CHAT_ID: -777 };

  function cache(replies: ApiResult<InternalSettings>[], now: { t: number }) {
    const logs = memoryLogs();
    let calls = 0;
    const api = {
      settings: async () => {
        calls++;
        // One turn of the event loop, so concurrent readers overlap a fetch in flight.
        await new Promise((r) => setImmediate(r));
        return replies[Math.min(calls - 1, replies.length - 1)]!;
      },
    };
    const c = new SettingsCache({
      api,
      config: env,
      logger: createLogger('debug', logs.stream),
      now: () => now.t,
    });
    return { c, calls: () => calls, logs };
  }

  it('should use the env fallbacks before any value arrives', () => {
    expect(resolveSettings(null, env)).toMatchObject({
      adminChatId: 555,
      groupChatId: -777,
      approverIds: [],
      approverFallback: 'admin_user',
      welcomeTemplate: '',
      timezone: 'UTC',
      imageBase: 'https://image.tmdb.org/t/p',
    });
  });

  it('should prefer API values and fill nulls from env', () => {
    expect(resolveSettings(apiSettings(), env)).toMatchObject({
      adminChatId: -100123,
      groupChatId: -777,
      approverIds: [42],
      imageBase: 'https://img.example.org/t/p',
      webUrl: 'https://usher.example.org',
    });
  });

  it('should share one fetch between concurrent readers and keep it for 30 s', async () => {
    const now = { t: 0 };
    const { c, calls } = cache([{ ok: true, status: 200, data: apiSettings() }], now);
    await Promise.all([c.get(), c.get(), c.get()]);
    expect(calls()).toBe(1);
    now.t = 29_999;
    await c.get();
    expect(calls()).toBe(1);
    now.t = 30_000;
    await c.get();
    expect(calls()).toBe(2);
  });

  it('should keep the last good value when a refresh fails and warn once a minute', async () => {
    const now = { t: 0 };
    const down = { ok: false as const, kind: 'unavailable' as const, reason: 'network' };
    const { c, logs, calls } = cache([{ ok: true, status: 200, data: apiSettings() }, down], now);
    await c.get();
    now.t = 31_000;
    expect((await c.get()).timezone).toBe('Asia/Shanghai');
    expect(calls()).toBe(2);
    now.t = 35_999;
    await c.get();
    expect(calls()).toBe(2);
    now.t = 36_000;
    await c.get();
    expect(calls()).toBe(3);
    expect(logs.lines.filter((l) => l.msg === 'runtime settings refresh failed')).toHaveLength(1);
  });
});
