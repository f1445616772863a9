// SQL of the devices module: the blacklist and the device action log.
import type { BlacklistEntry, DeviceAction, PaginationQuery } from '@usher/contracts';
import { count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import { countRows, paginate, type PageResult } from '../../db/paging.js';
import {
  clientBlacklist,
  deviceActions,
  users,
  type ClientBlacklistRow,
  type DeviceActionKind,
} from '../../db/schema/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaDevice } from '../../integrations/media-server/index.js';

/** The normalised names on the blacklist. */
export async function blacklistNames(db: Database): Promise<Set<string>> {
  const rows = await db.select({ n: clientBlacklist.normalizedName }).from(clientBlacklist);
  return new Set(rows.map((r) => r.n));
}

export async function blacklistEntries(db: Database): Promise<ClientBlacklistRow[]> {
  return db.select().from(clientBlacklist);
}

export async function insertBlacklistEntry(
  db: Database,
  entry: typeof clientBlacklist.$inferInsert,
): Promise<ClientBlacklistRow> {
  const [row] = await db.insert(clientBlacklist).values(entry).returning();
  return row!;
}

/** The removed entry, or null when there was none. */
export async function deleteBlacklistEntry(
  db: Database,
  id: string,
): Promise<ClientBlacklistRow | null> {
  const [row] = await db.delete(clientBlacklist).where(eq(clientBlacklist.id, id)).returning();
  return row ?? null;
}

/** A user's id and name (an entry's creator), or null when the account is gone. */
export async function findUserName(
  db: Database,
  id: string,
): Promise<{ id: string; username: string } | null> {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}

/** The user's media-server id; null for an unknown or unlinked user. */
export async function mediaUserIdOf(db: Database, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ mediaUserId: users.mediaUserId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.mediaUserId ?? null;
}

export async function countBlacklist(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(clientBlacklist);
  return Number(row?.n ?? 0);
}

/** What a failed media-server call may say in the log: adapter messages are sanitised. */
export function failureNote(err: unknown): string {
  const text = err instanceof IntegrationError ? err.message : 'unexpected error';
  return text.slice(0, 500);
}

export async function recordDeviceAction(
  db: Database,
  a: {
    action: DeviceActionKind;
    device?: MediaDevice;
    clientName?: string | null;
    userId: string | null;
    actorId: string | null;
    outcome: 'ok' | 'failed';
    note: string | null;
  },
): Promise<void> {
  await db.insert(deviceActions).values({
    id: uuidv7(),
    action: a.action,
    deviceId: a.device?.key ?? null,
    deviceName: a.device?.name ?? null,
    clientName: a.device?.client ?? a.clientName ?? null,
    mediaUserId: a.device?.lastUserId ?? null,
    userId: a.userId,
    actorId: a.actorId,
    outcome: a.outcome,
    note: a.note === null ? null : a.note.slice(0, 500),
  });
}

const iso = (d: Date) => d.toISOString();

export async function listBlacklist(
  db: Database,
  q: PaginationQuery,
): Promise<PageResult<BlacklistEntry>> {
  return paginate(q, countRows(db, clientBlacklist), async (limit, offset) => {
    const rows = await db
      .select({ entry: clientBlacklist, creator: { id: users.id, username: users.username } })
      .from(clientBlacklist)
      .leftJoin(users, eq(users.id, clientBlacklist.createdBy))
      .orderBy(desc(clientBlacklist.createdAt), desc(clientBlacklist.id))
      .limit(limit)
      .offset(offset);
    return rows.map((r) => toBlacklistEntry(r.entry, r.creator));
  });
}

export function toBlacklistEntry(
  row: ClientBlacklistRow,
  creator: { id: string | null; username: string | null } | null,
): BlacklistEntry {
  return {
    id: row.id,
    clientName: row.clientName,
    reason: row.reason,
    createdBy:
      creator?.id && creator.username ? { id: creator.id, username: creator.username } : null,
    createdAt: iso(row.createdAt),
  };
}

export async function listActions(
  db: Database,
  q: PaginationQuery,
): Promise<PageResult<DeviceAction>> {
  const owner = alias(users, 'owner');
  const actor = alias(users, 'actor');
  return paginate(q, countRows(db, deviceActions), async (limit, offset) => {
    const rows = await db
      .select({
        a: deviceActions,
        owner: { id: owner.id, username: owner.username },
        actor: { id: actor.id, username: actor.username },
      })
      .from(deviceActions)
      .leftJoin(owner, eq(owner.id, deviceActions.userId))
      .leftJoin(actor, eq(actor.id, deviceActions.actorId))
      .orderBy(desc(deviceActions.createdAt), desc(deviceActions.id))
      .limit(limit)
      .offset(offset);
    return rows.map(({ a, owner: o, actor: ac }) => ({
      id: a.id,
      action: a.action as DeviceActionKind,
      deviceId: a.deviceId,
      deviceName: a.deviceName,
      clientName: a.clientName,
      mediaUserId: a.mediaUserId,
      user: o?.id && o.username ? { id: o.id, username: o.username } : null,
      actor: ac?.id && ac.username ? { id: ac.id, username: ac.username } : null,
      outcome: a.outcome as 'ok' | 'failed',
      note: a.note,
      createdAt: iso(a.createdAt),
    }));
  });
}
