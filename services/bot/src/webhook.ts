/**
 * Webhook registration (40-bot.md §3.1): setWebhook with 6 attempts (waits 2, 4, 8, 16, 32 s);
 * after the sixth failure /health is degraded and a slow retry runs every 10 minutes. A 401
 * means the token was revoked: the process exits 3.
 */
import type { Logger } from 'pino';
import type { WebhookConfig } from './config.js';
import type { BotMetrics } from './metrics.js';
import type { HealthState } from './server.js';
import { tgCall, type TelegramDeps } from './telegram.js';

export const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'];
export const WEBHOOK_ATTEMPTS = 6;
export const SLOW_RETRY_MS = 10 * 60_000;

export interface RegistrarDeps {
  config: WebhookConfig;
  telegram: TelegramDeps;
  health: HealthState;
  logger: Logger;
  metrics: BotMetrics;
  sleep?: (ms: number) => Promise<void>;
  /** Called on 401 (main exits 3). */
  onTokenRejected: () => void;
  timers?: { setInterval(fn: () => void, ms: number): unknown; clearInterval(h: unknown): void };
}

export function backoffMs(attempt: number): number {
  return Math.min(60_000, 2000 * 2 ** (attempt - 1));
}

/** One setWebhook call; true on success. */
async function registerOnce(
  deps: RegistrarDeps,
): Promise<{ ok: boolean; rejected: boolean; error?: string }> {
  const result = await tgCall(deps.telegram, 'setWebhook', {
    url: `${deps.config.WEBHOOK_URL}/messenger/webhook`,
    secret_token: deps.config.MESSENGER_WEBHOOK_SECRET,
    allowed_updates: ALLOWED_UPDATES,
    drop_pending_updates: false,
    max_connections: 40,
  });
  if (result.ok) return { ok: true, rejected: false };
  return {
    ok: false,
    rejected: result.code === 401,
    error: result.reason || `error ${result.code}`,
  };
}

/** Registers the webhook; resolves once registered or degraded. Returns a stop function. */
export async function registerWebhook(deps: RegistrarDeps): Promise<() => void> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timers = deps.timers ?? {
    setInterval,
    clearInterval: (h: unknown) => clearInterval(h as NodeJS.Timeout),
  };
  const succeed = () => {
    deps.health.webhookRegistered = true;
    deps.health.degraded = false;
    delete deps.health.lastError;
    delete deps.health.attempts;
    deps.metrics.webhookRegistered.set(1);
    deps.logger.info({ url: `${deps.config.WEBHOOK_URL}/messenger/webhook` }, 'webhook registered');
  };
  let lastError = '';
  for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
    const result = await registerOnce(deps);
    if (result.ok) {
      succeed();
      return () => undefined;
    }
    if (result.rejected) {
      deps.onTokenRejected();
      return () => undefined;
    }
    lastError = result.error ?? '';
    deps.logger.warn({ attempt, error: lastError }, 'setWebhook failed');
    if (attempt < WEBHOOK_ATTEMPTS) await sleep(backoffMs(attempt));
  }
  deps.health.webhookRegistered = false;
  deps.health.degraded = true;
  deps.health.lastError = lastError;
  deps.health.attempts = WEBHOOK_ATTEMPTS;
  deps.metrics.webhookRegistered.set(0);
  deps.logger.error(
    { error: lastError },
    'webhook registration gave up; retrying every 10 minutes',
  );
  let busy = false;
  const handle = timers.setInterval(() => {
    if (busy) return;
    busy = true;
    void registerOnce(deps)
      .then((result) => {
        if (result.ok) {
          succeed();
          timers.clearInterval(handle);
        } else if (result.rejected) {
          deps.onTokenRejected();
        } else {
          deps.health.lastError = result.error ?? '';
        }
      })
      .finally(() => {
        busy = false;
      });
  }, SLOW_RETRY_MS);
  return () => timers.clearInterval(handle);
}
