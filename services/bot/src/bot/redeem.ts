import { t, type CatalogKey } from '../format/i18n/index.js';
import { formatTime } from '../format/values.js';
import { commandArgs, failureText, reply, type Bot, type BotDeps } from './context.js';
import { requirePrivate } from './guards.js';

/** `/redeem CODE` (40-bot.md §6.1). */
export function registerRedeem(bot: Bot, deps: BotDeps) {
  bot.command('redeem', async (ctx) => {
    ctx.command = 'redeem';
    if (!(await requirePrivate(ctx, deps))) return;
    const args = commandArgs(ctx);
    if (args.length !== 1 || !/^[A-Za-z0-9-]{4,64}$/.test(args[0]!)) {
      await reply(ctx, deps, t(ctx.lang, 'usage.redeem'));
      return;
    }
    const result = await ctx.api.redeem({
      messengerId: ctx.from.id,
      code: args[0]!,
      languageCode: ctx.from.language_code,
    });
    if (result.ok) {
      const settings = await deps.settings.get();
      await reply(
        ctx,
        deps,
        t(ctx.lang, 'redeem.ok', {
          days: result.data.days,
          expiresAt: formatTime(result.data.expiresAt, settings.timezone),
        }),
      );
      return;
    }
    let key: CatalogKey | undefined;
    if (result.kind === 'error') {
      const reason = (result.details as { reason?: string } | undefined)?.reason;
      if (result.code === 'REDEEM_CODE_ALREADY_USED') key = 'redeem.alreadyUsed';
      else if (result.code === 'REDEEM_CODE_NOT_FOUND') key = 'redeem.notFound';
      else if (result.code === 'REDEEM_CODE_INVALID') {
        key =
          reason === 'expired' || reason === 'exhausted' ? 'redeem.exhausted' : 'redeem.notFound';
      }
    }
    await reply(ctx, deps, key ? t(ctx.lang, key) : failureText(ctx.lang, result));
  });
}
