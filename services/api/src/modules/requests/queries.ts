import type { IngestProgress } from '@usher/contracts';
import { userFields } from '../../db/users.js';
import {
  and,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import {
  botPendingActions,
  mediaRequests,
  requestAdminMessages,
  users,
  type BotPendingActionRow,
  type MediaRequestRow,
  type UserRow,
} from '../../db/schema/index.js';
import type { RequestView } from './dto.js';

const reviewers = alias(users, 'reviewer');

/** Requests with their reviewer's username, newest first, one page. */
export async function listRequests(
  db: Database,
  filter: {
    userId?: string;
    status?: string;
    type?: string;
    search?: string;
    hasAutomationError?: boolean;
    page: number;
    pageSize: number;
  },
): Promise<{ views: RequestView[]; total: number }> {
  const where: SQL[] = [];
  if (filter.userId) where.push(eq(mediaRequests.userId, filter.userId));
  if (filter.status) where.push(eq(mediaRequests.status, filter.status));
  if (filter.type) where.push(eq(mediaRequests.type, filter.type));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(ilike(mediaRequests.name, pattern));
  }
  if (filter.hasAutomationError === true) where.push(isNotNull(mediaRequests.automationError));
  if (filter.hasAutomationError === false) where.push(isNull(mediaRequests.automationError));
  const condition = where.length ? and(...where) : undefined;
  const rows = await db
    .select({ row: mediaRequests, reviewerName: reviewers.username })
    .from(mediaRequests)
    .leftJoin(reviewers, eq(reviewers.id, mediaRequests.reviewedBy))
    .where(condition)
    .orderBy(desc(mediaRequests.createdAt), desc(mediaRequests.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const [total] = await db.select({ n: count() }).from(mediaRequests).where(condition);
  return { views: rows, total: total?.n ?? 0 };
}

/** One request with its reviewer's username, or undefined. */
export async function findRequestView(db: Database, id: string): Promise<RequestView | undefined> {
  const [view] = await db
    .select({ row: mediaRequests, reviewerName: reviewers.username })
    .from(mediaRequests)
    .leftJoin(reviewers, eq(reviewers.id, mediaRequests.reviewedBy))
    .where(eq(mediaRequests.id, id));
  return view;
}

export async function findRequest(db: Database, id: string): Promise<MediaRequestRow | undefined> {
  const [row] = await db.select().from(mediaRequests).where(eq(mediaRequests.id, id));
  return row;
}

/**
 * The active request that blocks a new one for (type, tmdbId, season): the same key, or — for a
 * single season — an active whole-series request (10-data.md §10).
 */
export async function findBlockingRequest(
  db: Database,
  key: { type: string; tmdbId: number; season: number },
): Promise<MediaRequestRow | undefined> {
  const seasons = key.type === 'TV' && key.season > 0 ? [key.season, 0] : [key.season];
  const [row] = await db
    .select()
    .from(mediaRequests)
    .where(
      and(
        eq(mediaRequests.type, key.type),
        eq(mediaRequests.tmdbId, key.tmdbId),
        inArray(mediaRequests.season, seasons),
        inArray(mediaRequests.status, ['PENDING', 'APPROVED', 'INGESTED']),
      ),
    )
    // The exact key first, so the reply names the request the member asked about.
    .orderBy(sql`case when ${mediaRequests.season} = ${key.season} then 0 else 1 end`)
    .limit(1);
  return row;
}

/** Serialises creations for one title (every season) until the transaction ends. */
export async function lockTitle(db: Database, type: string, tmdbId: number): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`media-request:${type}:${tmdbId}`}))`,
  );
}

export async function countPending(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mediaRequests)
    .where(and(eq(mediaRequests.userId, userId), eq(mediaRequests.status, 'PENDING')));
  return row?.n ?? 0;
}

/** The member's automatic quota approvals since `since` (start of the business day). */
export async function countQuotaApprovals(
  db: Database,
  userId: string,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mediaRequests)
    .where(
      and(
        eq(mediaRequests.userId, userId),
        eq(mediaRequests.reviewSource, 'auto_quota'),
        sql`${mediaRequests.reviewedAt} >= ${since.toISOString()}`,
      ),
    );
  return row?.n ?? 0;
}

/** Whether a newer request already resubmits `id` (only the newest of a chain may resubmit). */
export async function hasResubmission(db: Database, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: mediaRequests.id })
    .from(mediaRequests)
    .where(eq(mediaRequests.retryFromId, id))
    .limit(1);
  return row !== undefined;
}

/** The approval copies the bot can still edit (a message id, not deleted). */
export async function editableAdminMessages(db: Database, requestId: string) {
  const rows = await db
    .select({
      chatId: requestAdminMessages.chatId,
      messageId: requestAdminMessages.messageId,
      hasPhoto: requestAdminMessages.hasPhoto,
    })
    .from(requestAdminMessages)
    .where(
      and(
        eq(requestAdminMessages.requestId, requestId),
        isNotNull(requestAdminMessages.messageId),
        or(
          eq(requestAdminMessages.deliveryStatus, 'sent'),
          eq(requestAdminMessages.deliveryStatus, 'edit_failed'),
        ),
      ),
    )
    .orderBy(requestAdminMessages.createdAt);
  return rows.map((r) => ({ chatId: r.chatId, messageId: r.messageId!, hasPhoto: r.hasPhoto }));
}

/** One active request of a title, as search availability reads it (no requester fields). */
export interface ActiveTitleRow {
  id: string;
  userId: string | null;
  type: string;
  tmdbId: number;
  /** 0 = the whole series (or a movie). */
  season: number;
  status: string;
  ingestProgress: IngestProgress | null;
}

/**
 * Every active (PENDING, APPROVED, INGESTED) request of the given titles, all members, in ONE
 * select (issue 14: a search page's availability, never a query per result), plus the REJECTED
 * ones of `rejectedOf` (the caller: issue 36 badges a title the caller was refused). Only what
 * the badge needs is read: never the requester's name.
 */
export async function activeRequestsForTitles(
  db: Database,
  titles: { movies: number[]; series: number[] },
  rejectedOf?: string,
): Promise<ActiveTitleRow[]> {
  const byType: SQL[] = [];
  if (titles.movies.length > 0) {
    byType.push(
      and(eq(mediaRequests.type, 'MOVIE'), inArray(mediaRequests.tmdbId, titles.movies))!,
    );
  }
  if (titles.series.length > 0) {
    byType.push(and(eq(mediaRequests.type, 'TV'), inArray(mediaRequests.tmdbId, titles.series))!);
  }
  if (byType.length === 0) return [];
  const rows = await db
    .select({
      id: mediaRequests.id,
      userId: mediaRequests.userId,
      type: mediaRequests.type,
      tmdbId: mediaRequests.tmdbId,
      season: mediaRequests.season,
      status: mediaRequests.status,
      ingestProgress: mediaRequests.ingestProgress,
    })
    .from(mediaRequests)
    .where(
      and(
        or(...byType),
        or(
          inArray(mediaRequests.status, ['PENDING', 'APPROVED', 'INGESTED']),
          rejectedOf === undefined
            ? undefined
            : and(eq(mediaRequests.status, 'REJECTED'), eq(mediaRequests.userId, rejectedOf)),
        ),
      ),
    );
  return rows.map((r) => ({
    ...r,
    ingestProgress: (r.ingestProgress as IngestProgress | null) ?? null,
  }));
}

/**
 * One batch of APPROVED requests reviewed (or, unreviewed, created) before `cutoff`, oldest first,
 * after the keyset `after` (the last row of the previous batch): the reconcile pass reads them
 * a batch at a time instead of the whole table.
 */
export async function approvedBatch(
  db: Database,
  cutoff: Date,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<MediaRequestRow[]> {
  return db
    .select()
    .from(mediaRequests)
    .where(
      and(
        eq(mediaRequests.status, 'APPROVED'),
        lt(sql`coalesce(${mediaRequests.reviewedAt}, ${mediaRequests.createdAt})`, cutoff),
        after === null
          ? undefined
          : sql`(${mediaRequests.createdAt}, ${mediaRequests.id}) > (${after.createdAt}, ${after.id})`,
      ),
    )
    .orderBy(mediaRequests.createdAt, mediaRequests.id)
    .limit(limit);
}

// --- writes and the reads of the use-case files -----------------------------------------------

type Handle = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
type RequestSet = Partial<typeof mediaRequests.$inferInsert>;

/**
 * Writes `set` on the request (with `updatedAt`), only while it has `status` when one is given;
 * the rows written (none: gone, or no longer in that status).
 */
export function updateRequest(
  db: Handle,
  id: string,
  set: RequestSet & { updatedAt: Date },
  status?: MediaRequestRow['status'],
): Promise<MediaRequestRow[]> {
  return db
    .update(mediaRequests)
    .set(set)
    .where(
      status === undefined
        ? eq(mediaRequests.id, id)
        : and(eq(mediaRequests.id, id), eq(mediaRequests.status, status)),
    )
    .returning();
}

export async function insertRequest(
  tx: Handle,
  values: typeof mediaRequests.$inferInsert,
): Promise<MediaRequestRow> {
  const [row] = await tx.insert(mediaRequests).values(values).returning();
  return row!;
}

/** Deletes the request (only the owner's while PENDING with `owner`); the row it deleted. */
export async function deleteRequestRow(
  tx: Handle,
  id: string,
  owner?: string,
): Promise<MediaRequestRow | undefined> {
  const [gone] = await tx
    .delete(mediaRequests)
    .where(
      owner === undefined
        ? eq(mediaRequests.id, id)
        : and(
            eq(mediaRequests.id, id),
            eq(mediaRequests.userId, owner),
            eq(mediaRequests.status, 'PENDING'),
          ),
    )
    .returning();
  return gone;
}

/** The APPROVED requests for these seasons of a title. */
export function approvedForSeasons(
  db: Handle,
  type: 'MOVIE' | 'TV',
  tmdbId: number,
  seasons: number[],
): Promise<MediaRequestRow[]> {
  return db
    .select()
    .from(mediaRequests)
    .where(
      and(
        eq(mediaRequests.type, type),
        eq(mediaRequests.tmdbId, tmdbId),
        inArray(mediaRequests.season, seasons),
        eq(mediaRequests.status, 'APPROVED'),
      ),
    );
}

/** Locks the requester's row: one auto-approval quota count at a time per member. */
export async function lockRequester(tx: Handle, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export { userRow as findUser } from '../../db/users.js';

/** What an event needs of a person: the name, the Telegram id and the language. */
export function notifyUser(db: Handle, id: string) {
  return userFields(db, id, {
    id: users.id,
    username: users.username,
    messengerId: users.messengerId,
    locale: users.locale,
  });
}

/** The member bound to a Telegram id, if any. */
export async function userByMessenger(
  db: Handle,
  messengerId: number,
): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.messengerId, messengerId));
  return user;
}

/** Stores the member's language, unless one was stored meanwhile. */
export async function setLocaleIfUnset(
  db: Handle,
  userId: string,
  locale: string,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ locale, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.locale)));
}

/** What the bot's edit of an admin copy ended with. */
export async function markAdminMessage(
  db: Handle,
  key: { requestId: string; chatId: number; messageId: number },
  set: { deliveryStatus: string; failureReason: string | null; updatedAt: Date },
): Promise<void> {
  await db
    .update(requestAdminMessages)
    .set(set)
    .where(
      and(
        eq(requestAdminMessages.requestId, key.requestId),
        eq(requestAdminMessages.chatId, key.chatId),
        eq(requestAdminMessages.messageId, key.messageId),
      ),
    );
}

/**
 * Records one admin copy the bot sent: a copy without a message id replaces the earlier such
 * copy in its chat; one with an id is upserted on (chat, message).
 */
export async function saveAdminMessage(
  tx: Handle,
  values: Omit<typeof requestAdminMessages.$inferInsert, 'id'> & { messageId: number | null },
): Promise<void> {
  if (values.messageId === null) {
    await tx
      .delete(requestAdminMessages)
      .where(
        and(
          eq(requestAdminMessages.requestId, values.requestId),
          eq(requestAdminMessages.chatId, values.chatId),
          isNull(requestAdminMessages.messageId),
        ),
      );
    await tx.insert(requestAdminMessages).values({ id: uuidv7(), ...values });
    return;
  }
  await tx
    .insert(requestAdminMessages)
    .values({ id: uuidv7(), ...values })
    .onConflictDoUpdate({
      target: [requestAdminMessages.chatId, requestAdminMessages.messageId],
      targetWhere: sql`${requestAdminMessages.messageId} is not null`,
      set: values,
    });
}

// --- bot_pending_actions --------------------------------------------------------------------

export interface ActionKey {
  kind: string;
  chatId: number;
  messengerUserId: number;
}

export const actionById = (id: string): SQL => eq(botPendingActions.id, id);
export const actionByKey = (key: ActionKey): SQL =>
  and(
    eq(botPendingActions.kind, key.kind),
    eq(botPendingActions.chatId, key.chatId),
    eq(botPendingActions.messengerUserId, key.messengerUserId),
  )!;

/** Creates the action, replacing the one of the same key with a new id. */
export async function upsertAction(
  db: Handle,
  row: ActionKey & { id: string; payload: Record<string, unknown>; expiresAt: Date; now: Date },
): Promise<void> {
  const { now, ...values } = row;
  await db
    .insert(botPendingActions)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [botPendingActions.kind, botPendingActions.chatId, botPendingActions.messengerUserId],
      // A new id, so a claim on the replaced action finds nothing.
      set: {
        id: row.id,
        payload: row.payload,
        expiresAt: row.expiresAt,
        createdAt: now,
        updatedAt: now,
      },
    });
}

/** The live action `where` finds (not expired at `now`). */
export async function liveAction(
  db: Handle,
  where: SQL,
  now: Date,
): Promise<BotPendingActionRow | undefined> {
  const [row] = await db
    .select()
    .from(botPendingActions)
    .where(and(where, gt(botPendingActions.expiresAt, now)));
  return row;
}

/** Removes the expired actions `where` finds. */
export async function dropExpiredActions(db: Handle, where: SQL, now: Date): Promise<void> {
  await db.delete(botPendingActions).where(and(where, lte(botPendingActions.expiresAt, now)));
}

/** Changes a live action; undefined when it is gone or expired. */
export async function updateLiveAction(
  db: Handle,
  id: string,
  set: { payload: Record<string, unknown>; expiresAt?: Date },
  now: Date,
): Promise<BotPendingActionRow | undefined> {
  const [row] = await db
    .update(botPendingActions)
    .set({ ...set, updatedAt: now })
    .where(and(eq(botPendingActions.id, id), gt(botPendingActions.expiresAt, now)))
    .returning();
  return row;
}

/** Deletes the action (the atomic claim); whether it was still live, undefined when none. */
export async function deleteAction(
  db: Handle,
  id: string,
  now: Date,
): Promise<{ live: boolean } | undefined> {
  const [row] = await db
    .delete(botPendingActions)
    .where(eq(botPendingActions.id, id))
    .returning({ live: sql<boolean>`${botPendingActions.expiresAt} > ${now.toISOString()}` });
  return row;
}

/** Deletes a `reject_reason` action (the reason was given). */
export async function deleteRejectReasonAction(tx: Handle, id: string): Promise<void> {
  await tx
    .delete(botPendingActions)
    .where(and(eq(botPendingActions.id, id), eq(botPendingActions.kind, 'reject_reason')));
}
