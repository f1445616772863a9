/**
 * Approve / reject buttons on approval cards and the reject-reason dialogue (40-bot.md §7.2).
 * The reason prompt is an API pending action, so the reply may reach any replica.
 */
import type { ParsedCallback } from '../format/callback.js';
import { cut } from '../format/html.js';
import { t } from '../format/i18n/index.js';
import type { ApiFailure } from '../api-client.js';
import type { AdminRequestView } from '../api-schemas.js';
import {
  answer,
  failureText,
  isApprover,
  plain,
  reply,
  tgDeps,
  type Bot,
  type BotContext,
  type BotDeps,
} from './context.js';
import { cardFromRequest, editCopy, finalStateOf } from './copies.js';

export const REJECT_TTL_SECONDS = 300;
const REASON_MAX = 500;

const statusLabel = (ctx: BotContext, status: string) =>
  ['PENDING', 'APPROVED', 'REJECTED', 'INGESTED'].includes(status)
    ? plain(ctx.lang, `requestStatus.${status}` as 'requestStatus.PENDING')
    : status;

function presserName(ctx: BotContext) {
  return ctx.from!.username ? `@${ctx.from!.username}` : ctx.from!.first_name;
}

/** Edits the pressed copy to the request's current final state. */
async function editPressedCopy(ctx: BotContext, deps: BotDeps, request: AdminRequestView) {
  const final = finalStateOf(request, presserName(ctx));
  const message = ctx.callbackQuery!.message! as { message_id: number; photo?: unknown };
  if (!final) return;
  const settings = await deps.settings.get();
  await editCopy(
    tgDeps(ctx, deps),
    { chatId: ctx.chat!.id, messageId: message.message_id, hasPhoto: Boolean(message.photo) },
    cardFromRequest(request),
    deps.config.BOT_LANGUAGE,
    settings.timezone,
    final,
  );
}

/** The title shown on a card (`📌 <title> (year)`), for the reason prompt. */
function titleFromCard(ctx: BotContext): string {
  const message = ctx.callbackQuery!.message! as { text?: string; caption?: string };
  const line = (message.text ?? message.caption ?? '').split('\n').find((l) => l.startsWith('📌 '));
  return line ? line.slice(3).replace(/ \(\d{4}\)$/, '') : '';
}

async function stateChangedAlert(ctx: BotContext, deps: BotDeps, failure: ApiFailure) {
  const status =
    failure.kind === 'error' ? String((failure.details as { status?: string })?.status ?? '') : '';
  await answer(
    ctx,
    deps,
    plain(ctx.lang, 'approval.alreadyHandled', { status: statusLabel(ctx, status) }),
    true,
  );
}

export async function handleApprovalCallback(
  ctx: BotContext,
  deps: BotDeps,
  data: Extract<ParsedCallback, { kind: 'approve' | 'reject' }>,
) {
  const settings = await deps.settings.get();
  if (!(await isApprover(ctx, deps, settings, ctx.from!.id))) {
    await answer(ctx, deps, plain(ctx.lang, 'common.noPermission'), true);
    return;
  }
  if (data.kind === 'approve') {
    const result = await ctx.api.approve(data.requestId, ctx.from!.id);
    if (result.ok) {
      if (result.data.changed) {
        await answer(ctx, deps, plain(ctx.lang, 'approval.approvedToast'));
      } else {
        const label = statusLabel(ctx, result.data.request.status);
        await answer(
          ctx,
          deps,
          plain(ctx.lang, 'approval.alreadyHandled', { status: label }),
          true,
        );
      }
      await editPressedCopy(ctx, deps, result.data.request);
      return;
    }
    if (result.kind === 'error' && result.code === 'REQUEST_STATE_CHANGED') {
      await stateChangedAlert(ctx, deps, result);
      return;
    }
    if (result.kind === 'error' && result.code === 'NOT_AN_APPROVER') {
      await answer(ctx, deps, plain(ctx.lang, 'common.noPermission'), true);
      return;
    }
    await answer(ctx, deps, failureText(ctx.lang, result).replace(/<[^>]*>/g, ''), true);
    return;
  }

  const message = ctx.callbackQuery!.message! as { message_id: number; photo?: unknown };
  const title = titleFromCard(ctx);
  const state = await ctx.api.createPending({
    kind: 'reject_reason',
    chatId: ctx.chat!.id,
    messengerUserId: ctx.from!.id,
    payload: {
      subscriptionId: data.requestId,
      title,
      messageId: message.message_id,
      hasPhoto: Boolean(message.photo),
    },
    ttlSeconds: REJECT_TTL_SECONDS,
  });
  if (!state.ok) {
    await answer(ctx, deps, failureText(ctx.lang, state).replace(/<[^>]*>/g, ''), true);
    return;
  }
  await answer(ctx, deps);
  const mention =
    ctx.chat!.type === 'private'
      ? ''
      : `<a href="tg://user?id=${ctx.from!.id}">${cut(presserName(ctx), 64).replace(/[<>&"]/g, '')}</a> `;
  await reply(
    ctx,
    deps,
    `${mention}${t(ctx.lang, 'approval.askReason', { title: cut(title, 160) })}`,
    {
      reply_markup: { force_reply: true, selective: true },
    },
  );
}

/** The reason: the next non-command text of that admin in that chat. */
export function registerRejectReason(bot: Bot, deps: BotDeps) {
  bot.on('text', async (ctx, next) => {
    const text = ctx.message.text;
    if (text.startsWith('/')) return next();
    const settings = await deps.settings.get();
    const replyToBot = ctx.message.reply_to_message?.from?.id === ctx.botInfo.id;
    if (ctx.chat.type !== 'private' && ctx.chat.id !== settings.adminChatId && !replyToBot)
      return next();
    const found = await ctx.api.findPending({
      kind: 'reject_reason',
      chatId: ctx.chat.id,
      messengerUserId: ctx.from.id,
    });
    if (!found.ok) {
      if (found.kind === 'error' && found.status === 404) return next();
      await reply(ctx, deps, failureText(ctx.lang, found));
      return;
    }
    ctx.command = 'reject_reason';
    const reason = text.trim();
    if (reason === '') {
      await reply(ctx, deps, t(ctx.lang, 'approval.emptyReason'));
      return;
    }
    const payload = found.data.payload as { subscriptionId: string };
    const result = await ctx.api.reject(payload.subscriptionId, {
      approverMessengerId: ctx.from.id,
      reason: cut(reason, REASON_MAX).slice(0, REASON_MAX),
      pendingActionId: found.data.id,
    });
    if (result.ok) {
      await reply(
        ctx,
        deps,
        t(ctx.lang, result.data.changed ? 'approval.rejected' : 'approval.alreadyRejected'),
      );
      return;
    }
    if (result.kind === 'error' && result.code === 'REQUEST_STATE_CHANGED') {
      await reply(ctx, deps, t(ctx.lang, 'approval.alreadyApproved'));
      return;
    }
    if (result.kind === 'error' && result.code === 'NOT_AN_APPROVER') {
      await reply(ctx, deps, t(ctx.lang, 'common.noPermission'));
      return;
    }
    await reply(ctx, deps, failureText(ctx.lang, result));
  });
}
