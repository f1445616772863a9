// The lifecycle's reads for the admin pages (docs/lifecycle.md): the notices log and the
// reminders coming up.
import type { NoticesQuery } from '@usher/contracts';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { memberNotices, users, type MemberNoticeRow } from '../../db/schema/index.js';
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
 * memberships end this week still answers at once): `{n, capped}` as `countUpTo` gives.
 */
export async function countUpcoming(
  db: Database,
  now: Date,
  until: Date,
  thresholds: number[],
  cap: number,
): Promise<{ n: number; capped: boolean }> {
  const w = { now, until, thresholds: [...new Set(thresholds)] };
  const parts = w.thresholds.map((d) => upcomingOf(sql`1`, d, w, cap + 1));
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*)::int as n from (select 1 from (${sql.join(parts, sql` union all `)}) a
      limit ${cap + 1}) c`,
  );
  const n = Number(row?.n ?? 0);
  return n > cap ? { n: cap, capped: true } : { n, capped: false };
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
