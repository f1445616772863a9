import type { PendingAction } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { type BotPendingActionRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext } from '../context.js';
import { isUuid } from './dto.js';
import {
  type ActionKey,
  actionById,
  actionByKey,
  deleteAction,
  dropExpiredActions,
  liveAction,
  updateLiveAction,
  upsertAction,
} from './queries.js';

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
  await upsertAction(ctx.db, {
    id,
    kind: input.kind,
    chatId: input.chatId,
    messengerUserId: input.messengerUserId,
    payload: input.payload,
    expiresAt,
    now,
  });
  return { id, expiresAt: expiresAt.toISOString() };
}

export async function getAction(ctx: ModuleContext, id: string): Promise<PendingAction> {
  checkedId(id);
  const row = await liveAction(ctx.db, actionById(id), ctx.now());
  if (!row) {
    await dropExpiredActions(ctx.db, actionById(id), ctx.now());
    throw notFound();
  }
  return toAction(row);
}

export async function findLiveAction(ctx: ModuleContext, key: ActionKey): Promise<PendingAction> {
  const row = await liveAction(ctx.db, actionByKey(key), ctx.now());
  if (!row) {
    await dropExpiredActions(ctx.db, actionByKey(key), ctx.now());
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
  const row = await updateLiveAction(
    ctx.db,
    id,
    {
      payload: input.payload,
      ...(input.ttlSeconds === undefined
        ? {}
        : { expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000) }),
    },
    now,
  );
  if (!row) throw notFound();
  return toAction(row);
}

/** The atomic claim: exactly one of two concurrent deletes finds the live row. */
export async function claimAction(ctx: ModuleContext, id: string): Promise<void> {
  checkedId(id);
  const row = await deleteAction(ctx.db, id, ctx.now());
  if (!row?.live) throw notFound();
}
