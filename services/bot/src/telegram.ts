/**
 * Bot API calls with the error handling of 40-bot.md §2.2 and §11.1: Telegram's refusals become
 * delivery outcomes (`unchanged`, `gone`, `blocked`, `failed`), a 429 waits `retry_after` (at most
 * 10 s) once, and every call is counted.
 */
import type { Logger } from 'pino';
import type { Telegram } from 'telegraf';
import type { BotMetrics } from './metrics.js';

export type TgOutcome<T> =
  | { ok: true; result: T }
  | {
      ok: false;
      status: 'unchanged' | 'gone' | 'blocked' | 'failed';
      code: number;
      reason: string;
    };

export interface TelegramDeps {
  telegram: Telegram;
  metrics?: BotMetrics;
  logger?: Logger;
  sleep?: (ms: number) => Promise<void>;
}

interface TelegramErrorShape {
  response?: { error_code?: number; description?: string; parameters?: { retry_after?: number } };
}

function errorInfo(error: unknown) {
  const response = (error as TelegramErrorShape).response;
  if (response && typeof response.error_code === 'number') {
    return {
      code: response.error_code,
      description: response.description ?? '',
      retryAfter: response.parameters?.retry_after,
    };
  }
  return {
    code: 0,
    description: error instanceof Error ? error.message : String(error),
    retryAfter: undefined,
  };
}

export function classify(
  code: number,
  description: string,
): Exclude<TgOutcome<never>, { ok: true }>['status'] {
  const d = description.toLowerCase();
  if (code === 400 && d.includes('message is not modified')) return 'unchanged';
  if (
    code === 400 &&
    (d.includes('message to edit not found') || d.includes("message can't be edited"))
  ) {
    return 'gone';
  }
  if (code === 403 && d.includes('blocked')) return 'blocked';
  return 'failed';
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Calls a Bot API method; never throws. */
export async function tgCall<T = unknown>(
  deps: TelegramDeps,
  method: string,
  payload: Record<string, unknown>,
): Promise<TgOutcome<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      // callApi's method type is a union of literal names; the payload is checked by Telegram.
      const result = (await (deps.telegram.callApi as (m: string, p: unknown) => Promise<unknown>)(
        method,
        payload,
      )) as T;
      deps.metrics?.telegramCalls.inc({ method, outcome: 'ok' });
      return { ok: true, result };
    } catch (error) {
      const info = errorInfo(error);
      if (info.code === 429 && attempt === 1) {
        deps.metrics?.telegramCalls.inc({ method, outcome: 'rate_limited' });
        const wait = Math.min(10, Math.max(0, info.retryAfter ?? 1)) * 1000;
        deps.logger?.warn({ method, retryAfterMs: wait }, 'telegram rate limit; retrying once');
        await (deps.sleep ?? defaultSleep)(wait);
        continue;
      }
      const status = classify(info.code, info.description);
      deps.metrics?.telegramCalls.inc({ method, outcome: status });
      if (status !== 'unchanged') {
        deps.logger?.warn(
          { method, errorCode: info.code, description: info.description },
          'telegram call failed',
        );
      }
      return { ok: false, status, code: info.code, reason: info.description.slice(0, 300) };
    }
  }
}
