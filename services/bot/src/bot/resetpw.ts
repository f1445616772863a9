import { callback, type ParsedCallback } from '../format/callback.js';
import { t } from '../format/i18n/index.js';
import { tgCall } from '../telegram.js';
import {
  answer,
  commandArgs,
  editText,
  failureText,
  plain,
  reply,
  tgDeps,
  type Bot,
  type BotContext,
  type BotDeps,
} from './context.js';
import { requirePrivate } from './guards.js';

export const RESETPW_TTL_SECONDS = 300;

/** `/resetpw` with its confirmation (40-bot.md §6.5). The password is never logged or kept. */
export function registerResetPassword(bot: Bot, deps: BotDeps) {
  bot.command('resetpw', async (ctx) => {
    ctx.command = 'resetpw';
    if (!(await requirePrivate(ctx, deps))) return;
    if (commandArgs(ctx).length > 0) await reply(ctx, deps, t(ctx.lang, 'usage.resetpwArgs'));
    const account = await ctx.api.lookup({
      messengerId: ctx.from.id,
      languageCode: ctx.from.language_code,
    });
    if (!account.ok) {
      await reply(ctx, deps, failureText(ctx.lang, account));
      return;
    }
    const state = await ctx.api.createPending({
      kind: 'resetpw',
      chatId: ctx.chat.id,
      messengerUserId: ctx.from.id,
      payload: { step: 'confirm' },
      ttlSeconds: RESETPW_TTL_SECONDS,
    });
    if (!state.ok) {
      await reply(ctx, deps, failureText(ctx.lang, state));
      return;
    }
    await reply(ctx, deps, t(ctx.lang, 'resetpw.confirm'), {
      reply_markup: {
        inline_keyboard: [
          [
            {
              text: t(ctx.lang, 'resetpw.resetNow'),
              callback_data: callback.resetpw(state.data.id, 'ok'),
            },
            {
              text: t(ctx.lang, 'button.cancel'),
              callback_data: callback.resetpw(state.data.id, 'x'),
            },
          ],
        ],
      },
    });
  });
}

export async function handleResetPasswordCallback(
  ctx: BotContext,
  deps: BotDeps,
  data: Extract<ParsedCallback, { kind: 'resetpw' }>,
) {
  const messageId = ctx.callbackQuery!.message!.message_id;
  // The delete is the atomic claim: a second tap (on any replica) finds nothing.
  const claimed = await ctx.api.deletePending(data.stateId);
  if (!claimed.ok) {
    if (claimed.kind === 'error' && claimed.status === 404) {
      await answer(ctx, deps, plain(ctx.lang, 'common.stale'));
      await tgCall(tgDeps(ctx, deps), 'editMessageReplyMarkup', {
        chat_id: ctx.chat!.id,
        message_id: messageId,
        reply_markup: { inline_keyboard: [] },
      });
    } else {
      await answer(ctx, deps, plain(ctx.lang, 'common.unavailable'), true);
    }
    return;
  }
  if (data.action === 'x') {
    await answer(ctx, deps);
    await editText(ctx, deps, messageId, t(ctx.lang, 'common.cancelled'));
    return;
  }
  await answer(ctx, deps);
  const result = await ctx.api.resetPassword({
    messengerId: ctx.from!.id,
    languageCode: ctx.from!.language_code,
  });
  if (!result.ok) {
    await editText(ctx, deps, messageId, failureText(ctx.lang, result));
    return;
  }
  await editText(ctx, deps, messageId, t(ctx.lang, 'resetpw.started'));
  const settings = await deps.settings.get();
  const change = settings.webUrl
    ? t(ctx.lang, 'resetpw.change', { webUrl: `${settings.webUrl}/console/account` })
    : t(ctx.lang, 'resetpw.changeNoUrl');
  await reply(
    ctx,
    deps,
    `${t(ctx.lang, 'resetpw.done', { password: result.data.password })}\n${change}`,
  );
}
