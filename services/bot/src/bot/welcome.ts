/** Group welcome (40-bot.md §8): the operator's template, deleted again after 30 s. */
import { escapeHtml, stripTags } from '../format/html.js';
import { tgCall } from '../telegram.js';
import { tgDeps, type Bot, type BotDeps } from './context.js';

export const WELCOME_DELETE_MS = 30_000;

export function registerWelcome(bot: Bot, deps: BotDeps) {
  bot.on('new_chat_members', async (ctx, next) => {
    const settings = await deps.settings.get();
    if (settings.groupChatId === null || ctx.chat.id !== settings.groupChatId) return next();
    ctx.command = 'welcome';
    const people = ctx.message.new_chat_members.filter((m) => !m.is_bot);
    const template = settings.welcomeTemplate;
    if (people.length === 0 || template.trim() === '') return;
    if (template.includes('{groupLink}') && !settings.groupLink) return;
    const names = people.map((p) => escapeHtml(p.first_name.slice(0, 64))).join(', ');
    const text = template
      .replaceAll('{names}', names)
      .replaceAll('{groupLink}', escapeHtml(settings.groupLink ?? ''));
    const tg = tgDeps(ctx, deps);
    let sent = await tgCall<{ message_id: number }>(tg, 'sendMessage', {
      chat_id: ctx.chat.id,
      text,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
    if (!sent.ok && sent.reason.toLowerCase().includes("can't parse entities")) {
      // The operator's template is broken HTML: send it as plain text rather than nothing.
      sent = await tgCall(tg, 'sendMessage', { chat_id: ctx.chat.id, text: stripTags(text) });
    }
    if (!sent.ok) return;
    const messageId = sent.result.message_id;
    const chatId = ctx.chat.id;
    const timers = deps.timers ?? { setTimeout, clearTimeout };
    // In-process only: a restart may leave the message, which is accepted (§8).
    timers.setTimeout(() => {
      void tgCall(tg, 'deleteMessage', { chat_id: chatId, message_id: messageId });
    }, WELCOME_DELETE_MS);
  });
}
