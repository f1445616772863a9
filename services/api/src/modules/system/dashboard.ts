// `GET /admin/dashboard` (issue 36): the membership and revenue figures the admin landing opens
// on — members joining against members about to lapse, renewals, and this month's revenue
// against the last, per currency. Days and months are the business zone's (SCHEDULE_TIMEZONE).
import type { AdminDashboard } from '@usher/contracts';
import { addDays, startOfZonedDay, zonedDay } from '../../time/zoned-day.js';
import type { ModuleContext } from '../context.js';
import { membershipCounts, revenueBetween } from './queries.js';

const n = (v: unknown) => Number(v ?? 0);

/** The first day of the month `day` falls in, and of the month before, `YYYY-MM-DD`. */
export function monthStarts(day: string): { thisMonth: string; lastMonth: string } {
  const thisMonth = `${day.slice(0, 7)}-01`;
  return { thisMonth, lastMonth: `${addDays(thisMonth, -1).slice(0, 7)}-01` };
}

type Revenue = AdminDashboard['revenue']['currencies'][number];

export async function adminDashboard(ctx: ModuleContext): Promise<AdminDashboard> {
  const now = ctx.now();
  const zone = (await ctx.settings.store.getString('SCHEDULE_TIMEZONE')) || 'UTC';
  const months = monthStarts(zonedDay(now, zone));
  const thisStart = startOfZonedDay(months.thisMonth, zone);
  const lastStart = startOfZonedDay(months.lastMonth, zone);
  // As far into the last month as this one has run; a longer month stops at its own end.
  const sameTime = new Date(
    Math.min(thisStart.getTime(), lastStart.getTime() + (now.getTime() - thisStart.getTime())),
  );
  const [counts, thisMonth, lastToDate, lastMonth] = [
    await membershipCounts(ctx.db, now),
    await revenueBetween(ctx.db, thisStart, now),
    await revenueBetween(ctx.db, lastStart, sameTime),
    await revenueBetween(ctx.db, lastStart, thisStart),
  ];
  const byCurrency = new Map<string, Revenue>();
  const entry = (currency: string) => {
    let e = byCurrency.get(currency);
    if (!e) {
      e = {
        currency,
        thisMonth: 0,
        thisMonthCount: 0,
        lastMonthToDate: 0,
        lastMonth: 0,
        lastMonthCount: 0,
      };
      byCurrency.set(currency, e);
    }
    return e;
  };
  for (const r of thisMonth) {
    const e = entry(r.currency);
    e.thisMonth = n(r.amount);
    e.thisMonthCount = n(r.n);
  }
  for (const r of lastToDate) entry(r.currency).lastMonthToDate = n(r.amount);
  for (const r of lastMonth) {
    const e = entry(r.currency);
    e.lastMonth = n(r.amount);
    e.lastMonthCount = n(r.n);
  }
  return {
    generatedAt: now.toISOString(),
    timeZone: zone,
    members: {
      active: n(counts.active),
      expired: n(counts.expired),
      joined30d: n(counts.joined),
      expiring30d: n(counts.expiring),
      lapsed30d: n(counts.lapsed),
      renewals30d: n(counts.renewals),
    },
    revenue: {
      ...months,
      // The currency earning most this month first, then last month's.
      currencies: [...byCurrency.values()].sort(
        (a, b) =>
          b.thisMonth - a.thisMonth ||
          b.lastMonth - a.lastMonth ||
          a.currency.localeCompare(b.currency),
      ),
    },
  };
}
