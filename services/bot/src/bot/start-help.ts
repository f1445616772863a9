import { t } from '../format/i18n/index.js';
import { cut } from '../format/html.js';
import { bindWithCode } from './bind.js';
import { commandArgs, reply, type Bot, type BotDeps } from './context.js';
import { requirePrivate } from './guards.js';

/** `/start [bind_<6 digits>]` and `/help` (40-bot.md §6.1–6.2). */
export function registerStartHelp(bot: Bot, deps: BotDeps) {
  bot.start(async (ctx) => {
    ctx.command = 'start';
    if (!(await requirePrivate(ctx, deps))) return;
    const payload = commandArgs(ctx)[0] ?? '';
    const deepLink = /^bind_(\d{6})$/.exec(payload);
    if (deepLink) {
      await bindWithCode(ctx, deps, deepLink[1]!);
      return;
    }
    const name = cut(ctx.from.first_name || ctx.from.username || '', 64);
    await reply(
      ctx,
      deps,
      `${t(ctx.lang, 'start.hello', { name })}\n\n${t(ctx.lang, 'help.body')}`,
    );
  });

  bot.help(async (ctx) => {
    ctx.command = 'help';
    if (!(await requirePrivate(ctx, deps))) return;
    await reply(ctx, deps, t(ctx.lang, 'help.body'));
  });
}
