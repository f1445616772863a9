import type { PendingAction } from '@usher/contracts';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { botPendingActions, type BotPendingActionRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext } from '../context.js';
import { isUuid } from './dto.js';

/**
 * The bot's conversation state (10-data.md §5, 40-bot.md §4): TTL rows, one live action per
 * (kind, chat, person). Reads ignore expired rows and remove them; deleting by id is the atomic
 * claim that makes a double tap harmless.
 */

const notFound = () =>
  new AppError('PENDING_ACTION_NOT_FOUND', 'No such pending action, or it has expired');

function toAction(row: BotPendingActionRow): PendingAction {
  return {
    id: row.id,
    kind: row.kind,
    chatId: row.chatId,
    messengerUserId: row.messengerUserId,
    payload: row.payload,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** A malformed id is simply not found (20-api.md §1.1). */
function checkedId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id;
}

/** Creates an action, replacing the live (or expired) one of the same key with a new id. */
export async function createAction(
  ctx: ModuleContext,
  input: {
    kind: string;
    chatId: number;
    messengerUserId: number;
    payload: Record<string, unknown>;
    ttlSeconds: number;
  },
): Promise<{ id: string; expiresAt: string }> {
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + input.ttlSeconds * 1000);
  const id = uuidv7();
  await ctx.db
    .insert(botPendingActions)
    .values({ id, ...input, expiresAt, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [botPendingActions.kind, botPendingActions.chatId, botPendingActions.messengerUserId],
      // A new id, so a claim on the replaced action finds nothing.
      set: { id, payload: input.payload, expiresAt, createdAt: now, updatedAt: now },
    });
  return { id, expiresAt: expiresAt.toISOString() };
}

async function dropExpired(ctx: ModuleContext, where: ReturnType<typeof and>) {
  await ctx.db
    .delete(botPendingActions)
    .where(and(where, lte(botPendingActions.expiresAt, ctx.now())));
}

export async function getAction(ctx: ModuleContext, id: string): Promise<PendingAction> {
  checkedId(id);
  const [row] = await ctx.db
    .select()
    .from(botPendingActions)
    .where(and(eq(botPendingActions.id, id), gt(botPendingActions.expiresAt, ctx.now())));
  if (!row) {
    await dropExpired(ctx, eq(botPendingActions.id, id));
    throw notFound();
  }
  return toAction(row);
}

export async function findLiveAction(
  ctx: ModuleContext,
  key: { kind: string; chatId: number; messengerUserId: number },
): Promise<PendingAction> {
  const byKey = and(
    eq(botPendingActions.kind, key.kind),
    eq(botPendingActions.chatId, key.chatId),
    eq(botPendingActions.messengerUserId, key.messengerUserId),
  );
  const [row] = await ctx.db
    .select()
    .from(botPendingActions)
    .where(and(byKey, gt(botPendingActions.expiresAt, ctx.now())));
  if (!row) {
    await dropExpired(ctx, byKey);
    throw notFound();
  }
  return toAction(row);
}

export async function updateAction(
  ctx: ModuleContext,
  id: string,
  input: { payload: Record<string, unknown>; ttlSeconds?: number },
): Promise<PendingAction> {
  checkedId(id);
  const now = ctx.now();
  const [row] = await ctx.db
    .update(botPendingActions)
    .set({
      payload: input.payload,
      updatedAt: now,
      ...(input.ttlSeconds === undefined
        ? {}
        : { expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000) }),
    })
    .where(and(eq(botPendingActions.id, id), gt(botPendingActions.expiresAt, now)))
    .returning();
  if (!row) throw notFound();
  return toAction(row);
}

/** The atomic claim: exactly one of two concurrent deletes finds the live row. */
export async function claimAction(ctx: ModuleContext, id: string): Promise<void> {
  checkedId(id);
  const [row] = await ctx.db
    .delete(botPendingActions)
    .where(eq(botPendingActions.id, id))
    .returning({ live: sql<boolean>`${botPendingActions.expiresAt} > ${ctx.now().toISOString()}` });
  if (!row?.live) throw notFound();
}
