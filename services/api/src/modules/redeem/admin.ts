import type { Redemption } from '@usher/contracts';
import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../../audit-log/audit.js';
import { redeemCodes, redemptions, users } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { dayRange, escapeLike, paginate } from '../../db/paging.js';
import type { Caller, ModuleContext } from '../context.js';
import { insertCodes, toRedeemCode, type NewCode } from './codes.js';
import { withTransaction } from '../../db/transaction.js';

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
    const [created] = await insertCodes(tx, input, 1, caller.auth.userId);
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'redeem_code.create',
      target: { type: 'redeem_code', id: created!.id },
      details: { days: input.days, maxUses: input.maxUses, expiresAt: input.expiresAt ?? null },
      ...caller.meta,
    });
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
    const created = await insertCodes(tx, input, input.count, caller.auth.userId);
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'redeem_code.batch_create',
      target: { type: 'redeem_code', id: null },
      details: { count: created.length, ids: created.map((r) => r.id), days: input.days },
      ...caller.meta,
    });
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
    const [current] = await tx
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.id, id))
      .for('update');
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
    const [updated] = await tx
      .update(redeemCodes)
      .set({ ...set, updatedAt: ctx.now() })
      .where(eq(redeemCodes.id, id))
      .returning();
    const before = Object.fromEntries(
      Object.keys(set).map((k) => [k, current[k as keyof typeof current]]),
    );
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'redeem_code.update',
      target: { type: 'redeem_code', id },
      details: { before, after: set },
      ...caller.meta,
    });
    return updated!;
  });
  const [creator] = row.createdBy
    ? await ctx.db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(eq(users.id, row.createdBy))
    : [];
  return toRedeemCode(row, creator ?? null, ctx.now());
}

export async function deleteCode(ctx: ModuleContext, id: string, caller: Caller) {
  if (!isUuid(id)) throw notFound();
  await withTransaction(ctx, async (tx) => {
    const [gone] = await tx.delete(redeemCodes).where(eq(redeemCodes.id, id)).returning();
    if (!gone) throw notFound();
    await recordAudit(tx, {
      actor: caller.actor,
      action: 'redeem_code.delete',
      target: { type: 'redeem_code', id },
      details: { code: `${gone.code.slice(0, 4)}…`, usedCount: gone.usedCount },
      ...caller.meta,
    });
  });
}

export async function listRedemptions(
  ctx: ModuleContext,
  query: {
    userId?: string;
    username?: string;
    code?: string;
    kind?: 'register' | 'renew';
    from?: string;
    to?: string;
    page: number;
    pageSize: number;
  },
) {
  const zone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
  const filters: SQL[] = [...dayRange(redemptions.createdAt, query, zone)];
  if (query.userId) filters.push(eq(redemptions.userId, query.userId));
  if (query.username) filters.push(ilike(users.username, escapeLike(query.username)));
  if (query.code) filters.push(eq(redemptions.code, query.code.toUpperCase()));
  if (query.kind) filters.push(eq(redemptions.kind, query.kind));
  const where = filters.length ? and(...filters) : undefined;
  const total = ctx.db
    .select({ n: count() })
    .from(redemptions)
    .innerJoin(users, eq(users.id, redemptions.userId))
    .where(where)
    .then(([row]) => row?.n ?? 0);
  return paginate(query, total, async (limit, offset) => {
    const rows = await ctx.db
      .select({ r: redemptions, username: users.username })
      .from(redemptions)
      .innerJoin(users, eq(users.id, redemptions.userId))
      .where(where)
      .orderBy(desc(redemptions.createdAt), desc(redemptions.id))
      .limit(limit)
      .offset(offset);
    return rows.map(({ r, username }): Redemption => ({
      id: r.id,
      code: r.code,
      kind: r.kind as Redemption['kind'],
      days: r.days,
      previousExpiresAt: r.previousExpiresAt?.toISOString() ?? null,
      newExpiresAt: r.newExpiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      user: { id: r.userId, username },
    }));
  });
}
