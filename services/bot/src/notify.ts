/**
 * API events → Telegram messages (40-bot.md §2.2–2.4, §7.1). Each handler returns the deliveries;
 * at most 4 Telegram calls run at once and the whole send has a 10 s deadline.
 */
import type {
  Delivery,
  NotifyMember,
  NotifyPayment,
  NotifyRanking,
  NotifyRegistration,
  NotifySubscription,
} from '@usher/contracts';
import type { Logger } from 'pino';
import type { ApiCalls } from './api-client.js';
import type { AdminMessageInput } from './api-schemas.js';
import { editCopy } from './bot/copies.js';
import type { BotConfig, Lang } from './config.js';
import {
  approvalCard,
  autoApprovedCard,
  paymentMessage,
  rankingMessage,
  registrationMessage,
  requesterMessage,
  type FinalState,
} from './format/cards.js';
import { callback } from './format/callback.js';
import { escapeHtml } from './format/html.js';
import { t } from './format/i18n/index.js';
import type { BotSettings, SettingsCache } from './settings.js';
import { tgCall, type TelegramDeps, type TgOutcome } from './telegram.js';

export const NOTIFY_CONCURRENCY = 4;
export const NOTIFY_DEADLINE_MS = 10_000;

export interface NotifyDeps {
  config: BotConfig;
  telegram: TelegramDeps;
  settings: SettingsCache;
  logger: Logger;
  api: ApiCalls;
  deadlineMs?: number;
}

/** Runs tasks with at most `limit` at once; tasks not started by the deadline are `failed`. */
async function runLimited<T>(
  tasks: (() => Promise<T>)[],
  limit: number,
  deadlineAt: number,
  late: (i: number) => T,
) {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      // A send still running at the deadline is reported failed; it finishes in the background.
      results[i] =
        Date.now() > deadlineAt ? late(i) : await withDeadline(tasks[i]!(), deadlineAt, late(i));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function withDeadline<T>(promise: Promise<T>, deadlineAt: number, onTimeout: T): Promise<T> {
  const left = deadlineAt - Date.now();
  if (left <= 0) return Promise.resolve(onTimeout);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout), left);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function sentDelivery(
  to: Delivery['to'],
  chatId: number,
  outcome: TgOutcome<{ message_id?: number }>,
  extra: Partial<Delivery> = {},
  okStatus: Delivery['status'] = 'sent',
): Delivery {
  if (outcome.ok) {
    return {
      to,
      chatId,
      status: okStatus,
      ...extra,
      ...(outcome.result?.message_id ? { messageId: outcome.result.message_id } : {}),
    };
  }
  return { to, chatId, status: outcome.status, reason: outcome.reason, ...extra };
}

/** A card to one chat: photo with caption when there is a poster, else (or on refusal) text. */
async function sendCard(
  deps: NotifyDeps,
  settings: BotSettings,
  chatId: number,
  card: { caption: string | null; text: string },
  posterPath: string | null,
  keyboard: unknown[][] | null,
): Promise<{ outcome: TgOutcome<{ message_id: number }>; hasPhoto: boolean }> {
  const markup = keyboard ? { reply_markup: { inline_keyboard: keyboard } } : {};
  if (posterPath && card.caption !== null) {
    const photo = await tgCall<{ message_id: number }>(deps.telegram, 'sendPhoto', {
      chat_id: chatId,
      photo: `${settings.imageBase}/w500${posterPath}`,
      caption: card.caption,
      parse_mode: 'HTML',
      ...markup,
    });
    // Blocked or missing chats fail the same way for text; anything else (a refused photo) falls
    // back to a text message.
    if (
      photo.ok ||
      photo.status === 'blocked' ||
      photo.reason.toLowerCase().includes('chat not found')
    ) {
      return { outcome: photo, hasPhoto: photo.ok };
    }
  }
  const text = await tgCall<{ message_id: number }>(deps.telegram, 'sendMessage', {
    chat_id: chatId,
    text: card.text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...markup,
  });
  return { outcome: text, hasPhoto: false };
}

/** Who gets approval cards (§5): the approvers, or the admin chat by the fallback rule. */
function approverTargets(
  settings: BotSettings,
): { chatId: number; approverMessengerId?: number }[] {
  if (settings.approverIds.length > 0) {
    return settings.approverIds.map((id) => ({ chatId: id, approverMessengerId: id }));
  }
  if (settings.adminChatId === null) return [];
  if (settings.approverFallback === 'admin_user') {
    return [{ chatId: settings.adminChatId, approverMessengerId: settings.adminChatId }];
  }
  if (settings.approverFallback === 'admin_group') return [{ chatId: settings.adminChatId }];
  return [];
}

async function dmRequester(
  deps: NotifyDeps,
  body: NotifySubscription,
  kind: 'approved' | 'auto_approved' | 'rejected' | 'ingested',
): Promise<Delivery> {
  const requester = body.subscription.requester;
  if (requester.messengerId === null) {
    return { to: 'requester', chatId: null, status: 'skipped', reason: 'requester_not_bound' };
  }
  const lang: Lang = requester.locale ?? deps.config.BOT_LANGUAGE;
  const reason = body.event === 'rejected' ? body.reason : undefined;
  const outcome = await tgCall<{ message_id: number }>(deps.telegram, 'sendMessage', {
    chat_id: requester.messengerId,
    text: requesterMessage(body.subscription, lang, kind, reason),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  });
  return sentDelivery('requester', requester.messengerId, outcome);
}

export async function notifySubscription(
  deps: NotifyDeps,
  body: NotifySubscription,
): Promise<Delivery[]> {
  const settings = await deps.settings.get();
  const lang = deps.config.BOT_LANGUAGE;
  const deadlineAt = Date.now() + (deps.deadlineMs ?? NOTIFY_DEADLINE_MS);
  const s = body.subscription;
  const late = (to: Delivery['to'], chatId: number | null) => (): Delivery => ({
    to,
    chatId,
    status: 'failed',
    reason: 'deadline',
  });

  if (body.event === 'created' || body.event === 'auto_approved') {
    const targets = approverTargets(settings);
    const card =
      body.event === 'created'
        ? approvalCard(s, lang, settings.timezone)
        : autoApprovedCard(s, lang, settings.timezone, body.quota, body.reviewedAt);
    const keyboard =
      body.event === 'created'
        ? [
            [
              { text: t(lang, 'button.approve'), callback_data: callback.approve(s.id) },
              { text: t(lang, 'button.reject'), callback_data: callback.reject(s.id) },
            ],
          ]
        : null;
    const sends = targets.map((target) => async (): Promise<Delivery> => {
      const { outcome, hasPhoto } = await sendCard(
        deps,
        settings,
        target.chatId,
        card,
        s.posterPath,
        keyboard,
      );
      return sentDelivery('approver', target.chatId, outcome, { hasPhoto });
    });
    const tasks = [...sends];
    if (body.event === 'auto_approved') tasks.push(() => dmRequester(deps, body, 'auto_approved'));
    const deliveries = await runLimited(tasks, NOTIFY_CONCURRENCY, deadlineAt, (i) =>
      i < targets.length ? late('approver', targets[i]!.chatId)() : late('requester', null)(),
    );
    if (targets.length === 0) {
      deliveries.unshift({
        to: 'approver',
        chatId: null,
        status: 'skipped',
        reason: 'chat_not_configured',
      });
    }
    if (body.event === 'created' && targets.length > 0) {
      const messages: AdminMessageInput[] = targets.map((target, i) => {
        const d = deliveries[i]!;
        const ok = d.status === 'sent' && d.messageId !== undefined;
        return {
          ...(target.approverMessengerId !== undefined && target.approverMessengerId > 0
            ? { approverMessengerId: target.approverMessengerId }
            : {}),
          chatId: target.chatId,
          ...(ok ? { messageId: d.messageId } : {}),
          hasPhoto: ok ? Boolean(d.hasPhoto) : false,
          status: ok ? 'sent' : 'send_failed',
          ...(ok ? {} : { reason: (d.reason ?? d.status).slice(0, 500) }),
        };
      });
      const recorded = await deps.api.recordAdminMessages(s.id, messages);
      if (!recorded.ok)
        deps.logger.warn({ requestId: s.id }, 'could not record the approval copies');
    }
    return deliveries;
  }

  const final: FinalState =
    body.event === 'approved'
      ? { kind: 'approved', name: body.reviewer.name, at: body.reviewedAt }
      : body.event === 'rejected'
        ? { kind: 'rejected', name: body.reviewer.name, at: body.reviewedAt, reason: body.reason }
        : { kind: 'available', at: body.ingestedAt };
  const edits = body.adminMessages.map((copy) => async (): Promise<Delivery> => {
    const outcome = await editCopy(deps.telegram, copy, s, lang, settings.timezone, final);
    return sentDelivery(
      'adminCopy',
      copy.chatId,
      outcome as TgOutcome<{ message_id?: number }>,
      { messageId: copy.messageId, hasPhoto: copy.hasPhoto },
      'edited',
    );
  });
  const dm = () => dmRequester(deps, body, body.event);
  const deliveries = await runLimited([dm, ...edits], NOTIFY_CONCURRENCY, deadlineAt, (i) =>
    i === 0 ? late('requester', null)() : late('adminCopy', body.adminMessages[i - 1]!.chatId)(),
  );
  // The message id of an edit is the copy's own, not Telegram's echo.
  return deliveries.map((d, i) =>
    i === 0 ? d : { ...d, messageId: body.adminMessages[i - 1]!.messageId },
  );
}

async function sendText(
  deps: NotifyDeps,
  to: Delivery['to'],
  chatId: number | null,
  text: string,
  deadlineAt: number,
  keyboard?: { text: string; url: string }[][],
): Promise<Delivery> {
  if (chatId === null)
    return { to, chatId: null, status: 'skipped', reason: 'chat_not_configured' };
  const outcome = await withDeadline(
    tgCall<{ message_id: number }>(deps.telegram, 'sendMessage', {
      chat_id: chatId,
      text,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(keyboard ? { reply_markup: { inline_keyboard: keyboard } } : {}),
    }),
    deadlineAt,
    { ok: false, status: 'failed', code: 0, reason: 'deadline' } as TgOutcome<{
      message_id: number;
    }>,
  );
  return sentDelivery(to, chatId, outcome);
}

export async function notifyRegistration(
  deps: NotifyDeps,
  body: NotifyRegistration,
): Promise<Delivery[]> {
  const settings = await deps.settings.get();
  const text = registrationMessage(body, deps.config.BOT_LANGUAGE, settings.timezone);
  const deadlineAt = Date.now() + (deps.deadlineMs ?? NOTIFY_DEADLINE_MS);
  return [await sendText(deps, 'adminChat', settings.adminChatId, text, deadlineAt)];
}

export async function notifyPayment(deps: NotifyDeps, body: NotifyPayment): Promise<Delivery[]> {
  const settings = await deps.settings.get();
  const text = paymentMessage(body, deps.config.BOT_LANGUAGE, settings.timezone);
  const deadlineAt = Date.now() + (deps.deadlineMs ?? NOTIFY_DEADLINE_MS);
  return [await sendText(deps, 'adminChat', settings.adminChatId, text, deadlineAt)];
}

export async function notifyRanking(deps: NotifyDeps, body: NotifyRanking): Promise<Delivery[]> {
  const settings = await deps.settings.get();
  const text = rankingMessage(body, deps.config.BOT_LANGUAGE);
  const deadlineAt = Date.now() + (deps.deadlineMs ?? NOTIFY_DEADLINE_MS);
  if (settings.groupChatId !== null) {
    return [await sendText(deps, 'groupChat', settings.groupChatId, text, deadlineAt)];
  }
  return [await sendText(deps, 'adminChat', settings.adminChatId, text, deadlineAt)];
}

/**
 * A direct message to one member (a membership reminder, or an admin's test). The API wrote the
 * text in the member's language; the bot only escapes it, since it is plain text. A reminder
 * with `renewUrl` carries a **Renew** button that opens the member's renewal page.
 */
export async function notifyMember(deps: NotifyDeps, body: NotifyMember): Promise<Delivery[]> {
  const deadlineAt = Date.now() + (deps.deadlineMs ?? NOTIFY_DEADLINE_MS);
  const keyboard = body.renewUrl
    ? [[{ text: t(body.locale, 'notify.member.renew'), url: body.renewUrl }]]
    : undefined;
  const text = escapeHtml(body.text);
  return [await sendText(deps, 'member', body.messengerId, text, deadlineAt, keyboard)];
}
