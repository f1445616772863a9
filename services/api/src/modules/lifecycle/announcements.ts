// Announcements (docs/lifecycle.md): the operator's voice to the community. Posting one fixes
// its recipients and answers 202; the `announcements` job sends it on the chosen channels — one
// `member_notices` claim per recipient and channel, so replicas, reruns and restarts send each
// once — pacing the bot below Telegram's limits, and retries what failed on its next runs.
import type {
  Announcement,
  AnnouncementCreate,
  AnnouncementCreated,
  AnnouncementsPage,
  LifecycleChannel,
  MemberAnnouncements,
  PaginationQuery,
} from '@usher/contracts';
import { BULK_MESSAGES_PER_SECOND } from '@usher/contracts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from '../../audit-log/audit.js';
import {
  announcementRecipients,
  announcements,
  users,
  type AnnouncementAudience,
  type AnnouncementChannel,
} from '../../db/schema/index.js';
import { paginate } from '../../db/paging.js';
import { queryRows } from '../../db/sql.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MailAdapter } from '../../integrations/mail/adapter.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import {
  botResult,
  claimNotice,
  finishNotice,
  recordSkipped,
  type DeliveryResult,
} from './claims.js';
import { noticeMail, readReminderTexts, type Notice } from './messages.js';
import { localeOf, MEMBER_FIELDS, openChannels, skipReason } from './reminders.js';
import { UNSUBSCRIBE_PAGE, UNSUBSCRIBE_ROUTE, unsubscribeSigner } from './unsubscribe.js';
import type { MemberFields } from './queries.js';

export const ANNOUNCEMENTS_JOB = 'announcements';
/** Every minute: picks up what a run could not start at once, and retries failures. */
export const ANNOUNCEMENTS_CRON = '* * * * *';
/** Recipients read per query. */
const BATCH = 200;
/** "Expiring": the membership ends within this many days (the overview's Renew window). */
export const EXPIRING_DAYS = 14;

type AnnouncementsContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config' | 'scheduler' | 'logger'
>;

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

/**
 * Posts an announcement: the row and its recipients in one transaction (audited
 * `announcement.create`), then a run of the job is started; 202 with the recipient count.
 */
export async function createAnnouncement(
  ctx: AnnouncementsContext,
  adminId: string,
  input: AnnouncementCreate,
  meta: RequestMeta,
): Promise<AnnouncementCreated> {
  const id = uuidv7();
  const now = ctx.now();
  const recipients = await withTransaction(ctx, async (tx) => {
    const [admin] = await tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, adminId));
    if (!admin) throw new AppError('NOT_FOUND', 'The calling account no longer exists');
    await tx.insert(announcements).values({
      id,
      title: input.title,
      body: input.body,
      audience: input.audience,
      channels: input.channels,
      createdBy: adminId,
      createdAt: now,
    });
    const [counted] = await queryRows<{ n: number | string }>(
      tx,
      sql`with added as (
            insert into announcement_recipients (announcement_id, user_id)
            select ${id}::uuid, u.id from users u where ${audienceWhere(input.audience, now)}
            returning 1)
          select count(*)::int as n from added`,
    );
    const n = Number(counted?.n ?? 0);
    // Nothing to send on any channel: done at once.
    const done = n === 0 || input.channels.length === 0;
    await tx
      .update(announcements)
      .set({ recipients: n, ...(done ? { status: 'done', finishedAt: now } : {}) })
      .where(eq(announcements.id, id));
    await recordAudit(tx, {
      actor: { type: 'admin', id: adminId, label: admin.username },
      action: 'announcement.create',
      target: { type: 'announcement', id },
      details: {
        title: input.title,
        audience: input.audience,
        channels: input.channels,
        recipients: n,
      },
      ip: meta.ip,
      requestId: meta.requestId,
    });
    return n;
  });
  if (recipients > 0 && input.channels.length > 0) {
    try {
      await ctx.scheduler.runNow(ANNOUNCEMENTS_JOB, { triggeredBy: adminId });
    } catch (err) {
      // A run in progress picks it up before it ends, or the next minute's run does.
      if (!(err instanceof AppError && err.code === 'JOB_RUNNING')) throw err;
    }
  }
  return { id, recipients };
}

/** Spaces bot messages `1000 / perSecond` ms apart (real time: Telegram counts real seconds). */
class Pacer {
  private next = 0;
  constructor(private readonly gapMs: number) {}
  async wait(signal: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + this.gapMs;
    if (at > now) await sleep(at - now, undefined, { signal }).catch(() => undefined);
  }
}

/** What a notice needs of a member (the columns of `MEMBER_FIELDS`). */
type Recipient = MemberFields;

export interface AnnouncementSummary {
  [key: string]: number;
  announcements: number;
  sent: number;
  failed: number;
  skipped: number;
  unconfigured: number;
}

/** One pass over one announcement's recipients; the failures it left (tried again later). */
async function deliverOne(
  ctx: AnnouncementsContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
  a: { id: string; title: string; body: string; channels: AnnouncementChannel[] },
  summary: AnnouncementSummary,
  pacer: Pacer,
): Promise<number> {
  const open = await openChannels(ctx, a.channels as LifecycleChannel[]);
  const texts = await readReminderTexts(ctx.settings.store);
  const signer = unsubscribeSigner(ctx);
  let failed = 0;
  let after: string | null = null;
  for (;;) {
    const page: Recipient[] = await ctx.db
      .select(MEMBER_FIELDS)
      .from(announcementRecipients)
      .innerJoin(users, eq(users.id, announcementRecipients.userId))
      .where(
        and(
          eq(announcementRecipients.announcementId, a.id),
          after ? gt(announcementRecipients.userId, after) : undefined,
        ),
      )
      .orderBy(announcementRecipients.userId)
      .limit(BATCH);
    for (const member of page) {
      if (run.signal.aborted) return failed;
      const notice: Notice = { locale: localeOf(member.locale), subject: a.title, text: a.body };
      for (const channel of a.channels) {
        const skip = skipReason(member, channel, open);
        if (skip?.by === 'config') {
          summary.unconfigured += 1;
          continue;
        }
        const key = { userId: member.id, kind: 'announcement' as const, ref: a.id, channel };
        if (skip) {
          if (await recordSkipped(ctx.db, key, skip.reason, ctx.now())) summary.skipped += 1;
          continue;
        }
        const claimed = await claimNotice(ctx.db, key, ctx.now());
        if (claimed === null) continue;
        let result: DeliveryResult;
        if (channel === 'email') {
          result = await sendMail(open.mail!, member, notice, texts.siteName, {
            base: texts.baseUrl,
            token: signer.token(member.id, 'email'),
          });
        } else {
          await pacer.wait(run.signal);
          const reply = await ctx.notify.deliver('member', {
            notice: 'announcement',
            userId: member.id,
            messengerId: member.messengerId!,
            locale: notice.locale,
            text: `📢 ${a.title}\n\n${a.body}`,
          });
          result = botResult(reply);
        }
        await finishNotice(ctx.db, claimed, result, ctx.now());
        if (result.status === 'sent') summary.sent += 1;
        else {
          summary.failed += 1;
          failed += 1;
        }
      }
    }
    if (page.length < BATCH) return failed;
    after = page[page.length - 1]!.id;
  }
}

async function sendMail(
  mail: MailAdapter,
  member: Recipient,
  notice: Notice,
  siteName: string,
  link: { base: string; token: string },
): Promise<DeliveryResult> {
  const links = link.base
    ? {
        page: `${link.base}${UNSUBSCRIBE_PAGE}?token=${link.token}`,
        oneClick: `${link.base}${UNSUBSCRIBE_ROUTE}?token=${link.token}`,
      }
    : undefined;
  try {
    await mail.send(noticeMail(member.email!, siteName, notice, links));
    return { status: 'sent' };
  } catch (err) {
    if (err instanceof IntegrationError) return { status: 'failed', detail: err.message };
    throw err;
  }
}

/**
 * One run: every announcement still `sending`, oldest first, including those posted while the
 * run goes on. One whose pass left no failure is `done`; failures stay for the next minute's
 * run (three tries per recipient and channel, then they stay failed and it is done).
 */
export async function runAnnouncements(
  ctx: AnnouncementsContext,
  run: Pick<JobRunContext, 'signal' | 'logger'>,
  pacer = new Pacer(1000 / BULK_MESSAGES_PER_SECOND),
): Promise<JobOutcome> {
  const summary: AnnouncementSummary = {
    announcements: 0,
    sent: 0,
    failed: 0,
    skipped: 0,
    unconfigured: 0,
  };
  const seen = new Set<string>();
  for (;;) {
    if (run.signal.aborted) break;
    const [next] = await ctx.db
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
    if (!next) break;
    seen.add(next.id);
    summary.announcements += 1;
    const failed = await deliverOne(ctx, run, next, summary, pacer);
    if (failed === 0 && !run.signal.aborted) {
      await ctx.db
        .update(announcements)
        .set({ status: 'done', finishedAt: ctx.now() })
        .where(and(eq(announcements.id, next.id), eq(announcements.status, 'sending')));
    }
  }
  if (summary.announcements === 0) return { status: 'skipped', summary };
  run.logger.info(summary, 'announcements');
  return { summary };
}

export function announcementsJob(ctx: AnnouncementsContext): JobDefinition {
  return {
    name: ANNOUNCEMENTS_JOB,
    description: 'Sends announcements by mail and by the bot, and retries what failed',
    schedule: ANNOUNCEMENTS_CRON,
    run: (run) => runAnnouncements(ctx, run),
  };
}

// ---------------------------------------------------------------------------------------------
// Reads

export async function listAnnouncements(
  ctx: Pick<ModuleContext, 'db'>,
  q: PaginationQuery,
): Promise<AnnouncementsPage> {
  const [total] = await queryRows<{ n: number | string }>(
    ctx.db,
    sql`select count(*)::int as n from announcements`,
  );
  return paginate(q, Promise.resolve(Number(total?.n ?? 0)), async (limit, offset) => {
    const rows = await queryRows<{
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
      ctx.db,
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
    return rows.map((r): Announcement => {
      const count = (channel: string) => ({
        sent: r.counts?.[`${channel}.sent`] ?? 0,
        failed: r.counts?.[`${channel}.failed`] ?? 0,
        skipped: r.counts?.[`${channel}.skipped`] ?? 0,
      });
      return {
        id: r.id,
        title: r.title,
        body: r.body,
        audience: r.audience,
        channels: r.channels,
        recipients: r.recipients,
        status: r.status,
        createdBy: r.created_by,
        createdAt: new Date(r.created_at).toISOString(),
        finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
        read: Number(r.read),
        email: count('email'),
        messenger: count('messenger'),
      };
    });
  });
}

/** The member's latest 20 announcements, unread first, and how many are unread. */
export async function memberAnnouncements(
  ctx: Pick<ModuleContext, 'db'>,
  userId: string,
): Promise<MemberAnnouncements> {
  const rows = await ctx.db
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
    .limit(20);
  const [unread] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(announcementRecipients)
    .where(and(eq(announcementRecipients.userId, userId), isNull(announcementRecipients.readAt)));
  return {
    data: rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      createdAt: r.createdAt.toISOString(),
      read: r.readAt !== null,
    })),
    unread: Number(unread?.n ?? 0),
  };
}

/** Marks one read; 404 when it was not for this member. Reading twice changes nothing. */
export async function markAnnouncementRead(
  ctx: Pick<ModuleContext, 'db' | 'now'>,
  userId: string,
  id: string,
): Promise<void> {
  const rows = await ctx.db
    .select({ readAt: announcementRecipients.readAt })
    .from(announcementRecipients)
    .where(
      and(eq(announcementRecipients.userId, userId), eq(announcementRecipients.announcementId, id)),
    );
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'No such announcement');
  await ctx.db
    .update(announcementRecipients)
    .set({ readAt: ctx.now() })
    .where(
      and(
        eq(announcementRecipients.userId, userId),
        eq(announcementRecipients.announcementId, id),
        isNull(announcementRecipients.readAt),
      ),
    );
}
