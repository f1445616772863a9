/**
 * Runtime settings from `GET /internal/settings`, cached for 30 s (40-bot.md §5). Concurrent
 * readers share one fetch; a failed refresh keeps the last good value; fields the API leaves
 * null fall back to the MESSENGER_*_CHAT_ID env values.
 */
import type { InternalSettings } from '@usher/contracts';
import type { Logger } from 'pino';
import type { ApiCalls } from './api-client.js';
import type { BotConfig } from './config.js';

export type ApproverFallback = 'none' | 'admin_user' | 'admin_group';

export interface BotSettings {
  adminChatId: number | null;
  groupChatId: number | null;
  approverIds: number[];
  approverFallback: ApproverFallback;
  welcomeTemplate: string;
  groupLink: string | null;
  timezone: string;
  imageBase: string;
  webUrl: string | null;
  siteName: string;
}

export const SETTINGS_TTL_MS = 30_000;
const WARN_EVERY_MS = 60_000;

function toChatId(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^-?\d+$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) && n !== 0 ? n : null;
}

function derivedFallback(adminChatId: number | null): ApproverFallback {
  if (adminChatId === null) return 'none';
  return adminChatId > 0 ? 'admin_user' : 'admin_group';
}

/** Resolves an API reply (or nothing) plus the env fallbacks into what the bot uses. */
export function resolveSettings(
  api: InternalSettings | null,
  config: Pick<BotConfig, 'MESSENGER_ADMIN_CHAT_ID' | 'MESSENGER_GROUP_CHAT_ID'>,
): BotSettings {
  const adminChatId = toChatId(api?.adminChatId) ?? config.MESSENGER_ADMIN_CHAT_ID;
  const groupChatId = toChatId(api?.groupChatId) ?? config.MESSENGER_GROUP_CHAT_ID;
  return {
    adminChatId,
    groupChatId,
    approverIds: (api?.approverIds ?? []).map(toChatId).filter((n): n is number => n !== null),
    approverFallback:
      api && api.adminChatId !== null ? api.approverFallback : derivedFallback(adminChatId),
    welcomeTemplate: api?.welcomeTemplate ?? '',
    groupLink: api?.groupLink ?? null,
    timezone: api?.timezone || 'UTC',
    imageBase: (api?.tmdbImageBase || 'https://image.tmdb.org/t/p').replace(/\/+$/, ''),
    webUrl: api?.webUrl ? api.webUrl.replace(/\/+$/, '') : null,
    siteName: api?.siteName ?? 'Usher',
  };
}

export class SettingsCache {
  private value: InternalSettings | null = null;
  private fetchedAt = -Infinity;
  private inflight: Promise<void> | null = null;
  private lastWarnAt = -Infinity;

  constructor(
    private readonly deps: {
      api: Pick<ApiCalls, 'settings'>;
      config: Pick<BotConfig, 'MESSENGER_ADMIN_CHAT_ID' | 'MESSENGER_GROUP_CHAT_ID'>;
      logger: Logger;
      now?: () => number;
      ttlMs?: number;
    },
  ) {}

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  /** The current settings; refreshes when older than the TTL. Never throws. */
  async get(): Promise<BotSettings> {
    if (this.now() - this.fetchedAt >= (this.deps.ttlMs ?? SETTINGS_TTL_MS)) await this.refresh();
    return resolveSettings(this.value, this.deps.config);
  }

  /** Whether a value from the API is held (for tests and /health diagnostics). */
  get loaded(): boolean {
    return this.value !== null;
  }

  refresh(): Promise<void> {
    this.inflight ??= this.fetchOnce().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async fetchOnce() {
    const result = await this.deps.api.settings();
    if (result.ok) {
      this.value = result.data;
      this.fetchedAt = this.now();
      return;
    }
    // Try again in 5 s (or the TTL, if shorter) rather than on every update while the API is down.
    const ttl = this.deps.ttlMs ?? SETTINGS_TTL_MS;
    this.fetchedAt = this.now() - ttl + Math.min(5000, ttl);
    if (this.now() - this.lastWarnAt >= WARN_EVERY_MS) {
      this.lastWarnAt = this.now();
      this.deps.logger.warn(
        {
          reason: result.kind === 'error' ? result.code : result.reason,
          keptLastGood: this.value !== null,
        },
        'runtime settings refresh failed',
      );
    }
  }
}
