import { t } from '../format/i18n/index.js';
import { isPrivate, reply, type BotContext, type BotDeps } from './context.js';

/**
 * Private-only commands sent in a group get `common.privateOnly` with a button opening the
 * private chat. Returns whether the command may go on.
 */
export async function requirePrivate(ctx: BotContext, deps: BotDeps): Promise<boolean> {
  if (isPrivate(ctx)) return true;
  await reply(ctx, deps, t(ctx.lang, 'common.privateOnly'), {
    reply_markup: {
      inline_keyboard: [
        [{ text: t(ctx.lang, 'common.openChat'), url: `https://t.me/${ctx.botInfo.username}` }],
      ],
    },
  });
  return false;
}
