// The admin side of redeem codes: create, batch, change, delete, list codes and redemptions.
import { z } from 'zod';
import { auditCaller } from '../../audit-log/audit.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import { toRedeemCode } from './codes.js';
import { withTransaction } from '../../db/transaction.js';
import * as queries from './queries.js';
import type { NewCode, RedemptionQuery } from './queries.js';

const notFound = () => new AppError('REDEEM_CODE_NOT_FOUND', 'No such redeem code');

function assertFuture(expiresAt: string | null | undefined, now: Date): void {
  if (expiresAt && new Date(expiresAt).getTime() <= now.getTime()) {
    throw new AppError('VALIDATION_FAILED', 'The request is not valid', {
      details: [{ path: 'expiresAt', message: 'must be in the future' }],
    });
  }
}

export async function createOne(ctx: ModuleContext, input: NewCode, caller: Caller) {
  assertFuture(input.expiresAt, ctx.now());
  const row = await withTransaction(ctx, async (tx) => {
    const [created] = await queries.insertCodes(tx, input, 1, caller.auth.userId);
    await auditCaller(
      tx,
      caller,
      'redeem_code.create',
      { type: 'redeem_code', id: created!.id },
      { days: input.days, maxUses: input.maxUses, expiresAt: input.expiresAt ?? null },
    );
    return created!;
  });
  return toRedeemCode(row, { id: caller.auth.userId, username: caller.auth.username }, ctx.now());
}

export async function batchCreate(
  ctx: ModuleContext,
  input: NewCode & { count: number },
  caller: Caller,
) {
  assertFuture(input.expiresAt, ctx.now());
  const rows = await withTransaction(ctx, async (tx) => {
    const created = await queries.insertCodes(tx, input, input.count, caller.auth.userId);
    await auditCaller(
      tx,
      caller,
      'redeem_code.batch_create',
      { type: 'redeem_code', id: null },
      { count: created.length, ids: created.map((r) => r.id), days: input.days },
    );
    return created;
  });
  const creator = { id: caller.auth.userId, username: caller.auth.username };
  return { data: rows.map((r) => toRedeemCode(r, creator, ctx.now())), count: rows.length };
}

const isUuid = (id: string) => z.uuid().safeParse(id).success;

export async function updateCode(
  ctx: ModuleContext,
  id: string,
  patch: { days?: number; maxUses?: number; expiresAt?: string | null; notes?: string },
  caller: Caller,
) {
  if (!isUuid(id)) throw notFound();
  const row = await withTransaction(ctx, async (tx) => {
    const current = await queries.lockCode(tx, id);
    if (!current) throw notFound();
    if (patch.maxUses !== undefined && patch.maxUses < current.usedCount) {
      throw new AppError(
        'MAX_USES_BELOW_USED',
        `The code was already used ${current.usedCount} times`,
        {
          details: { usedCount: current.usedCount },
        },
      );
    }
    const set = {
      ...(patch.days !== undefined ? { days: patch.days } : {}),
      ...(patch.maxUses !== undefined ? { maxUses: patch.maxUses } : {}),
      ...(patch.expiresAt !== undefined
        ? { expiresAt: patch.expiresAt ? new Date(patch.expiresAt) : null }
        : {}),
      ...(patch.notes !== undefined ? { notes: patch.notes } : {}),
    };
    const updated = await queries.updateCodeRow(tx, id, set, ctx.now());
    const before = Object.fromEntries(
      Object.keys(set).map((k) => [k, current[k as keyof typeof current]]),
    );
    await auditCaller(
      tx,
      caller,
      'redeem_code.update',
      { type: 'redeem_code', id },
      { before, after: set },
    );
    return updated;
  });
  return toRedeemCode(row, await queries.findCreator(ctx.db, row.createdBy), ctx.now());
}

export async function deleteCode(ctx: ModuleContext, id: string, caller: Caller) {
  if (!isUuid(id)) throw notFound();
  await withTransaction(ctx, async (tx) => {
    const gone = await queries.deleteCodeRow(tx, id);
    if (!gone) throw notFound();
    await auditCaller(
      tx,
      caller,
      'redeem_code.delete',
      { type: 'redeem_code', id },
      { code: `${gone.code.slice(0, 4)}…`, usedCount: gone.usedCount },
    );
  });
}

/** `GET /admin/redeem-codes`: by derived status and a search over code and notes. */
export async function listCodes(
  ctx: ModuleContext,
  query: Parameters<typeof queries.listCodes>[1],
) {
  return queries.listCodes(ctx.db, query, ctx.now());
}

/** `GET /admin/redemptions` and `GET /me/redemptions`: days in the business timezone. */
export async function listRedemptions(ctx: ModuleContext, query: RedemptionQuery) {
  const zone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
  return queries.listRedemptions(ctx.db, query, zone);
}
