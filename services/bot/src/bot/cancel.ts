/** `/cancel` ends the caller's live dialogue in this chat (40-bot.md §6.1). */
import { t } from '../format/i18n/index.js';
import { failureText, reply, type Bot, type BotDeps } from './context.js';

const KINDS = ['reject_reason', 'search', 'resetpw'] as const;

export function registerCancel(bot: Bot, deps: BotDeps) {
  bot.command('cancel', async (ctx) => {
    ctx.command = 'cancel';
    const settings = await deps.settings.get();
    if (ctx.chat.type !== 'private' && ctx.chat.id !== settings.adminChatId) return;
    let cancelled = false;
    for (const kind of KINDS) {
      const found = await ctx.api.findPending({
        kind,
        chatId: ctx.chat.id,
        messengerUserId: ctx.from.id,
      });
      if (!found.ok) {
        if (found.kind === 'error' && found.status === 404) continue;
        await reply(ctx, deps, failureText(ctx.lang, found));
        return;
      }
      const deleted = await ctx.api.deletePending(found.data.id);
      if (deleted.ok) cancelled = true;
    }
    await reply(ctx, deps, t(ctx.lang, cancelled ? 'common.cancelled' : 'common.nothing'));
  });
}
