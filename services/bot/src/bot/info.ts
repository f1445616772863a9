import { infoCard } from '../format/cards.js';
import { failureText, reply, type Bot, type BotDeps } from './context.js';
import { requirePrivate } from './guards.js';

/** `/info`: the account card (40-bot.md §6.1). */
export function registerInfo(bot: Bot, deps: BotDeps) {
  bot.command('info', async (ctx) => {
    ctx.command = 'info';
    if (!(await requirePrivate(ctx, deps))) return;
    const [account, settings] = await Promise.all([
      ctx.api.lookup({ messengerId: ctx.from.id, languageCode: ctx.from.language_code }),
      deps.settings.get(),
    ]);
    if (!account.ok) {
      await reply(ctx, deps, failureText(ctx.lang, account));
      return;
    }
    await reply(ctx, deps, infoCard(account.data, ctx.lang, settings.timezone));
  });
}
