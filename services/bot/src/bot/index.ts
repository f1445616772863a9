/**
 * `createBot(deps)`: the telegraf composition (conventions §8). The outermost middleware gives
 * each update its child logger, language and request id, logs one line per update and is the
 * error boundary; then one feature per file; an "unhandled" handler comes last.
 */
import { Telegraf } from 'telegraf';
import type { UserFromGetMe } from 'telegraf/types';
import { callbackLabel, parseCallback } from '../format/callback.js';
import { languageOf, t } from '../format/i18n/index.js';
import { registerRejectReason, handleApprovalCallback } from './approvals.js';
import { registerBind } from './bind.js';
import { registerCancel } from './cancel.js';
import {
  answer,
  failureText,
  isPrivate,
  plain,
  reply,
  type Bot,
  type BotContext,
  type BotDeps,
} from './context.js';
import { registerInfo } from './info.js';
import { registerMenus } from './menus.js';
import { registerRedeem } from './redeem.js';
import { handleResetPasswordCallback, registerResetPassword } from './resetpw.js';
import { handleSearchCallback, registerSearch } from './search.js';
import { registerStartHelp } from './start-help.js';
import { registerWelcome } from './welcome.js';

export type { BotContext, BotDeps } from './context.js';

/** Marks an API failure thrown out of a feature (so the boundary answers "unavailable"). */
export class UnavailableError extends Error {}

export function createBot(deps: BotDeps & { botInfo?: UserFromGetMe }): Bot {
  const bot = new Telegraf<BotContext>(deps.config.MESSENGER_BOT_TOKEN, {
    telegram: { apiRoot: deps.config.MESSENGER_API_ROOT, webhookReply: false },
    handlerTimeout: 30_000,
  });
  if (deps.botInfo) bot.botInfo = deps.botInfo;

  bot.use(async (ctx, next) => {
    const started = performance.now();
    const update = ctx.update;
    ctx.requestId = `tg-${update.update_id}`;
    ctx.lang = languageOf(ctx.from?.language_code, deps.config.BOT_LANGUAGE);
    ctx.api = deps.api.forRequest(ctx.requestId);
    ctx.answered = false;
    ctx.ignored = false;
    ctx.log = deps.logger.child({
      updateId: update.update_id,
      chatId: ctx.chat?.id,
      fromId: ctx.from?.id,
    });
    let outcome: 'ok' | 'error' | 'ignored' = 'ok';
    try {
      await next();
      if (ctx.ignored) outcome = 'ignored';
    } catch (error) {
      outcome = 'error';
      ctx.log.error({ err: error, requestId: ctx.requestId }, 'update failed');
      await apologise(ctx, deps, error);
    } finally {
      const data =
        ctx.callbackQuery && 'data' in ctx.callbackQuery ? ctx.callbackQuery.data : undefined;
      const durationMs = Math.round(performance.now() - started);
      ctx.log.info(
        {
          updateId: update.update_id,
          type: ctx.updateType,
          chatType: ctx.chat?.type,
          chatId: ctx.chat?.id,
          fromId: ctx.from?.id,
          ...(ctx.command ? { command: ctx.command } : {}),
          ...(data ? { callback: callbackLabel(data) } : {}),
          outcome,
          durationMs,
          requestId: ctx.requestId,
        },
        'update',
      );
      deps.metrics.updates.inc({ type: ctx.updateType, outcome });
      deps.metrics.updateDuration.observe({ type: ctx.updateType }, durationMs / 1000);
    }
  });

  registerStartHelp(bot, deps);
  registerBind(bot, deps);
  registerInfo(bot, deps);
  registerRedeem(bot, deps);
  registerResetPassword(bot, deps);
  registerSearch(bot, deps);
  registerMenus(bot, deps);
  registerCancel(bot, deps);
  registerWelcome(bot, deps);

  bot.on('callback_query', async (ctx) => {
    const data = 'data' in ctx.callbackQuery ? ctx.callbackQuery.data : '';
    const parsed = parseCallback(data);
    if (!parsed || !ctx.callbackQuery.message) {
      await answer(ctx, deps, plain(ctx.lang, 'common.stale'));
      ctx.ignored = true;
      return;
    }
    switch (parsed.kind) {
      case 'approve':
      case 'reject':
        return handleApprovalCallback(ctx, deps, parsed);
      case 'resetpw':
        return handleResetPasswordCallback(ctx, deps, parsed);
      default:
        return handleSearchCallback(ctx, deps, parsed);
    }
  });

  registerRejectReason(bot, deps);

  // Last: plain text in a private chat with no live dialogue gets a hint; groups are ignored.
  bot.use(async (ctx) => {
    ctx.ignored = true;
    const text = ctx.message && 'text' in ctx.message ? ctx.message.text : undefined;
    if (isPrivate(ctx) && text !== undefined && !text.startsWith('/')) {
      ctx.ignored = false;
      await reply(ctx, deps, t(ctx.lang, 'help.short'));
    }
  });

  bot.catch((error, ctx) => {
    // Only reached if the boundary itself failed; the process never exits for one update.
    deps.logger.error({ err: error, updateId: ctx.update.update_id }, 'unhandled bot error');
  });
  return bot;
}

/** The reply after a failure: unavailable or failed, and the callback still answered. */
async function apologise(ctx: BotContext, deps: BotDeps, error: unknown) {
  const text =
    error instanceof UnavailableError
      ? failureText(ctx.lang, { ok: false, kind: 'unavailable', reason: 'thrown' })
      : t(ctx.lang, 'common.failed', { code: 'INTERNAL_ERROR' });
  try {
    if (ctx.callbackQuery) await answer(ctx, deps, text.replace(/<[^>]*>/g, ''), true);
    else if (ctx.chat?.type === 'private') await reply(ctx, deps, text);
  } catch (replyError) {
    // Telegram itself failing here must not escape the boundary.
    ctx.log.warn({ err: replyError }, 'could not tell the user about a failure');
  }
}
