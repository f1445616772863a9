// Plans: the admin's catalogue (create, edit, reorder, withdraw) and the member's view of it.
import {
  priceIssue,
  type CreatePlan,
  type MemberPlans,
  type Plan,
  type PlanOrder,
  type UpdatePlan,
} from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { auditCaller, recordAudit } from '../../audit-log/audit.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import { paymentsEnabled } from './enabled.js';
import {
  expirePending,
  insertPlan,
  listActivePlans,
  lockActivePlans,
  lockPlan,
  resumablePayments,
  setPlanOrder,
  toPlan,
  updatePlanRow,
} from './queries.js';
import { expireSessionsLater } from './sessions.js';

export const planNotFound = () => new AppError('PLAN_NOT_FOUND', 'No such plan');
const isUuid = (id: string) => z.uuid().safeParse(id).success;

function assertPrice(price: number, currency: string): void {
  const issue = priceIssue(price, currency);
  if (issue) {
    throw new AppError('VALIDATION_FAILED', 'The request is not valid', {
      details: [{ path: 'price', message: issue }],
    });
  }
}

export async function createPlan(
  ctx: ModuleContext,
  input: Required<CreatePlan>,
  caller: Caller,
): Promise<Plan> {
  const row = await withTransaction(ctx, async (tx) => {
    const created = await insertPlan(tx, { id: uuidv7(), ...input });
    await auditCaller(tx, caller, 'plan.create', { type: 'plan', id: created.id }, { ...input });
    return created;
  });
  return toPlan(row);
}

/**
 * Edits a plan. Price changes leave pending payments alone (they carry snapshots); switching
 * `isActive` off withdraws the plan: its pending payments expire with their Stripe sessions.
 */
export async function updatePlan(
  ctx: ModuleContext,
  id: string,
  patch: UpdatePlan,
  caller: Caller,
  action: 'plan.update' | 'plan.withdraw' = 'plan.update',
): Promise<Plan> {
  if (!isUuid(id)) throw planNotFound();
  const now = ctx.now();
  const { row, sessions } = await withTransaction(ctx, async (tx) => {
    const current = await lockPlan(tx, id);
    if (!current) throw planNotFound();
    assertPrice(patch.price ?? current.price, patch.currency ?? current.currency);
    const updated = await updatePlanRow(tx, id, patch, now);
    const withdrawn = current.isActive && patch.isActive === false;
    const expired = withdrawn ? await expirePending(tx, { planId: id }, 'plan withdrawn', now) : [];
    const before = Object.fromEntries(
      Object.keys(patch).map((k) => [k, current[k as keyof typeof current]]),
    );
    await recordAudit(tx, {
      actor: caller.actor,
      action,
      target: { type: 'plan', id },
      details: { before, after: patch, ...(withdrawn ? { expiredPayments: expired.length } : {}) },
      ...caller.meta,
    });
    return { row: updated, sessions: expired.map((p) => p.sessionId) };
  });
  expireSessionsLater(ctx, sessions);
  return toPlan(row);
}

/** `DELETE /admin/plans/:id`: plans are never deleted, only withdrawn. */
export function withdrawPlan(ctx: ModuleContext, id: string, caller: Caller): Promise<Plan> {
  return updatePlan(ctx, id, { isActive: false }, caller, 'plan.withdraw');
}

/**
 * What is wrong with a proposed order of the plans on sale: ids that are not on sale (unknown or
 * withdrawn), plans on sale that the list leaves out, and ids named twice. Empty lists: none.
 */
export function planOrderIssues(onSale: readonly string[], ids: readonly string[]) {
  const known = new Set(onSale);
  const named = new Set(ids);
  return {
    unknown: [...named].filter((id) => !known.has(id)),
    missing: onSale.filter((id) => !named.has(id)),
    duplicate: [...named].filter((id) => ids.indexOf(id) !== ids.lastIndexOf(id)),
  };
}

/**
 * `PUT /admin/plans/order`: the plans on sale take positions 1..n in the order given, in one
 * transaction with one audit row. The list must name every plan on sale exactly once (422
 * `PLAN_ORDER_MISMATCH` otherwise, nothing written); withdrawn plans keep their `sortOrder`.
 */
export async function reorderPlans(
  ctx: ModuleContext,
  ids: readonly string[],
  caller: Caller,
): Promise<PlanOrder> {
  const now = ctx.now();
  const rows = await withTransaction(ctx, async (tx) => {
    const current = await lockActivePlans(tx);
    const before = current.map((p) => p.id);
    const issues = planOrderIssues(before, ids);
    if (issues.unknown.length || issues.missing.length || issues.duplicate.length) {
      throw new AppError(
        'PLAN_ORDER_MISMATCH',
        'The order must name every plan on sale exactly once',
        { details: issues },
      );
    }
    const byId = new Map(current.map((p) => [p.id, p]));
    for (const [index, id] of ids.entries()) {
      if (byId.get(id)!.sortOrder !== index + 1) await setPlanOrder(tx, id, index + 1, now);
    }
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'plan.reorder',
      target: { type: 'plan', id: null },
      details: { before, after: [...ids] },
      ...caller.meta,
    });
    return lockActivePlans(tx);
  });
  return { data: rows.map(toPlan) };
}

/** `GET /plans`: what the member can buy now, and the checkouts they can resume. */
export async function memberPlans(ctx: ModuleContext, userId: string): Promise<MemberPlans> {
  const now = ctx.now();
  const [active, pending, enabled] = await Promise.all([
    listActivePlans(ctx.db),
    resumablePayments(ctx.db, userId, now),
    paymentsEnabled(ctx.db, ctx.settings.store),
  ]);
  return {
    data: active.map(toPlan),
    paymentsEnabled: enabled,
    pending: pending.map((p) => ({
      planId: p.planId,
      paymentId: p.id,
      checkoutUrl: p.checkoutUrl!,
      expiresAt: p.expiresAt.toISOString(),
    })),
  };
}
