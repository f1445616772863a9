// The admin review table's actions (routes/admin.ts, 20-api.md §6 "Media requests"): each acts as
// the signed-in admin through the web, then answers with the request as the table shows it.
import type { Caller, ModuleContext } from '../context.js';
import { redispatch } from './dispatch.js';
import { verifyIngest } from './ingest.js';
import { dispatchCandidate } from './manual.js';
import {
  approveRequest,
  rejectRequest,
  stateChanged,
  type Reviewer,
  type ReviewResult,
} from './review.js';
import { adminView } from './service.js';

/** The admin as a reviewer on the web. */
const reviewer = ({ auth, actor, meta }: Caller): Reviewer => ({
  via: 'web',
  userId: auth.userId,
  messengerId: null,
  actor,
  meta,
});

/** The reply of an action: the request as the table now shows it. */
async function viewAfter(ctx: ModuleContext, id: string) {
  return { request: await adminView(ctx, id) };
}

/** A decision that found the request no longer pending is `REQUEST_STATE_CHANGED`. */
async function decided(ctx: ModuleContext, id: string, decision: Promise<ReviewResult>) {
  const result = await decision;
  if (!result.changed) throw stateChanged(result.row);
  return viewAfter(ctx, id);
}

export const approveFromTable = (ctx: ModuleContext, id: string, caller: Caller) =>
  decided(ctx, id, approveRequest(ctx, id, reviewer(caller)));

export const rejectFromTable = (ctx: ModuleContext, id: string, reason: string, caller: Caller) =>
  decided(ctx, id, rejectRequest(ctx, id, reason, reviewer(caller)));

export async function redispatchFromTable(ctx: ModuleContext, id: string, caller: Caller) {
  await redispatch(ctx, id, caller.actor, caller.meta);
  return viewAfter(ctx, id);
}

export async function dispatchFromTable(
  ctx: ModuleContext,
  id: string,
  candidateIndex: number,
  caller: Caller,
) {
  await dispatchCandidate(ctx, id, candidateIndex, caller.actor, caller.meta);
  return { ...(await viewAfter(ctx, id)), accepted: true as const };
}

export async function verifyFromTable(ctx: ModuleContext, id: string, caller: Caller) {
  const { progress } = await verifyIngest(ctx, id, { actor: caller.actor, meta: caller.meta });
  return { ...(await viewAfter(ctx, id)), progress };
}
