import { randomBytes } from 'node:crypto';
import type { RedeemCode } from '@usher/contracts';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import { containing, countRows, paginate } from '../../db/paging.js';
import { redeemCodes, users, type RedeemCodeRow } from '../../db/schema/index.js';

/** 8 random bytes as 16 uppercase hex characters (10-data.md §2). */
export function generateCode(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export function codeStatus(row: RedeemCodeRow, now: Date): RedeemCode['status'] {
  if (row.usedCount >= row.maxUses) return 'exhausted';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function toRedeemCode(
  row: RedeemCodeRow,
  creator: { id: string; username: string } | null,
  now: Date,
): RedeemCode {
  return {
    id: row.id,
    code: row.code,
    days: row.days,
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    status: codeStatus(row, now),
    notes: row.notes,
    createdBy: creator,
    createdAt: row.createdAt.toISOString(),
  };
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
