import type { NotifyReviewer } from '@usher/contracts';
import { type MediaRequestRow } from '../../db/schema/index.js';
import type { NotifyPayload, NotifyResult } from '../../notify/notifier.js';
import type { ModuleContext } from '../context.js';
import { toNotifyItem } from './dto.js';
import { editableAdminMessages, findRequest, markAdminMessage, notifyUser } from './queries.js';

type Extra =
  | { event: 'created' }
  | { event: 'auto_approved'; quota: { usedToday: number; dailyLimit: number } | null }
  | { event: 'approved' }
  | { event: 'rejected' }
  | { event: 'ingested' };

/**
 * Pushes `/notify/subscription` for a committed change (20-api.md §1.7). The body is built from
 * the stored row in the background, so the originating request never waits for it.
 */
export function notifyRequestEvent(
  ctx: ModuleContext,
  requestId: string,
  extra: Extra,
  httpRequestId?: string,
): void {
  ctx.background.run(`notify:${extra.event}`, async () => {
    const body = await buildEvent(ctx, requestId, extra);
    if (!body) return;
    ctx.notify.push('subscription', body, {
      requestId: httpRequestId,
      onResult: (result) => recordDeliveries(ctx, requestId, result),
    });
  });
}

type Payload = NotifyPayload<'subscription'>;

async function buildEvent(
  ctx: ModuleContext,
  requestId: string,
  extra: Extra,
): Promise<Payload | undefined> {
  const row = await findRequest(ctx.db, requestId);
  // Deleted meanwhile (cancel, admin delete): there is nothing left to announce.
  if (!row) return undefined;
  const requester = row.userId ? await userById(ctx, row.userId) : null;
  const subscription = toNotifyItem(row, requester ?? null);
  const reviewedAt = (row.reviewedAt ?? ctx.now()).toISOString();
  switch (extra.event) {
    case 'created':
      return { event: 'created', subscription };
    case 'auto_approved':
      return { event: 'auto_approved', subscription, quota: extra.quota, reviewedAt };
    case 'approved':
      return {
        event: 'approved',
        subscription,
        reviewedAt,
        reviewer: await reviewerOf(ctx, row),
        adminMessages: await editableAdminMessages(ctx.db, row.id),
      };
    case 'rejected':
      return {
        event: 'rejected',
        subscription,
        reviewedAt,
        reviewer: await reviewerOf(ctx, row),
        reason: row.rejectReason ?? '',
        adminMessages: await editableAdminMessages(ctx.db, row.id),
      };
    case 'ingested': {
      const progress = row.type === 'TV' ? row.ingestProgress : null;
      return {
        event: 'ingested',
        subscription,
        ingestedAt: (row.ingestedAt ?? ctx.now()).toISOString(),
        progress: progress ? `${progress.have}/${progress.total}` : null,
        adminMessages: await editableAdminMessages(ctx.db, row.id),
      };
    }
  }
}

function userById(ctx: ModuleContext, id: string) {
  return notifyUser(ctx.db, id);
}

async function reviewerOf(ctx: ModuleContext, row: MediaRequestRow): Promise<NotifyReviewer> {
  const source = row.reviewedVia === 'messenger' ? 'messenger' : 'web';
  const reviewer = row.reviewedBy ? await userById(ctx, row.reviewedBy) : undefined;
  if (reviewer) return { source, name: reviewer.username };
  if (row.reviewerMessengerId !== null) {
    return { source, name: `messenger:${row.reviewerMessengerId}` };
  }
  return { source, name: 'admin' };
}

/**
 * Best-effort read of the bot's reply (20-api.md §1.7): admin copies it could not edit are
 * marked, so later events stop trying (`gone` → deleted) or show the failure (`failed`).
 */
async function recordDeliveries(
  ctx: ModuleContext,
  requestId: string,
  result: NotifyResult,
): Promise<void> {
  for (const d of result.deliveries) {
    if (d.to !== 'adminCopy' || d.chatId === null || d.messageId === undefined) continue;
    const status = d.status === 'gone' ? 'deleted' : d.status === 'failed' ? 'edit_failed' : null;
    if (!status) continue;
    await markAdminMessage(
      ctx.db,
      { requestId, chatId: d.chatId, messageId: d.messageId },
      {
        deliveryStatus: status,
        failureReason: d.reason?.slice(0, 500) ?? null,
        updatedAt: ctx.now(),
      },
    );
  }
}
