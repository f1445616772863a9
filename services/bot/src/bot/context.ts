/**
 * What every feature gets: the per-update context (child logger, language, API calls carrying
 * the update's request id) and the helpers that send through the error-classifying wrapper.
 */
import type { Logger } from 'pino';
import type { Context, Telegraf } from 'telegraf';
import type { ApiCalls, ApiClient, ApiFailure } from '../api-client.js';
import type { BotConfig, Lang } from '../config.js';
import { t, type CatalogKey, type Vars } from '../format/i18n/index.js';
import type { BotMetrics } from '../metrics.js';
import type { BotSettings, SettingsCache } from '../settings.js';
import { tgCall, type TelegramDeps, type TgOutcome } from '../telegram.js';

export interface BotContext extends Context {
  log: Logger;
  lang: Lang;
  api: ApiCalls;
  requestId: string;
  /** Whether the callback query was answered (each is answered exactly once). */
  answered: boolean;
  /** Set by the last-resort handler: nothing handled this update. */
  ignored: boolean;
  /** The command name, for the update log line (never its arguments). */
  command?: string;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface BotDeps {
  config: BotConfig;
  logger: Logger;
  api: ApiClient;
  settings: SettingsCache;
  metrics: BotMetrics;
  timers?: Timers;
  sleep?: (ms: number) => Promise<void>;
}

export type Bot = Telegraf<BotContext>;

export type InlineButton = { text: string; callback_data: string } | { text: string; url: string };
export type Keyboard = InlineButton[][];

export function tgDeps(ctx: BotContext, deps: BotDeps): TelegramDeps {
  return { telegram: ctx.telegram, metrics: deps.metrics, logger: ctx.log, sleep: deps.sleep };
}

/** Sends an HTML message to the update's chat. */
export function reply(
  ctx: BotContext,
  deps: BotDeps,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<TgOutcome<{ message_id: number }>> {
  return tgCall(tgDeps(ctx, deps), 'sendMessage', {
    chat_id: ctx.chat!.id,
    text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...extra,
  });
}

export function replyKey(ctx: BotContext, deps: BotDeps, key: CatalogKey, vars?: Vars) {
  return reply(ctx, deps, t(ctx.lang, key, vars));
}

/** Edits a text message of the update's chat; `keyboard` empty removes the buttons. */
export function editText(
  ctx: BotContext,
  deps: BotDeps,
  messageId: number,
  text: string,
  keyboard: Keyboard = [],
  extra: Record<string, unknown> = {},
) {
  return tgCall(tgDeps(ctx, deps), 'editMessageText', {
    chat_id: ctx.chat!.id,
    message_id: messageId,
    text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: keyboard },
    ...extra,
  });
}

/** Answers the update's callback query once; later calls do nothing. */
export async function answer(ctx: BotContext, deps: BotDeps, text?: string, alert = false) {
  if (ctx.answered || !ctx.callbackQuery) return;
  ctx.answered = true;
  await tgCall(tgDeps(ctx, deps), 'answerCallbackQuery', {
    callback_query_id: ctx.callbackQuery.id,
    ...(text ? { text: text.slice(0, 200), show_alert: alert } : {}),
  });
}

/** The polite reply for an API failure that no feature maps: unavailable, or failed (CODE). */
export function failureText(lang: Lang, failure: ApiFailure): string {
  if (failure.kind === 'unavailable') return t(lang, 'common.unavailable');
  if (failure.code === 'RATE_LIMITED') return t(lang, 'common.rateLimited');
  if (failure.code === 'MESSENGER_NOT_BOUND') return t(lang, 'common.notBound');
  return t(lang, 'common.failed', { code: failure.code });
}

/** Plain-text form of a catalog text, for callback answers (no HTML there). */
export function plain(lang: Lang, key: CatalogKey, vars?: Vars): string {
  return t(lang, key, vars)
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Arguments after the command entity, split on whitespace. */
export function commandArgs(ctx: BotContext): string[] {
  const message = ctx.message as {
    text?: string;
    entities?: { type: string; offset: number; length: number }[];
  };
  const text = message?.text ?? '';
  const entity = message?.entities?.find((e) => e.type === 'bot_command' && e.offset === 0);
  const rest = entity ? text.slice(entity.length) : '';
  return rest.trim() === '' ? [] : rest.trim().split(/\s+/);
}

/** Whether the user may approve (40-bot.md §5): listed approver, admin user, or group admin. */
export async function isApprover(
  ctx: BotContext,
  deps: BotDeps,
  settings: BotSettings,
  userId: number,
): Promise<boolean> {
  if (settings.approverIds.length > 0) return settings.approverIds.includes(userId);
  if (settings.adminChatId === null) return false;
  if (settings.approverFallback === 'admin_user') return settings.adminChatId === userId;
  if (settings.approverFallback === 'admin_group') {
    const member = await tgCall<{ status: string }>(tgDeps(ctx, deps), 'getChatMember', {
      chat_id: settings.adminChatId,
      user_id: userId,
    });
    return (
      member.ok && (member.result.status === 'creator' || member.result.status === 'administrator')
    );
  }
  return false;
}

export const isPrivate = (ctx: BotContext) => ctx.chat?.type === 'private';
