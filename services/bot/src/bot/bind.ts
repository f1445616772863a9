import { t } from '../format/i18n/index.js';
import { cut } from '../format/html.js';
import {
  commandArgs,
  failureText,
  reply,
  type Bot,
  type BotContext,
  type BotDeps,
} from './context.js';
import { requirePrivate } from './guards.js';

const BIND_ERRORS: Record<string, 'bind.invalid' | 'bind.telegramTaken' | 'bind.accountTaken'> = {
  BIND_CODE_INVALID: 'bind.invalid',
  MESSENGER_ID_IN_USE: 'bind.telegramTaken',
  MESSENGER_ALREADY_BOUND: 'bind.accountTaken',
};

/** Calls bind and answers; shared by `/bind` and the `/start bind_123456` deep link. */
export async function bindWithCode(ctx: BotContext, deps: BotDeps, code: string) {
  const result = await ctx.api.bind({
    messengerId: ctx.from!.id,
    code,
    languageCode: ctx.from!.language_code,
  });
  if (result.ok) {
    await reply(ctx, deps, t(ctx.lang, 'bind.ok', { username: cut(result.data.username, 64) }));
    return;
  }
  const key = result.kind === 'error' ? BIND_ERRORS[result.code] : undefined;
  await reply(ctx, deps, key ? t(ctx.lang, key) : failureText(ctx.lang, result));
}

export function registerBind(bot: Bot, deps: BotDeps) {
  bot.command('bind', async (ctx) => {
    ctx.command = 'bind';
    if (!(await requirePrivate(ctx, deps))) return;
    const args = commandArgs(ctx);
    if (args.length !== 1 || !/^\d{6}$/.test(args[0]!)) {
      await reply(ctx, deps, t(ctx.lang, 'usage.bind'));
      return;
    }
    await bindWithCode(ctx, deps, args[0]!);
  });
}
