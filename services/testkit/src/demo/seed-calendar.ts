// The watch calendar in the demo (issue 19): the admin syncs last, this and next week from the
// world's airing shows (the demo TMDB is the world's catalogue, the library its files on disk),
// so the calendar opens on episodes in the library, missing and upcoming; the featured member
// follows a few of this week's shows, so "Following" has content too. The API's own start-up
// sync may be running when the seeding gets here: the admin's sync then waits for it.
import { UsherApiError, type Session, type UsherClient } from './usher-client.js';

interface JobRun {
  status: string;
}
interface CalendarWeek {
  days: { items: { series: { tmdbId: number } }[] }[];
}

/** How many of this week's shows the featured member follows. */
const FOLLOWS = 3;

async function syncCalendar(api: UsherClient, admin: Session): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    let runId: string;
    try {
      ({ runId } = await api.call<{ runId: string }>('POST', '/api/v1/admin/calendar/sync', {
        session: admin,
        body: { weekOffsets: [-1, 0, 1] },
      }));
    } catch (err) {
      // 409 JOB_RUNNING: the start-up sync (CALENDAR_SYNC_ON_START) is still at work.
      if (!(err instanceof UsherApiError) || err.status !== 409) throw err;
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    for (let i = 0; i < 1200; i++) {
      const run = await api.call<JobRun>('GET', `/api/v1/admin/job-runs/${runId}`, {
        session: admin,
      });
      if (run.status !== 'running') {
        if (run.status !== 'succeeded') throw new Error(`demo calendar sync ended ${run.status}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('demo calendar sync did not finish within two minutes');
  }
  throw new Error('demo calendar sync could not start: another sync kept running');
}

export async function seedCalendar(
  api: UsherClient,
  admin: Session,
  member: Session,
): Promise<void> {
  await syncCalendar(api, admin);
  const week = await api.call<CalendarWeek>('GET', '/api/v1/calendar/global', { session: member });
  const shows = [...new Set(week.days.flatMap((d) => d.items.map((i) => i.series.tmdbId)))];
  for (const tmdbId of shows.slice(0, FOLLOWS)) {
    await api.call('PUT', `/api/v1/calendar/follows/${tmdbId}`, { session: member });
  }
}
