/** Command menus only in private chats (40-bot.md §6.3) and `/refresh_menu`. */
import type { Telegram } from 'telegraf';
import type { Lang } from '../config.js';
import { t } from '../format/i18n/index.js';
import { tgCall, type TelegramDeps } from '../telegram.js';
import { isApprover, reply, tgDeps, type Bot, type BotDeps } from './context.js';

const MENU = ['search', 'info', 'redeem', 'bind', 'resetpw', 'help'] as const;

function commands(lang: Lang) {
  return MENU.map((command) => ({ command, description: t(lang, `menu.${command}`) }));
}

/** setMyCommands for private chats (default language, en, zh); deletes every group scope. */
export async function syncMenus(deps: TelegramDeps, defaultLang: Lang): Promise<boolean> {
  const scope = { type: 'all_private_chats' };
  const calls = [
    tgCall(deps, 'setMyCommands', { commands: commands(defaultLang), scope }),
    tgCall(deps, 'setMyCommands', { commands: commands('en'), scope, language_code: 'en' }),
    tgCall(deps, 'setMyCommands', { commands: commands('zh-CN'), scope, language_code: 'zh' }),
    ...['default', 'all_group_chats', 'all_chat_administrators'].map((type) =>
      tgCall(deps, 'deleteMyCommands', { scope: { type } }),
    ),
  ];
  const results = await Promise.all(calls);
  return results.every((r) => r.ok);
}

export function telegramDeps(telegram: Telegram, deps: BotDeps): TelegramDeps {
  return { telegram, metrics: deps.metrics, logger: deps.logger, sleep: deps.sleep };
}

export function registerMenus(bot: Bot, deps: BotDeps) {
  bot.command('refresh_menu', async (ctx) => {
    ctx.command = 'refresh_menu';
    const settings = await deps.settings.get();
    let allowed = await isApprover(ctx, deps, settings, ctx.from.id);
    const group = ctx.chat.type === 'group' || ctx.chat.type === 'supergroup';
    if (!allowed && group) {
      const [me, them] = await Promise.all([
        tgCall<{ status: string }>(tgDeps(ctx, deps), 'getChatMember', {
          chat_id: ctx.chat.id,
          user_id: ctx.botInfo.id,
        }),
        tgCall<{ status: string }>(tgDeps(ctx, deps), 'getChatMember', {
          chat_id: ctx.chat.id,
          user_id: ctx.from.id,
        }),
      ]);
      const admin = (r: typeof me) =>
        r.ok && (r.result.status === 'creator' || r.result.status === 'administrator');
      allowed = admin(me) && admin(them);
    }
    if (!allowed) {
      await reply(ctx, deps, t(ctx.lang, 'common.noPermission'));
      return;
    }
    await syncMenus(tgDeps(ctx, deps), deps.config.BOT_LANGUAGE);
    if (group) {
      await tgCall(tgDeps(ctx, deps), 'deleteMyCommands', {
        scope: { type: 'chat', chat_id: ctx.chat.id },
      });
      await tgCall(tgDeps(ctx, deps), 'deleteMyCommands', {
        scope: { type: 'chat_administrators', chat_id: ctx.chat.id },
      });
    }
    await reply(ctx, deps, t(ctx.lang, 'menu.refreshed'));
  });
}
