// The lifecycle's reads for the admin pages (docs/lifecycle.md): the notices log and the
// reminders coming up.
import { userFields } from '../../db/users.js';
import type { NoticesQuery } from '@usher/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  isNotNull,
  isNull,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/client.js';
import {
  announcementRecipients,
  announcements,
  inactivityWatch,
  mediaAccountDeletions,
  memberNotices,
  NOTICE_MAX_ATTEMPTS,
  users,
  type AnnouncementAudience,
  type AnnouncementChannel,
  type MemberNoticeRow,
  type NoticeChannel,
  type NoticeKind,
} from '../../db/schema/index.js';
import { afterPair, countUpTo, type CappedTotal } from '../../db/paging.js';
import { queueMediaDelete } from '../../db/retry-queue.js';
import { queryRows } from '../../db/sql.js';

export type NoticeWithName = MemberNoticeRow & { username: string };

function noticeFilter(q: Omit<NoticesQuery, 'page' | 'pageSize'>): SQL | undefined {
  return and(
    q.userId ? eq(memberNotices.userId, q.userId) : undefined,
    q.kind ? eq(memberNotices.kind, q.kind) : undefined,
    q.channel ? eq(memberNotices.channel, q.channel) : undefined,
    q.status ? eq(memberNotices.status, q.status) : undefined,
  );
}

export async function countNotices(db: Database, q: NoticesQuery): Promise<number> {
  const [row] = await db.select({ n: count() }).from(memberNotices).where(noticeFilter(q));
  return row?.n ?? 0;
}

/** Newest first (the id is a UUIDv7, so it breaks ties in creation order). */
export async function noticeRows(
  db: Database,
  q: NoticesQuery,
  limit: number,
  offset: number,
): Promise<NoticeWithName[]> {
  const rows = await db
    .select({ notice: memberNotices, username: users.username })
    .from(memberNotices)
    .innerJoin(users, eq(users.id, memberNotices.userId))
    .where(noticeFilter(q))
    .orderBy(desc(memberNotices.createdAt), desc(memberNotices.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r.notice, username: r.username }));
}

/** A (member, threshold) whose reminder falls due within the window. */
export interface UpcomingRow {
  userId: string;
  username: string;
  email: string | null;
  messengerId: number | null;
  notifyEmail: boolean;
  notifyMessenger: boolean;
  expiresAt: Date;
  days: number;
  dueAt: Date;
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The reminders of the members the job would remind (as `runReminders` chooses them) that fall
 * due between now and `until`: every threshold whose window opens by then, except those a
 * member is already past — of the thresholds already open only the tightest counts, as in
 * `dueThreshold`. One row per (member, threshold), soonest first; `dueAt` is the window's start,
 * or now when it has begun.
 *
 * The (member, threshold `d`) pairs of one threshold, as a select of `columns`: the members the
 * job reminds whose `d`-day window opens by `until` and who are not yet inside the next smaller
 * threshold's window — one range of `users_expires_at_asc_idx`, `(now + below, until + d]`.
 * Ordered by `expires_at, id`, which is the order of `due_at` within one threshold.
 */
function upcomingOf(
  columns: SQL,
  d: number,
  w: { now: Date; until: Date; thresholds: number[] },
  limit?: number,
): SQL {
  // Of the thresholds already open only the tightest counts: `d` is the one while the next
  // smaller threshold has not opened, i.e. while the membership ends after now + that one.
  const below = Math.max(0, ...w.thresholds.filter((x) => x < d));
  const days = (n: number) => sql`${n}::int * interval '1 day'`;
  return sql`(select ${columns} from users u
    where u.role = 'user' and u.is_active and not u.media_access_disabled
      and u.expires_at > ${at(w.now)} + ${days(below)}
      and u.expires_at <= ${at(w.until)} + ${days(d)}
    order by u.expires_at, u.id
    ${limit === undefined ? sql`` : sql`limit ${limit}`})`;
}

/**
 * How many reminders are coming up, counted up to `cap` (issue 33: a community where ten thousand
 * memberships end this week still answers at once).
 */
export function countUpcoming(
  db: Database,
  now: Date,
  until: Date,
  thresholds: number[],
  cap: number,
): Promise<CappedTotal> {
  const w = { now, until, thresholds: [...new Set(thresholds)] };
  const parts = w.thresholds.map((d) => upcomingOf(sql`1`, d, w, cap + 1));
  return countUpTo(db, sql`select 1 from (${sql.join(parts, sql` union all `)}) a`, cap);
}

/**
 * One page of the reminders coming up, soonest first (then by the membership's end, the member
 * and the wider threshold). Each threshold's pairs come from an index walk in that order, cut at
 * `offset + limit`, and only those are merged: a page reads a page's worth of members per
 * threshold, not every member whose reminder is due.
 */
export async function upcomingRows(
  db: Database,
  now: Date,
  until: Date,
  thresholds: number[],
  limit: number,
  offset: number,
): Promise<UpcomingRow[]> {
  const w = { now, until, thresholds: [...new Set(thresholds)] };
  const columns = (d: number) =>
    sql`u.id as user_id, u.username, u.email, u.messenger_id, u.notify_email, u.notify_messenger,
      u.expires_at, ${d}::int as days,
      greatest(u.expires_at - ${d}::int * interval '1 day', ${at(now)}) as due_at`;
  const parts = w.thresholds.map((d) => upcomingOf(columns(d), d, w, offset + limit));
  const rows = await queryRows<{
    user_id: string;
    username: string;
    email: string | null;
    messenger_id: string | number | null;
    notify_email: boolean;
    notify_messenger: boolean;
    expires_at: Date | string;
    days: number;
    due_at: Date | string;
  }>(
    db,
    sql`select * from (${sql.join(parts, sql` union all `)}) a
        order by due_at, expires_at, user_id, days desc
        limit ${limit} offset ${offset}`,
  );
  return rows.map((r) => ({
    userId: r.user_id,
    username: r.username,
    email: r.email,
    messengerId: r.messenger_id === null ? null : Number(r.messenger_id),
    notifyEmail: r.notify_email,
    notifyMessenger: r.notify_messenger,
    expiresAt: new Date(r.expires_at),
    days: Number(r.days),
    dueAt: new Date(r.due_at),
  }));
}

/** The notices already written for these members' reminders, by `user_id` and `ref`. */
export async function reminderNotices(
  db: Database,
  userIds: string[],
): Promise<Pick<MemberNoticeRow, 'userId' | 'ref' | 'channel' | 'status' | 'detail'>[]> {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: memberNotices.userId,
      ref: memberNotices.ref,
      channel: memberNotices.channel,
      status: memberNotices.status,
      detail: memberNotices.detail,
    })
    .from(memberNotices)
    .where(
      and(
        eq(memberNotices.kind, 'expiry_reminder'),
        sql`${memberNotices.userId} in (${sql.join(
          userIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      ),
    );
}

// --- member_notices claims (claims.ts) ---------------------------------------------------------

/** Which notice, for whom, on which channel. */
export interface NoticeKey {
  userId: string;
  kind: NoticeKind;
  ref: string;
  channel: NoticeChannel;
  /** A reminder's membership end and threshold. */
  expiresAt?: Date;
  days?: number;
}

const row = (key: NoticeKey, now: Date) => ({
  id: uuidv7(),
  userId: key.userId,
  kind: key.kind,
  ref: key.ref,
  channel: key.channel,
  expiresAt: key.expiresAt ?? null,
  days: key.days ?? null,
  createdAt: now,
  updatedAt: now,
});

/**
 * Claims a notice for sending: a new row (`sending`, first try), or a `failed` one with tries
 * left — in one statement, so of two runs or replicas only one gets it. Null when it is taken:
 * sent, skipped, being sent, or failed three times.
 */
export async function claimNotice(db: Database, key: NoticeKey, now: Date): Promise<string | null> {
  const [claimed] = await db
    .insert(memberNotices)
    .values({ ...row(key, now), status: 'sending', attempts: 1 })
    .onConflictDoUpdate({
      target: [memberNotices.userId, memberNotices.kind, memberNotices.ref, memberNotices.channel],
      set: {
        status: 'sending',
        attempts: sql`${memberNotices.attempts} + 1`,
        detail: null,
        updatedAt: now,
      },
      setWhere: sql`${memberNotices.status} = 'failed' and ${memberNotices.attempts} < ${NOTICE_MAX_ATTEMPTS}`,
    })
    .returning({ id: memberNotices.id });
  return claimed?.id ?? null;
}

/** Records a channel that cannot reach the member; false when the row existed already. */
export async function recordSkipped(
  db: Database,
  key: NoticeKey,
  detail: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(memberNotices)
    .values({ ...row(key, now), status: 'skipped', detail })
    .onConflictDoNothing()
    .returning({ id: memberNotices.id });
  return rows.length > 0;
}

export type DeliveryResult = { status: 'sent' } | { status: 'failed'; detail: string };

/** Marks a claimed notice sent or failed. */
export async function finishNotice(
  db: Database,
  id: string,
  result: DeliveryResult,
  now: Date,
): Promise<void> {
  await db
    .update(memberNotices)
    .set({
      status: result.status,
      detail: result.status === 'failed' ? result.detail : null,
      updatedAt: now,
    })
    .where(eq(memberNotices.id, id));
}

// --- members (reminders, notices, preferences) ---------------------------------------------------

/** What a notice needs of a member. */
export const MEMBER_FIELDS = {
  id: users.id,
  username: users.username,
  email: users.email,
  messengerId: users.messengerId,
  locale: users.locale,
  notifyEmail: users.notifyEmail,
  notifyMessenger: users.notifyMessenger,
};

/** A member's `MEMBER_FIELDS`, as a notice's recipient. */
export type MemberFields = {
  id: string;
  username: string;
  email: string | null;
  messengerId: number | null;
  locale: string | null;
  notifyEmail: boolean;
  notifyMessenger: boolean;
};

/**
 * One page of members that may be due a reminder: role user, web login on, not switched off by
 * an admin, with a membership ending in (now, horizon]. Keyset on (expires_at, id).
 */
export function reminderCandidates(
  db: Database,
  now: Date,
  horizon: Date,
  after: { expiresAt: Date; id: string } | null,
  limit: number,
) {
  return db
    .select({ ...MEMBER_FIELDS, expiresAt: users.expiresAt })
    .from(users)
    .where(
      and(
        eq(users.role, 'user'),
        eq(users.isActive, true),
        eq(users.mediaAccessDisabled, false),
        gt(users.expiresAt, now),
        lte(users.expiresAt, horizon),
        afterPair(users.expiresAt, users.id, after && [after.expiresAt, after.id]),
      ),
    )
    .orderBy(asc(users.expiresAt), asc(users.id))
    .limit(limit);
}

/** One member with their membership end, for a notice. */
export function noticeMember(db: Database, userId: string) {
  return userFields(db, userId, { ...MEMBER_FIELDS, expiresAt: users.expiresAt });
}

/** The calling admin as the sample member of a preview or test. */
export function sampleMemberRow(db: Database, userId: string) {
  return userFields(db, userId, {
    username: users.username,
    email: users.email,
    messengerId: users.messengerId,
    locale: users.locale,
  });
}

type Handle = Pick<Database, 'select' | 'update'>;

/** The member's notice switches (locked with `forUpdate`), with what an audit row names. */
export async function notificationSwitches(db: Handle, userId: string, forUpdate = false) {
  const query = db
    .select({
      username: users.username,
      role: users.role,
      email: users.notifyEmail,
      messenger: users.notifyMessenger,
    })
    .from(users)
    .where(eq(users.id, userId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function setNotificationSwitches(
  db: Handle,
  userId: string,
  input: { email: boolean; messenger: boolean },
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ notifyEmail: input.email, notifyMessenger: input.messenger, updatedAt: now })
    .where(eq(users.id, userId));
}

/** Turns reminder mails off if they are on; the member's name when it changed anything. */
export async function turnOffMail(
  db: Handle,
  userId: string,
  now: Date,
): Promise<{ username: string }[]> {
  return db
    .update(users)
    .set({ notifyEmail: false, updatedAt: now })
    .where(sql`${users.id} = ${userId} and ${users.notifyEmail}`)
    .returning({ username: users.username });
}

// --- inactivity_watch (inactivity.ts) ------------------------------------------------------------

type Tx = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

/**
 * One page of members the inactivity watch looks at, by id after `after`: role user, web login
 * on, not exempt, access on, linked, older than `idleSince`, membership not ended at `now`; with
 * their open watch row, if any.
 */
export function watchedMembers(
  db: Database,
  at: { now: Date; idleSince: Date },
  after: string | null,
  limit: number,
) {
  return db
    .select({
      ...MEMBER_FIELDS,
      expiresAt: users.expiresAt,
      mediaUserId: users.mediaUserId,
      warnedAt: inactivityWatch.warnedAt,
      disabledAt: inactivityWatch.disabledAt,
    })
    .from(users)
    .leftJoin(inactivityWatch, eq(inactivityWatch.userId, users.id))
    .where(
      and(
        eq(users.role, 'user'),
        eq(users.isActive, true),
        eq(users.inactivityExempt, false),
        eq(users.mediaAccessDisabled, false),
        isNotNull(users.mediaUserId),
        // Members in their first D days have had no chance to be idle that long.
        lte(users.createdAt, at.idleSince),
        // Expired members are switched off by the expiry already.
        or(isNull(users.expiresAt), gt(users.expiresAt, at.now)),
        after ? gt(users.id, after) : undefined,
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit);
}

/** Ends the member's watch (a new one starts with the next warning). */
export async function endWatch(db: Tx, userId: string): Promise<void> {
  await db.delete(inactivityWatch).where(eq(inactivityWatch.userId, userId));
}

/** Opens the member's watch with a warning now; false when another run opened it first. */
export async function startWatch(db: Tx, userId: string, now: Date): Promise<boolean> {
  const claimed = await db
    .insert(inactivityWatch)
    .values({ userId, warnedAt: now })
    .onConflictDoNothing()
    .returning({ userId: inactivityWatch.userId });
  return claimed.length > 0;
}

/** The member's switches, locked for the switch-off. */
export async function lockAccessSwitches(tx: Tx, userId: string) {
  const [row] = await tx
    .select({
      role: users.role,
      mediaAccessDisabled: users.mediaAccessDisabled,
      inactivityExempt: users.inactivityExempt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

/** Switches the member's media access off for inactivity and marks the watch. */
export async function switchOffForInactivity(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ mediaAccessDisabled: true, updatedAt: now })
    .where(eq(users.id, userId));
  await tx
    .update(inactivityWatch)
    .set({ disabledAt: now })
    .where(eq(inactivityWatch.userId, userId));
}

export async function setExempt(tx: Tx, userId: string, exempt: boolean, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ inactivityExempt: exempt, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function usernameOf(db: Tx, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return row?.username;
}

// --- media_account_deletions (grace.ts) ----------------------------------------------------------

/**
 * One page of ended, still linked members not yet warned for this end, whose end is at least
 * `endedBy` ago; keyset on (expires_at, id).
 */
export function membersToWarn(
  db: Database,
  at: { now: Date; endedBy: Date },
  after: { expiresAt: Date; id: string } | null,
  limit: number,
) {
  return db
    .select({
      ...MEMBER_FIELDS,
      expiresAt: users.expiresAt,
      isActive: users.isActive,
      mediaUserId: users.mediaUserId,
    })
    .from(users)
    .leftJoin(
      mediaAccountDeletions,
      and(
        eq(mediaAccountDeletions.userId, users.id),
        eq(mediaAccountDeletions.expiresAt, users.expiresAt),
      ),
    )
    .where(
      and(
        eq(users.role, 'user'),
        isNotNull(users.mediaUserId),
        lte(users.expiresAt, at.now),
        lte(users.expiresAt, at.endedBy),
        isNull(mediaAccountDeletions.userId),
        afterPair(users.expiresAt, users.id, after && [after.expiresAt, after.id]),
      ),
    )
    .orderBy(asc(users.expiresAt), asc(users.id))
    .limit(limit);
}

/** Records the deletion warning for this end; false when another run or replica did. */
export async function claimDeletionWarning(
  db: Database,
  member: { id: string; expiresAt: Date; mediaUserId: string },
  now: Date,
): Promise<boolean> {
  const claimed = await db
    .insert(mediaAccountDeletions)
    .values({
      userId: member.id,
      expiresAt: member.expiresAt,
      mediaUserId: member.mediaUserId,
      warnedAt: now,
    })
    .onConflictDoNothing()
    .returning({ userId: mediaAccountDeletions.userId });
  return claimed.length > 0;
}

/** Warned deletions now due (warned by `warnedBy`, ended by `endedBy`, end and link unchanged). */
export function deletionsDue(
  db: Database,
  at: { warnedBy: Date; endedBy: Date },
  after: { expiresAt: Date; userId: string } | null,
  limit: number,
): Promise<{ userId: string; expiresAt: Date }[]> {
  return db
    .select({ userId: mediaAccountDeletions.userId, expiresAt: mediaAccountDeletions.expiresAt })
    .from(mediaAccountDeletions)
    .innerJoin(users, eq(users.id, mediaAccountDeletions.userId))
    .where(
      and(
        isNull(mediaAccountDeletions.deletedAt),
        lte(mediaAccountDeletions.warnedAt, at.warnedBy),
        lte(mediaAccountDeletions.expiresAt, at.endedBy),
        eq(users.expiresAt, mediaAccountDeletions.expiresAt),
        eq(users.mediaUserId, mediaAccountDeletions.mediaUserId),
        eq(users.role, 'user'),
        afterPair(
          mediaAccountDeletions.expiresAt,
          mediaAccountDeletions.userId,
          after && [after.expiresAt, after.userId],
        ),
      ),
    )
    .orderBy(asc(mediaAccountDeletions.expiresAt), asc(mediaAccountDeletions.userId))
    .limit(limit);
}

/** The member's name, end and media link, locked (a renewal waits for the deletion). */
export async function lockMediaLink(tx: Tx, userId: string) {
  const [member] = await tx
    .select({
      username: users.username,
      expiresAt: users.expiresAt,
      mediaUserId: users.mediaUserId,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return member;
}

/**
 * In one transaction: a pending `delete` row for the media account (origin `grace_delete`), the
 * member unlinked, and the deletion marked done for this end.
 */
export async function unlinkForDeletion(
  tx: Tx,
  row: { userId: string; expiresAt: Date; mediaUserId: string; retryId: string },
  now: Date,
): Promise<void> {
  await queueMediaDelete(tx, {
    id: row.retryId,
    mediaUserId: row.mediaUserId,
    userId: row.userId,
    origin: 'grace_delete',
    now,
  });
  await tx
    .update(users)
    .set({ mediaUserId: null, mediaDisabled: false, updatedAt: now })
    .where(eq(users.id, row.userId));
  await tx
    .update(mediaAccountDeletions)
    .set({ deletedAt: now })
    .where(
      and(
        eq(mediaAccountDeletions.userId, row.userId),
        eq(mediaAccountDeletions.expiresAt, row.expiresAt),
      ),
    );
}

export { settleMediaDelete as settleDeleteRetry } from '../../db/retry-queue.js';

// ---------------------------------------------------------------------------------------------
// Announcements (announcements.ts): posting, the job's fan-out and the read marks.

/** "Expiring": the membership ends within this many days (the overview's Renew window). */
export const EXPIRING_DAYS = 14;

/** The members an audience means, as a condition on `users u` at `now`. */
function audienceWhere(audience: AnnouncementAudience, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const base = sql`u.role = 'user' and u.is_active`;
  switch (audience) {
    case 'all':
      return base;
    case 'active':
      return sql`${base} and not u.media_access_disabled and (u.expires_at is null or u.expires_at > ${at})`;
    case 'expiring':
      return sql`${base} and u.expires_at > ${at}
        and u.expires_at <= ${at} + ${EXPIRING_DAYS} * interval '1 day'`;
    case 'expired':
      return sql`${base} and u.expires_at <= ${at}`;
  }
}

/** The username of an account, or null when it is gone. */
export async function accountName(db: Tx, id: string): Promise<string | null> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, id));
  return row?.username ?? null;
}

export async function insertAnnouncement(
  db: Tx,
  row: typeof announcements.$inferInsert,
): Promise<void> {
  await db.insert(announcements).values(row);
}

/** Fixes the recipients of an announcement: the members of `audience` at `now`; their count. */
export async function addAnnouncementRecipients(
  db: Database,
  id: string,
  audience: AnnouncementAudience,
  now: Date,
): Promise<number> {
  const [counted] = await queryRows<{ n: number | string }>(
    db,
    sql`with added as (
          insert into announcement_recipients (announcement_id, user_id)
          select ${id}::uuid, u.id from users u where ${audienceWhere(audience, now)}
          returning 1)
        select count(*)::int as n from added`,
  );
  return Number(counted?.n ?? 0);
}

/** Records the recipient count; `doneAt` marks it done at once (nothing to send). */
export async function setAnnouncementRecipients(
  db: Tx,
  id: string,
  recipients: number,
  doneAt: Date | null,
): Promise<void> {
  await db
    .update(announcements)
    .set({ recipients, ...(doneAt ? { status: 'done', finishedAt: doneAt } : {}) })
    .where(eq(announcements.id, id));
}

/** Up to `limit` recipients of an announcement after the member `after`, by member id. */
export function announcementRecipientPage(
  db: Database,
  id: string,
  after: string | null,
  limit: number,
): Promise<MemberFields[]> {
  return db
    .select(MEMBER_FIELDS)
    .from(announcementRecipients)
    .innerJoin(users, eq(users.id, announcementRecipients.userId))
    .where(
      and(
        eq(announcementRecipients.announcementId, id),
        after ? gt(announcementRecipients.userId, after) : undefined,
      ),
    )
    .orderBy(announcementRecipients.userId)
    .limit(limit);
}

/** The oldest announcement still `sending` that is not in `seen`. */
export async function nextSendingAnnouncement(
  db: Database,
  seen: ReadonlySet<string>,
): Promise<
  { id: string; title: string; body: string; channels: AnnouncementChannel[] } | undefined
> {
  const [next] = await db
    .select({
      id: announcements.id,
      title: announcements.title,
      body: announcements.body,
      channels: announcements.channels,
    })
    .from(announcements)
    .where(
      and(
        eq(announcements.status, 'sending'),
        seen.size
          ? sql`${announcements.id} not in (${sql.join(
              [...seen].map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`
          : undefined,
      ),
    )
    .orderBy(announcements.createdAt, announcements.id)
    .limit(1);
  return next;
}

/** Marks a `sending` announcement done. */
export async function finishAnnouncement(db: Database, id: string, now: Date): Promise<void> {
  await db
    .update(announcements)
    .set({ status: 'done', finishedAt: now })
    .where(and(eq(announcements.id, id), eq(announcements.status, 'sending')));
}

export async function countAnnouncements(db: Database): Promise<number> {
  const [total] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*)::int as n from announcements`,
  );
  return Number(total?.n ?? 0);
}

/** A page of announcements, newest first, with read marks and delivery counts per channel. */
export function announcementRows(db: Database, limit: number, offset: number) {
  return queryRows<{
    id: string;
    title: string;
    body: string;
    audience: AnnouncementAudience;
    channels: AnnouncementChannel[];
    recipients: number;
    status: 'sending' | 'done';
    created_by: string | null;
    created_at: Date | string;
    finished_at: Date | string | null;
    read: number | string;
    counts: Record<string, number> | null;
  }>(
    db,
    sql`select a.id, a.title, a.body, a.audience, a.channels, a.recipients, a.status,
          u.username as created_by, a.created_at, a.finished_at,
          (select count(*) from announcement_recipients r
            where r.announcement_id = a.id and r.read_at is not null) as read,
          (select jsonb_object_agg(k, n) from (
            select n.channel || '.' || n.status as k, count(*)::int as n from member_notices n
            where n.kind = 'announcement' and n.ref = a.id::text
            group by n.channel, n.status) c) as counts
        from announcements a left join users u on u.id = a.created_by
        order by a.created_at desc, a.id desc
        limit ${limit} offset ${offset}`,
  );
}

/** A member's latest `limit` announcements, unread first. */
export function memberAnnouncementRows(db: Database, userId: string, limit: number) {
  return db
    .select({
      id: announcements.id,
      title: announcements.title,
      body: announcements.body,
      createdAt: announcements.createdAt,
      readAt: announcementRecipients.readAt,
    })
    .from(announcementRecipients)
    .innerJoin(announcements, eq(announcements.id, announcementRecipients.announcementId))
    .where(eq(announcementRecipients.userId, userId))
    .orderBy(
      sql`(${announcementRecipients.readAt} is null) desc`,
      sql`${announcements.createdAt} desc`,
    )
    .limit(limit);
}

export async function unreadAnnouncements(db: Database, userId: string): Promise<number> {
  const [unread] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(announcementRecipients)
    .where(and(eq(announcementRecipients.userId, userId), isNull(announcementRecipients.readAt)));
  return Number(unread?.n ?? 0);
}

/**
 * Marks an announcement read for a member (once: a later read changes nothing); false when it
 * was not for this member.
 */
export async function markAnnouncementReadRow(
  db: Database,
  userId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const mine = and(
    eq(announcementRecipients.userId, userId),
    eq(announcementRecipients.announcementId, id),
  );
  const rows = await db
    .select({ readAt: announcementRecipients.readAt })
    .from(announcementRecipients)
    .where(mine);
  if (rows.length === 0) return false;
  await db
    .update(announcementRecipients)
    .set({ readAt: now })
    .where(and(mine, isNull(announcementRecipients.readAt)));
  return true;
}
