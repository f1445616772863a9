// Rankings in the demo (issue 19): the schedule is switched on, and the finished days of the last
// two weeks and the finished weeks of the last six are generated from the year of plays the
// media-server fake holds, so the rankings page opens on a podium with history behind it. Only
// the newest day and week are pushed, so the group chat gets one post of each, not twenty.
import type { Session, UsherClient } from './usher-client.js';

const DAYS = 14;
const WEEKS = 6;

interface Batch {
  periodStart: string;
}

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

export async function seedRankings(api: UsherClient, admin: Session): Promise<void> {
  await api.call('PUT', '/api/v1/admin/settings/schedule', {
    session: admin,
    body: { values: { RANKING_ENABLED: true } },
  });
  // "Today" and "this Monday" as the API counts them (SCHEDULE_TIMEZONE).
  const preview = (period: 'daily' | 'weekly') =>
    api.call<Batch>('POST', '/api/v1/admin/rankings/preview', {
      session: admin,
      body: { period },
    });
  const today = (await preview('daily')).periodStart;
  const monday = (await preview('weekly')).periodStart;
  const generate = (period: 'daily' | 'weekly', date: string, push: boolean) =>
    api.call('POST', '/api/v1/admin/rankings/generate', {
      session: admin,
      body: { period, date, push },
    });
  // Oldest first; the newest of each is the one pushed.
  for (let k = DAYS; k >= 1; k--) await generate('daily', addDays(today, -k), k === 1);
  for (let k = WEEKS; k >= 1; k--) await generate('weekly', addDays(monday, -7 * k), k === 1);
}
