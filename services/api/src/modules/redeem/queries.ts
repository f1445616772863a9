// The redeem module's SQL, database (or transaction) handle first, so a service passes the
// transaction it is in (docs/architecture.md, "Module shape").
import type { Redemption } from '@usher/contracts';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Tx } from '../../db/client.js';
import {
  containing,
  countRows,
  countUpTo,
  dayRange,
  escapeLike,
  one,
  paginate,
  paginateCapped,
} from '../../db/paging.js';
import { redeemCodes, redemptions, users, type RedeemCodeRow } from '../../db/schema/index.js';
import { generateCode, toRedeemCode } from './codes.js';

type Reader = Pick<Database, 'select'>;

export async function findCodeByText(db: Reader, code: string): Promise<RedeemCodeRow | undefined> {
  const [row] = await db.select().from(redeemCodes).where(eq(redeemCodes.code, code));
  return row;
}

export async function findCodeById(db: Reader, id: string): Promise<RedeemCodeRow | undefined> {
  const [row] = await db.select().from(redeemCodes).where(eq(redeemCodes.id, id));
  return row;
}

/**
 * Takes one use of a code with a guarded UPDATE, so concurrent uses never pass `max_uses` or use
 * an expired code. False when the guard refused (used up, expired or deleted meanwhile).
 */
export async function takeCodeUse(tx: Tx, codeId: string, now: Date): Promise<boolean> {
  const [taken] = await tx
    .update(redeemCodes)
    .set({ usedCount: sql`${redeemCodes.usedCount} + 1`, updatedAt: now })
    .where(
      and(
        eq(redeemCodes.id, codeId),
        sql`${redeemCodes.usedCount} < ${redeemCodes.maxUses}`,
        sql`(${redeemCodes.expiresAt} is null or ${redeemCodes.expiresAt} > ${now.toISOString()})`,
      ),
    )
    .returning({ id: redeemCodes.id });
  return taken !== undefined;
}

export { userRow as findMember } from '../../db/users.js';

/** Whether the member has redeemed this code before (each code once per member). */
export async function hasRedeemed(db: Reader, userId: string, code: string): Promise<boolean> {
  const [used] = await db
    .select({ id: redemptions.id })
    .from(redemptions)
    .where(and(eq(redemptions.userId, userId), eq(redemptions.code, code)));
  return used !== undefined;
}

export async function insertRedemption(
  tx: Tx,
  values: Omit<typeof redemptions.$inferInsert, 'id'>,
): Promise<void> {
  await tx.insert(redemptions).values({ id: uuidv7(), ...values });
}

/** SQL for a derived status, so lists filter in the database. */
export function statusFilter(status: 'active' | 'exhausted' | 'expired', now: Date): SQL {
  const exhausted = sql`${redeemCodes.usedCount} >= ${redeemCodes.maxUses}`;
  const expired = sql`${redeemCodes.expiresAt} is not null and ${redeemCodes.expiresAt} <= ${now.toISOString()}`;
  if (status === 'exhausted') return exhausted;
  if (status === 'expired') return sql`not (${exhausted}) and ${expired}`;
  return sql`not (${exhausted}) and not (${expired})`;
}

export async function listCodes(
  db: Database,
  query: {
    search?: string;
    status: 'active' | 'exhausted' | 'expired' | 'all';
    page: number;
    pageSize: number;
  },
  now: Date,
) {
  const filters: SQL[] = [];
  if (query.status !== 'all') filters.push(statusFilter(query.status, now));
  if (query.search) {
    const like = containing(query.search);
    filters.push(or(ilike(redeemCodes.code, like), ilike(redeemCodes.notes, like))!);
  }
  const where = filters.length ? and(...filters) : undefined;
  return paginate(query, countRows(db, redeemCodes, where), async (limit, offset) => {
    const rows = await db
      .select({ code: redeemCodes, creatorId: users.id, creatorName: users.username })
      .from(redeemCodes)
      .leftJoin(users, eq(users.id, redeemCodes.createdBy))
      .where(where)
      .orderBy(desc(redeemCodes.createdAt), desc(redeemCodes.id))
      .limit(limit)
      .offset(offset);
    return rows.map((r) =>
      toRedeemCode(r.code, r.creatorId ? { id: r.creatorId, username: r.creatorName! } : null, now),
    );
  });
}

export interface NewCode {
  days: number;
  maxUses: number;
  expiresAt?: string | null;
  notes: string;
}

/** Attempts before a batch gives up on finding unused codes (each clash is ~2^-60 likely). */
const INSERT_ATTEMPTS = 5;

/**
 * Inserts `count` codes, regenerating any that clash with an existing code (or with another of
 * the batch): each round inserts with ON CONFLICT DO NOTHING and retries only the missing ones.
 * Run inside the caller's transaction, a batch is still all-or-nothing.
 */
export async function insertCodes(
  db: Pick<Database, 'insert'>,
  input: NewCode,
  count: number,
  createdBy: string,
  generate: () => string = generateCode,
): Promise<RedeemCodeRow[]> {
  const inserted: RedeemCodeRow[] = [];
  for (let attempt = 0; attempt < INSERT_ATTEMPTS && inserted.length < count; attempt++) {
    const values = Array.from({ length: count - inserted.length }, () => ({
      id: uuidv7(),
      code: generate(),
      days: input.days,
      maxUses: input.maxUses,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      notes: input.notes,
      createdBy,
    }));
    const rows = await db
      .insert(redeemCodes)
      .values(values)
      .onConflictDoNothing({ target: redeemCodes.code })
      .returning();
    inserted.push(...rows);
  }
  if (inserted.length < count) {
    throw new Error(`could not generate ${count} unused redeem codes in ${INSERT_ATTEMPTS} rounds`);
  }
  // Keep the order the codes were generated in (ids are time-ordered uuidv7).
  return inserted.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The code row, locked for the rest of the transaction. */
export async function lockCode(tx: Tx, id: string): Promise<RedeemCodeRow | undefined> {
  const [row] = await tx.select().from(redeemCodes).where(eq(redeemCodes.id, id)).for('update');
  return row;
}

export async function updateCodeRow(
  tx: Tx,
  id: string,
  set: Partial<Pick<RedeemCodeRow, 'days' | 'maxUses' | 'expiresAt' | 'notes'>>,
  now: Date,
): Promise<RedeemCodeRow> {
  const [updated] = await tx
    .update(redeemCodes)
    .set({ ...set, updatedAt: now })
    .where(eq(redeemCodes.id, id))
    .returning();
  return updated!;
}

export async function deleteCodeRow(tx: Tx, id: string): Promise<RedeemCodeRow | undefined> {
  const [gone] = await tx.delete(redeemCodes).where(eq(redeemCodes.id, id)).returning();
  return gone;
}

/** Who created a code, for its DTO; null when the creator is gone. */
export async function findCreator(
  db: Reader,
  userId: string | null,
): Promise<{ id: string; username: string } | null> {
  if (!userId) return null;
  const [creator] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return creator ?? null;
}

export interface RedemptionQuery {
  userId?: string;
  username?: string;
  code?: string;
  kind?: 'register' | 'renew';
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** Redemptions, newest first; `from`/`to` are days in `zone` (the business timezone). */
export async function listRedemptions(db: Database, query: RedemptionQuery, zone: string) {
  const filters: SQL[] = [...dayRange(redemptions.createdAt, query, zone)];
  if (query.userId) filters.push(eq(redemptions.userId, query.userId));
  if (query.username) filters.push(ilike(users.username, escapeLike(query.username)));
  if (query.code) filters.push(eq(redemptions.code, query.code.toUpperCase()));
  if (query.kind) filters.push(eq(redemptions.kind, query.kind));
  const where = filters.length ? and(...filters) : undefined;
  // Every redemption has its member (the row goes with them): the count joins users only to
  // filter by name.
  const counted = db.select(one).from(redemptions);
  const total = countUpTo(
    db,
    query.username
      ? counted.innerJoin(users, eq(users.id, redemptions.userId)).where(where)
      : counted.where(where),
  );
  return paginateCapped(query, total, async (limit, offset) => {
    const rows = await db
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
