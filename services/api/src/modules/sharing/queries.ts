// SQL of the sharing module (database handle first).
import { userFields } from '../../db/users.js';
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import { countRows, paginate } from '../../db/paging.js';
import {
  payments,
  plans,
  sharingEvents,
  sharingObservations,
  users,
  type SharingAction,
  type SharingEventRow,
  type SharingEventStatus,
  type SharingObservationRow,
  type SharingRule,
} from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';

type Reader = Pick<Database, 'select' | 'execute'>;

/** Linked members by media user id, with what decides whether they are judged. */
export async function membersByMediaId(db: Reader, mediaUserIds: string[]) {
  if (mediaUserIds.length === 0) return [];
  return db
    .select({
      id: users.id,
      mediaUserId: users.mediaUserId,
      role: users.role,
      isActive: users.isActive,
      sharingExempt: users.sharingExempt,
    })
    .from(users)
    .where(inArray(users.mediaUserId, mediaUserIds));
}

/** The open observations, with what the tick matches them by. */
export function openObservations(db: Reader) {
  return db
    .select({
      id: sharingObservations.id,
      userId: sharingObservations.userId,
      sessionId: sharingObservations.sessionId,
      deviceId: sharingObservations.deviceId,
      address: sharingObservations.address,
      home: sharingObservations.home,
    })
    .from(sharingObservations)
    .where(isNull(sharingObservations.endedAt));
}
export type OpenObservation = Awaited<ReturnType<typeof openObservations>>[number];

export type NewObservation = typeof sharingObservations.$inferInsert;

export async function insertObservations(db: Database, rows: Omit<NewObservation, 'id'>[]) {
  if (rows.length === 0) return;
  // A stream another replica inserted in the same tick is already open (sharing_observations_live_key).
  await db
    .insert(sharingObservations)
    .values(rows.map((r) => ({ id: uuidv7(), ...r })))
    .onConflictDoNothing();
}

/**
 * One tick's bookkeeping of the open rows: those not listed any more (`gone`) end when they were
 * last seen; every other open row is still live and is seen now (one statement for all of them);
 * a reconnect's new session id is kept as the action target.
 */
export async function settleObservations(
  db: Database,
  now: Date,
  gone: string[],
  sessionChanges: { id: string; sessionId: string; itemName: string | null }[],
) {
  if (gone.length > 0) {
    await db
      .update(sharingObservations)
      .set({ endedAt: sql`${sharingObservations.lastSeenAt}` })
      .where(and(inArray(sharingObservations.id, gone), isNull(sharingObservations.endedAt)));
  }
  await db
    .update(sharingObservations)
    .set({ lastSeenAt: now })
    .where(isNull(sharingObservations.endedAt));
  for (const c of sessionChanges) {
    await db
      .update(sharingObservations)
      .set({ sessionId: c.sessionId, itemName: c.itemName })
      .where(eq(sharingObservations.id, c.id));
  }
}

/** The public observations of these members that are live or were seen since `since`. */
export function windowObservations(
  db: Reader,
  userIds: string[],
  since: Date,
): Promise<SharingObservationRow[]> {
  return db
    .select()
    .from(sharingObservations)
    .where(
      and(
        inArray(sharingObservations.userId, userIds),
        eq(sharingObservations.home, false),
        or(isNull(sharingObservations.endedAt), gte(sharingObservations.lastSeenAt, since)),
      ),
    );
}

/** Observations that ended before `before` are forgotten (the timeline keeps 30 days). */
export async function forgetObservations(db: Database, before: Date): Promise<void> {
  await db.delete(sharingObservations).where(lt(sharingObservations.endedAt, before));
}

/**
 * Each member's stream limit from the plan of their latest completed payment, where that plan
 * sets one; members without are left out (the setting applies).
 */
export async function planStreamLimits(
  db: Reader,
  userIds: string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await queryRows<{ user_id: string; max_streams: number | null }>(
    db,
    sql`select distinct on (p.user_id) p.user_id, pl.max_streams
        from ${payments} p join ${plans} pl on pl.id = p.plan_id
        where p.status = 'completed' and p.user_id in (${sql.join(
          userIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        order by p.user_id, p.completed_at desc nulls last, p.created_at desc`,
  );
  const out = new Map<string, number>();
  for (const r of rows) if (r.max_streams !== null) out.set(r.user_id, Number(r.max_streams));
  return out;
}

/** Records an event unless the member already has one for the rule this hour; null then. */
export async function insertEvent(
  db: Database,
  input: {
    userId: string;
    rule: SharingRule;
    detectedAt: Date;
    evidence: unknown;
    action: SharingAction;
  },
): Promise<SharingEventRow | null> {
  const hour = new Date(Math.floor(input.detectedAt.getTime() / 3_600_000) * 3_600_000);
  const [row] = await db
    .insert(sharingEvents)
    .values({ id: uuidv7(), ...input, cooldownHour: hour, status: 'open' })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function findEvent(db: Reader, id: string) {
  const [row] = await db
    .select({ event: sharingEvents, username: users.username })
    .from(sharingEvents)
    .innerJoin(users, eq(users.id, sharingEvents.userId))
    .where(eq(sharingEvents.id, id));
  return row;
}

/** Locks the event for a status change; undefined when it does not exist. */
export async function lockEvent(tx: Database, id: string): Promise<SharingEventRow | undefined> {
  const [row] = await tx.select().from(sharingEvents).where(eq(sharingEvents.id, id)).for('update');
  return row;
}

export async function updateEvent(
  tx: Database,
  id: string,
  patch: Partial<typeof sharingEvents.$inferInsert>,
): Promise<SharingEventRow> {
  const [row] = await tx
    .update(sharingEvents)
    .set(patch)
    .where(eq(sharingEvents.id, id))
    .returning();
  return row!;
}

/** Open events first, newest first within each status. */
export function listEvents(
  db: Database,
  query: {
    page: number;
    pageSize: number;
    status?: SharingEventStatus;
    rule?: SharingRule;
    userId?: string;
  },
) {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(sharingEvents.status, query.status));
  if (query.rule) filters.push(eq(sharingEvents.rule, query.rule));
  if (query.userId) filters.push(eq(sharingEvents.userId, query.userId));
  const where = filters.length ? and(...filters) : undefined;
  return paginate(query, countRows(db, sharingEvents, where), (limit, offset) =>
    db
      .select({ event: sharingEvents, username: users.username })
      .from(sharingEvents)
      .innerJoin(users, eq(users.id, sharingEvents.userId))
      .where(where)
      .orderBy(
        sql`case ${sharingEvents.status} when 'open' then 0 else 1 end`,
        desc(sharingEvents.detectedAt),
        asc(sharingEvents.id),
      )
      .limit(limit)
      .offset(offset),
  );
}

export function memberEvents(db: Reader, userId: string, limit: number) {
  return db
    .select({ event: sharingEvents, username: users.username })
    .from(sharingEvents)
    .innerJoin(users, eq(users.id, sharingEvents.userId))
    .where(eq(sharingEvents.userId, userId))
    .orderBy(desc(sharingEvents.detectedAt))
    .limit(limit);
}

/** Status and age of every event of a member in the last `since`, for the trust score. */
export function trustInputs(db: Reader, userId: string, since: Date) {
  return db
    .select({ status: sharingEvents.status, detectedAt: sharingEvents.detectedAt })
    .from(sharingEvents)
    .where(and(eq(sharingEvents.userId, userId), gte(sharingEvents.detectedAt, since)));
}

export function memberTimeline(db: Reader, userId: string, since: Date, limit: number) {
  return db
    .select()
    .from(sharingObservations)
    .where(
      and(
        eq(sharingObservations.userId, userId),
        or(isNull(sharingObservations.endedAt), gte(sharingObservations.lastSeenAt, since)),
      ),
    )
    .orderBy(desc(sharingObservations.startedAt))
    .limit(limit);
}

export function liveObservationsOf(db: Reader, userId: string) {
  return (
    db
      .select()
      .from(sharingObservations)
      .where(and(eq(sharingObservations.userId, userId), isNull(sharingObservations.endedAt)))
      // Streams seen first in one tick share started_at: then in the order they were recorded.
      .orderBy(asc(sharingObservations.startedAt), asc(sharingObservations.id))
  );
}

export function findMember(db: Reader, userId: string) {
  return userFields(db, userId, {
    id: users.id,
    username: users.username,
    role: users.role,
    locale: users.locale,
    sharingExempt: users.sharingExempt,
    sharingSuspendedUntil: users.sharingSuspendedUntil,
  });
}

export async function setExempt(tx: Database, userId: string, exempt: boolean, now: Date) {
  await tx.update(users).set({ sharingExempt: exempt, updatedAt: now }).where(eq(users.id, userId));
}

export async function setSuspendedUntil(
  tx: Database,
  userId: string,
  until: Date | null,
  now: Date,
) {
  await tx
    .update(users)
    .set({ sharingSuspendedUntil: until, updatedAt: now })
    .where(eq(users.id, userId));
}
