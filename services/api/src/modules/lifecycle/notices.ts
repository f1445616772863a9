// What the admin sees of the lifecycle (docs/lifecycle.md): the notices log — sent, skipped,
// failed — and the reminders coming up, per member, threshold and channel.
import { DAY_MS } from '../../time/units.js';
import type {
  LifecycleUpcomingPage,
  LifecycleUpcomingQuery,
  NoticesPage,
  NoticesQuery,
  UpcomingReminder,
} from '@usher/contracts';
import { COUNT_CAP, paginate, paginateCapped } from '../../db/paging.js';
import type { ModuleContext } from '../context.js';
import {
  countNotices,
  countUpcoming,
  noticeRows,
  reminderNotices,
  upcomingRows,
} from './queries.js';
import { openChannels, reminderRef, skipReason } from './reminders.js';

type NoticesContext = Pick<
  ModuleContext,
  'db' | 'now' | 'settings' | 'integrations' | 'notify' | 'config'
>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listNotices(ctx: NoticesContext, q: NoticesQuery): Promise<NoticesPage> {
  return paginate(q, countNotices(ctx.db, q), async (limit, offset) =>
    (await noticeRows(ctx.db, q, limit, offset)).map((n) => ({
      id: n.id,
      userId: n.userId,
      username: n.username,
      kind: n.kind,
      channel: n.channel,
      status: n.status,
      attempts: n.attempts,
      detail: n.detail,
      expiresAt: iso(n.expiresAt),
      days: n.days,
      createdAt: n.createdAt.toISOString(),
      updatedAt: n.updatedAt.toISOString(),
    })),
  );
}

/**
 * The reminders due within `days` from now, as the job would send them: per channel switched
 * on, what is already recorded for it, else `pending` or `skipped` with the reason the job
 * would record. Nothing is written.
 */
export async function upcomingReminders(
  ctx: NoticesContext,
  q: LifecycleUpcomingQuery,
): Promise<LifecycleUpcomingPage> {
  const thresholds = (await ctx.settings.store.get('REMINDER_DAYS'))
    .map(Number)
    .filter((d) => d >= 1 && d <= 60);
  if (thresholds.length === 0) {
    return { data: [], total: 0, page: q.page, pageSize: q.pageSize, totalCapped: false };
  }
  const open = await openChannels(ctx);
  const now = ctx.now();
  const until = new Date(now.getTime() + q.days * DAY_MS);
  const total = countUpcoming(ctx.db, now, until, thresholds, COUNT_CAP);
  return paginateCapped(q, total, async (limit, offset) => {
    const rows = await upcomingRows(ctx.db, now, until, thresholds, limit, offset);
    const recorded = new Map(
      (await reminderNotices(ctx.db, [...new Set(rows.map((r) => r.userId))])).map((n) => [
        `${n.userId}|${n.ref}|${n.channel}`,
        n,
      ]),
    );
    return rows.map((r): UpcomingReminder => {
      const ref = reminderRef(r.expiresAt, r.days);
      return {
        userId: r.userId,
        username: r.username,
        expiresAt: r.expiresAt.toISOString(),
        days: r.days,
        dueAt: r.dueAt.toISOString(),
        channels: open.wanted.map((channel) => {
          const done = recorded.get(`${r.userId}|${ref}|${channel}`);
          if (done) return { channel, status: done.status, detail: done.detail };
          const skip = skipReason(r, channel, open);
          return skip === null
            ? { channel, status: 'pending' as const, detail: null }
            : { channel, status: 'skipped' as const, detail: skip.reason };
        }),
      };
    });
  });
}
