import type { Tx } from '../../db/client.js';
import { recordAudit, type AuditActor } from '../../audit-log/audit.js';
import { type MediaRequestRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { dispatchAfterApproval } from './dispatch.js';
import { notifyRequestEvent } from './events.js';
import { assertRequestId } from './dto.js';
import {
  deleteRejectReasonAction,
  deleteRequestRow,
  findRequest,
  updateRequest,
} from './queries.js';
import { withTransaction } from '../../db/transaction.js';

/** Who decides: an admin on the web, or an approver pressing a bot button. */
export interface Reviewer {
  via: 'web' | 'messenger';
  /** The Usher account of the reviewer (the admin, or the one bound to the Telegram id). */
  userId: string | null;
  messengerId: number | null;
  actor: AuditActor;
  meta: RequestMeta;
}

export interface ReviewResult {
  row: MediaRequestRow;
  /** False when the request was no longer PENDING; `row` then shows its current state. */
  changed: boolean;
}

export async function mustFind(ctx: ModuleContext, id: string): Promise<MediaRequestRow> {
  assertRequestId(id);
  const row = await findRequest(ctx.db, id);
  if (!row) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
  return row;
}

export function stateChanged(row: MediaRequestRow): AppError {
  return new AppError('REQUEST_STATE_CHANGED', `The request is already ${row.status}`, {
    details: { status: row.status },
  });
}

/**
 * The manual review's write: PENDING → `status` only while the row is still PENDING (so of two
 * reviewers exactly one wins), with its audit row in the same transaction. Undefined when the
 * request was no longer PENDING.
 */
async function decidePending(
  tx: Tx,
  id: string,
  reviewer: Reviewer,
  now: Date,
  decision: { status: 'APPROVED' } | { status: 'REJECTED'; reason: string },
) {
  const rejected = decision.status === 'REJECTED';
  const [row] = await updateRequest(
    tx,
    id,
    {
      status: decision.status,
      ...(rejected ? { rejectReason: decision.reason } : {}),
      reviewSource: 'manual',
      reviewedAt: now,
      reviewedBy: reviewer.userId,
      reviewedVia: reviewer.via,
      reviewerMessengerId: reviewer.messengerId,
      updatedAt: now,
    },
    'PENDING',
  );
  if (!row) return undefined;
  await recordAudit(tx, {
    actor: reviewer.actor,
    action: rejected ? 'request.reject' : 'request.approve',
    target: { type: 'media_request', id },
    details: {
      from: 'PENDING',
      to: decision.status,
      via: reviewer.via,
      ...(rejected ? { reason: decision.reason } : {}),
    },
    ip: reviewer.meta.ip,
    requestId: reviewer.meta.requestId,
  });
  return row;
}

/**
 * PENDING → APPROVED with `UPDATE … WHERE status='PENDING'` (10-data.md §10), so of two
 * reviewers exactly one wins. After commit: the `approved` event and the automation hand-off.
 */
export async function approveRequest(
  ctx: ModuleContext,
  id: string,
  reviewer: Reviewer,
): Promise<ReviewResult> {
  assertRequestId(id);
  const now = ctx.now();
  const updated = await withTransaction(ctx, (tx) =>
    decidePending(tx, id, reviewer, now, { status: 'APPROVED' }),
  );
  if (!updated) return { row: await mustFind(ctx, id), changed: false };
  notifyRequestEvent(ctx, id, { event: 'approved' }, reviewer.meta.requestId);
  dispatchAfterApproval(ctx, id);
  return { row: updated, changed: true };
}

/**
 * PENDING → REJECTED with the same atomic guard. A bot reject names its `reject_reason` pending
 * action, which is consumed in the same transaction whatever the outcome.
 */
export async function rejectRequest(
  ctx: ModuleContext,
  id: string,
  reason: string,
  reviewer: Reviewer,
  pendingActionId?: string,
): Promise<ReviewResult> {
  assertRequestId(id);
  const now = ctx.now();
  const updated = await withTransaction(ctx, async (tx) => {
    if (pendingActionId) {
      await deleteRejectReasonAction(tx, pendingActionId);
    }
    return decidePending(tx, id, reviewer, now, { status: 'REJECTED', reason });
  });
  if (!updated) return { row: await mustFind(ctx, id), changed: false };
  notifyRequestEvent(ctx, id, { event: 'rejected' }, reviewer.meta.requestId);
  return { row: updated, changed: true };
}

/** `DELETE /media-requests/:id`: the owner withdraws a request still waiting for review. */
export async function cancelRequest(
  ctx: ModuleContext,
  id: string,
  userId: string,
  actor: AuditActor,
  meta: RequestMeta,
): Promise<void> {
  assertRequestId(id);
  await withTransaction(ctx, async (tx) => {
    const gone = await deleteRequestRow(tx, id, userId);
    if (!gone) {
      const row = await findRequest(tx, id);
      if (!row || row.userId !== userId) {
        throw new AppError('REQUEST_NOT_FOUND', 'No such request');
      }
      throw stateChanged(row);
    }
    await recordAudit(tx, {
      actor,
      action: 'request.cancel',
      target: { type: 'media_request', id },
      details: { type: gone.type, tmdbId: gone.tmdbId, season: gone.season, name: gone.name },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}

/** `DELETE /admin/media-requests/:id`: any status. */
export async function deleteRequest(
  ctx: ModuleContext,
  id: string,
  actor: AuditActor,
  meta: RequestMeta,
): Promise<void> {
  assertRequestId(id);
  await withTransaction(ctx, async (tx) => {
    const gone = await deleteRequestRow(tx, id);
    if (!gone) throw new AppError('REQUEST_NOT_FOUND', 'No such request');
    await recordAudit(tx, {
      actor,
      action: 'request.delete',
      target: { type: 'media_request', id },
      details: {
        type: gone.type,
        tmdbId: gone.tmdbId,
        season: gone.season,
        name: gone.name,
        status: gone.status,
        requester: gone.requesterName,
      },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}
