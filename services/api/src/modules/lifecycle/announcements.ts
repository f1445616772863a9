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
import { setTimeout as sleep } from 'node:timers/promises';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from '../../audit-log/audit.js';
import type { AnnouncementChannel } from '../../db/schema/index.js';
import { paginate } from '../../db/paging.js';
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
import { localeOf, openChannels, skipReason } from './reminders.js';
import { UNSUBSCRIBE_PAGE, UNSUBSCRIBE_ROUTE, unsubscribeSigner } from './unsubscribe.js';
import {
  accountName,
  addAnnouncementRecipients,
  announcementRecipientPage,
  announcementRows,
  countAnnouncements,
  finishAnnouncement,
  insertAnnouncement,
  markAnnouncementReadRow,
  memberAnnouncementRows,
  nextSendingAnnouncement,
  setAnnouncementRecipients,
  unreadAnnouncements,
  type MemberFields,
} from './queries.js';

export const ANNOUNCEMENTS_JOB = 'announcements';
/** Every minute: picks up what a run could not start at once, and retries failures. */
export const ANNOUNCEMENTS_CRON = '* * * * *';
/** Recipients read per query. */
const BATCH = 200;

type AnnouncementsContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config' | 'scheduler' | 'logger'
>;

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
    const adminName = await accountName(tx, adminId);
    if (adminName === null) throw new AppError('NOT_FOUND', 'The calling account no longer exists');
    await insertAnnouncement(tx, {
      id,
      title: input.title,
      body: input.body,
      audience: input.audience,
      channels: input.channels,
      createdBy: adminId,
      createdAt: now,
    });
    const n = await addAnnouncementRecipients(tx, id, input.audience, now);
    // Nothing to send on any channel: done at once.
    const done = n === 0 || input.channels.length === 0;
    await setAnnouncementRecipients(tx, id, n, done ? now : null);
    await recordAudit(tx, {
      actor: { type: 'admin', id: adminId, label: adminName },
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
    const page: Recipient[] = await announcementRecipientPage(ctx.db, a.id, after, BATCH);
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
    const next = await nextSendingAnnouncement(ctx.db, seen);
    if (!next) break;
    seen.add(next.id);
    summary.announcements += 1;
    const failed = await deliverOne(ctx, run, next, summary, pacer);
    if (failed === 0 && !run.signal.aborted) {
      await finishAnnouncement(ctx.db, next.id, ctx.now());
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
  return paginate(q, countAnnouncements(ctx.db), async (limit, offset) => {
    const rows = await announcementRows(ctx.db, limit, offset);
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
  const rows = await memberAnnouncementRows(ctx.db, userId, 20);
  const unread = await unreadAnnouncements(ctx.db, userId);
  return {
    data: rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      createdAt: r.createdAt.toISOString(),
      read: r.readAt !== null,
    })),
    unread,
  };
}

/** Marks one read; 404 when it was not for this member. Reading twice changes nothing. */
export async function markAnnouncementRead(
  ctx: Pick<ModuleContext, 'db' | 'now'>,
  userId: string,
  id: string,
): Promise<void> {
  if (!(await markAnnouncementReadRow(ctx.db, userId, id, ctx.now()))) {
    throw new AppError('NOT_FOUND', 'No such announcement');
  }
}
