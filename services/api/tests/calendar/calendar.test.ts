import {
  calendarFollowReplySchema,
  calendarWeekSchema,
  createRequestReplySchema,
  jobRunSchema,
  mediaServerWebhookReplySchema,
  runJobResponseSchema,
  type CalendarWeek,
} from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { auditLog, calendarEpisodes, jobRuns, mediaRequests } from '../../src/db/schema/index.js';
import { calendarJobs } from '../../src/modules/calendar/index.js';
import type { TestApp } from '../support/app.js';
import { createTestApp } from '../support/app.js';
import { SimulatedClock } from '../support/clock.js';
import { ENGINE } from '../support/database.js';
import { errorOf, startHarness, WEBHOOK_TOKEN, type Harness } from '../requests/harness.js';
import { domainFlavours } from '../support/flavours.js';

// The TMDB fake's "today": Severance season 2 airs weekly from 2026-05-04, so episode 5 aired on
// Monday 2026-06-01, episode 6 airs on Monday 2026-06-08 and episode 7 on 2026-06-15. The media
// server fake holds S01E01–03 and S02E01–02 of Severance.
const TMDB_TODAY = '2026-06-08';
const SEVERANCE = 95396;
/** 23:30 UTC on Sunday 2026-06-07: already Monday 2026-06-08 in Asia/Shanghai (UTC+8). */
const LATE_SUNDAY_UTC = '2026-06-07T23:30:00.000Z';

interface Item {
  season: number;
  episode: number;
  status: string;
  following: boolean;
  date: string;
}

function itemsOf(week: CalendarWeek): Item[] {
  return week.days.flatMap((d) =>
    d.items.map((i) => ({
      season: i.season,
      episode: i.episode,
      status: i.status,
      following: i.following,
      date: d.date,
    })),
  );
}

/** Adds an item to the media-server fake without firing its webhook; returns the item id. */
async function addItem(h: Harness, item: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${h.media.url}/__fake/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: false, ...item }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { Id: string } }).item.Id;
}

async function runSync(t: TestApp, params: Record<string, unknown> = {}) {
  const { runId, done } = await t.context.scheduler.runNow('calendar_sync', { params });
  expect(await done).toBe('succeeded');
  const [run] = await t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
  return run!;
}

async function week(t: TestApp, token: string, path: string): Promise<CalendarWeek> {
  const res = await t.call('get', `/api/v1/calendar/${path}`, { token });
  expect(res.status).toBe(200);
  return calendarWeekSchema.parse(await res.json());
}

// One flavour (support/flavours.ts): Jellyfin, whose ItemAdded carries the token in a header
// (webhooks/ covers Emby's).
describe.each(domainFlavours('jellyfin'))(`watch calendar on %s (${ENGINE})`, (flavour) => {
  let h: Harness;
  let at: Date;
  let shanghai: TestApp;
  let utc: TestApp;
  let member: { id: string; token: string };
  let other: { id: string; token: string };

  beforeAll(async () => {
    at = new Date(LATE_SUNDAY_UTC);
    h = await startHarness({
      flavour,
      tmdbToday: TMDB_TODAY,
      now: () => at,
      settings: { SCHEDULE_TIMEZONE: 'Asia/Shanghai' },
    });
    shanghai = h.t;
    utc = h.appWith({ SCHEDULE_TIMEZONE: 'UTC' });
    member = await h.member();
    other = await h.member();
  });
  afterAll(() => h.close());

  it('should track the airing series from the library and place episodes on business days', async () => {
    const run = await runSync(shanghai);
    expect(run.summary).toMatchObject({
      weekOffsets: [0, 1],
      from: '2026-06-08',
      to: '2026-06-21',
      tracked: 1,
      removed: 0,
      progress: { phase: 'done', series: 2, seriesDone: 2, episodes: 2, current: null },
    });
    // The Bear is unknown to the TMDB fake: its failure is recorded, the run goes on.
    expect((run.summary as { failed: { tmdbId: number }[] }).failed).toEqual([
      expect.objectContaining({ tmdbId: 136315 }),
    ]);

    // 23:30 UTC on Sunday is Monday in Shanghai: episode 6 airs "today" in this week.
    const local = await week(shanghai, member.token, 'global');
    expect(local.week).toEqual({
      start: '2026-06-08',
      end: '2026-06-14',
      timezone: 'Asia/Shanghai',
    });
    expect(local.days.map((d) => d.isToday)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(itemsOf(local)).toEqual([
      { season: 2, episode: 6, status: 'today', following: false, date: '2026-06-08' },
    ]);
    expect(local.summary).toEqual({ total: 1, ready: 0, today: 1, upcoming: 0, missing: 0 });
    expect(local.days[0]!.items[0]!.series).toEqual({
      tmdbId: SEVERANCE,
      name: 'Severance',
      posterPath: '/severance-poster.jpg',
    });

    // In UTC it is still Sunday: this week is the previous one and episode 6 is upcoming.
    const inUtc = await week(utc, member.token, 'global');
    expect(inUtc.week.start).toBe('2026-06-01');
    expect(inUtc.days.at(-1)).toMatchObject({ date: '2026-06-07', isToday: true, items: [] });
    const nextUtc = await week(utc, member.token, 'global?week=2026-06-10');
    expect(itemsOf(nextUtc)).toEqual([
      { season: 2, episode: 6, status: 'upcoming', following: false, date: '2026-06-08' },
    ]);

    const following = await week(shanghai, member.token, 'global?weekOffset=1');
    expect(itemsOf(following)).toEqual([
      { season: 2, episode: 7, status: 'upcoming', following: false, date: '2026-06-15' },
    ]);
  });

  it('should refresh last week on request and show what is missing', async () => {
    await runSync(shanghai, { weekOffsets: [-1] });
    const last = await week(shanghai, member.token, 'global?weekOffset=-1');
    expect(itemsOf(last)).toEqual([
      { season: 2, episode: 5, status: 'missing', following: false, date: '2026-06-01' },
    ]);
    const filtered = await week(shanghai, member.token, 'global?weekOffset=-1&status=ready');
    expect(itemsOf(filtered)).toEqual([]);
    expect(filtered.summary).toMatchObject({ total: 1, missing: 1 });
  });

  it('should follow and unfollow idempotently and list followed series in Following', async () => {
    expect(itemsOf(await week(shanghai, member.token, 'following'))).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const res = await shanghai.call('put', `/api/v1/calendar/follows/${SEVERANCE}`, {
        token: member.token,
      });
      expect(res.status).toBe(200);
      expect(calendarFollowReplySchema.parse(await res.json())).toEqual({
        tmdbId: SEVERANCE,
        following: true,
      });
    }
    expect(itemsOf(await week(shanghai, member.token, 'following'))).toEqual([
      { season: 2, episode: 6, status: 'today', following: true, date: '2026-06-08' },
    ]);
    // Follows are per member.
    expect(itemsOf(await week(shanghai, other.token, 'global'))[0]!.following).toBe(false);
    expect(itemsOf(await week(shanghai, other.token, 'following'))).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const res = await shanghai.call('delete', `/api/v1/calendar/follows/${SEVERANCE}`, {
        token: member.token,
      });
      expect(res.status).toBe(204);
    }
    expect(itemsOf(await week(shanghai, member.token, 'following'))).toEqual([]);
  });

  it('should refuse bad input with the shared error body and change nothing', async () => {
    expect(
      await errorOf(
        await shanghai.call('put', '/api/v1/calendar/follows/4242', { token: member.token }),
      ),
    ).toEqual({
      status: 404,
      code: 'SERIES_NOT_TRACKED',
      message: 'The calendar does not track this series',
    });
    const untracked = await shanghai.call('delete', '/api/v1/calendar/follows/4242', {
      token: member.token,
    });
    expect(untracked.status).toBe(204);
    for (const path of [
      'global?weekOffset=5',
      'global?week=2026-02-30',
      'global?week=2026-06-08&weekOffset=1',
      'following?status=lost',
      'global?extra=1',
    ]) {
      const res = await shanghai.call('get', `/api/v1/calendar/${path}`, { token: member.token });
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
    const bad = await shanghai.call('put', '/api/v1/calendar/follows/abc', { token: member.token });
    expect((await errorOf(bad)).code).toBe('VALIDATION_FAILED');
    expect(itemsOf(await week(shanghai, member.token, 'following'))).toEqual([]);
  });

  it('should answer 503 naming TMDB when the metadata key is missing (calendar off)', async () => {
    const off = h.appWith({ TMDB_API_KEY: '' });
    expect(
      await errorOf(await off.call('get', '/api/v1/calendar/global', { token: member.token })),
    ).toMatchObject({ status: 503, code: 'NOT_CONFIGURED', details: { system: 'tmdb' } });
  });

  it('should mark a tracked episode ready from the webhook and report matched.calendar', async () => {
    const target = `${await h.listen()}/api/v1/webhooks/media-server`;
    const series = h.media.seeded!.series.severance.series.id;
    const itemId = await addItem(h, {
      type: 'Episode',
      name: 'Chikhai Bardo',
      seriesId: series,
      season: 2,
      episode: 6,
    });
    const send = async () => {
      const delivery =
        flavour === 'emby'
          ? await h.media.emitItemAdded(itemId, `${target}?token=${WEBHOOK_TOKEN}`)
          : await h.media.emitItemAdded(itemId, target, {
              headers: { 'X-Usher-Webhook-Token': WEBHOOK_TOKEN },
            });
      expect(delivery.status).toBe(200);
      return mediaServerWebhookReplySchema.parse(JSON.parse(delivery.responseBody));
    };
    expect(await send()).toEqual({ received: true, matched: { calendar: 1, requests: 0 } });
    // Counts are of changes: the same event again marks nothing.
    expect(await send()).toEqual({ received: true, matched: { calendar: 0, requests: 0 } });
    const local = await week(shanghai, member.token, 'global');
    expect(itemsOf(local)[0]).toMatchObject({ episode: 6, status: 'ready' });
    expect(local.summary).toMatchObject({ ready: 1, today: 0 });
    const [row] = await h.t.context.db
      .select()
      .from(calendarEpisodes)
      .where(and(eq(calendarEpisodes.season, 2), eq(calendarEpisodes.episode, 6)));
    expect(row).toMatchObject({ mediaItemId: itemId });
    expect(row!.availableAt).toBeInstanceOf(Date);
  });

  it('should start the sync for admins with progress on the run, audited', async () => {
    const admin = await h.admin();
    const refused = await shanghai.call('post', '/api/v1/admin/calendar/sync', {
      token: admin.token,
      body: { weekOffsets: [2] },
    });
    expect((await errorOf(refused)).code).toBe('VALIDATION_FAILED');

    const res = await shanghai.call('post', '/api/v1/admin/calendar/sync', {
      token: admin.token,
      body: { tmdbId: SEVERANCE, force: true },
    });
    expect(res.status).toBe(202);
    const { runId } = runJobResponseSchema.parse(await res.json());
    await eventually(async () => {
      const polled = await shanghai.call('get', `/api/v1/admin/job-runs/${runId}`, {
        token: admin.token,
      });
      const run = jobRunSchema.parse(await polled.json());
      expect(run.status).toBe('succeeded');
      expect(run.params).toEqual({ tmdbId: SEVERANCE, force: true, weekOffsets: [0, 1] });
      expect(run.summary).toMatchObject({ progress: { series: 1, seriesDone: 1 }, failed: [] });
    });
    const [audit] = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'calendar.sync'), eq(auditLog.targetId, 'calendar_sync')));
    expect(audit).toMatchObject({ actorType: 'admin', actorId: admin.id });
    // The sync re-checks the library and keeps episode 6 ready.
    expect(itemsOf(await week(shanghai, member.token, 'global'))[0]!.status).toBe('ready');
  });

  it('should clear ready when the item left the library', async () => {
    const [row] = await h.t.context.db
      .select()
      .from(calendarEpisodes)
      .where(and(eq(calendarEpisodes.season, 2), eq(calendarEpisodes.episode, 6)));
    // The file is deleted on the server.
    h.media.state.items.delete(row!.mediaItemId!);
    await runSync(shanghai);
    expect(itemsOf(await week(shanghai, member.token, 'global'))[0]).toMatchObject({
      episode: 6,
      status: 'today',
    });
    const [after] = await h.t.context.db
      .select()
      .from(calendarEpisodes)
      .where(eq(calendarEpisodes.id, row!.id));
    expect(after).toMatchObject({ mediaItemId: null, availableAt: null });
  });

  it('should bring a request approved while the webhook was down to INGESTED in one sync', async () => {
    const requester = await h.member();
    const admin = await h.admin();
    const approve = async (body: Record<string, unknown>) => {
      const res = await shanghai.call('post', '/api/v1/media-requests', {
        token: requester.token,
        body: { confirmExisting: true, ...body },
      });
      expect(res.status).toBe(201);
      const { request } = createRequestReplySchema.parse(await res.json());
      const ok = await shanghai.call('post', `/api/v1/admin/media-requests/${request.id}/approve`, {
        token: admin.token,
      });
      expect(ok.status).toBe(200);
      return request.id;
    };
    const status = async (id: string) =>
      (await h.t.context.db.select().from(mediaRequests).where(eq(mediaRequests.id, id)))[0]!;

    const movie = await approve({ type: 'MOVIE', tmdbId: 4_300_001, season: 0, name: 'Lost Hook' });
    const season = await approve({ type: 'TV', tmdbId: SEVERANCE, season: 1, name: 'Severance' });
    await h.settle();
    // The webhook is down: the files land without any event reaching Usher.
    await addItem(h, { type: 'Movie', name: 'Lost Hook', tmdbId: '4300001' });
    const series = h.media.seeded!.series.severance.series.id;
    for (let episode = 4; episode <= 9; episode++) {
      await addItem(h, {
        type: 'Episode',
        name: `E${episode}`,
        seriesId: series,
        season: 1,
        episode,
      });
    }
    // Within the hour the webhook may still come: the sync leaves the requests alone.
    await runSync(shanghai);
    expect((await status(movie)).status).toBe('APPROVED');

    at = new Date(at.getTime() + 2 * 3_600_000);
    const fresh = await approve({ type: 'MOVIE', tmdbId: 4_300_002, season: 0, name: 'Too New' });
    await addItem(h, { type: 'Movie', name: 'Too New', tmdbId: '4300002' });
    const run = await runSync(shanghai);
    expect(run.summary).toMatchObject({ reconcile: { checked: 2, ingested: 2, failed: 0 } });
    expect((await status(movie)).status).toBe('INGESTED');
    expect(await status(season)).toMatchObject({
      status: 'INGESTED',
      ingestProgress: { have: 9, total: 9, last: 'S01E09' },
    });
    expect((await status(fresh)).status).toBe('APPROVED');
    const audits = await h.t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'request.ingest'), eq(auditLog.targetId, movie)));
    expect(audits).toEqual([
      expect.objectContaining({ actorType: 'system', actorLabel: 'job:calendar_sync' }),
    ]);
  });

  it('should reconcile hundreds of approved requests in batches, not one search each', async () => {
    const requester = await h.member();
    const reviewed = new Date(at.getTime() - 2 * 3_600_000);
    // 450 approved movies (three batches of 200), one in three already on disk; one request
    // approved within the hour stays with the webhook.
    const rows = Array.from({ length: 451 }, (_, k) => ({
      id: randomUUID(),
      userId: requester.id,
      requesterName: 'batch',
      type: 'MOVIE',
      tmdbId: 4_500_000 + k,
      season: 0,
      name: `Batch ${k}`,
      status: 'APPROVED',
      reviewSource: 'manual',
      reviewedAt: k === 450 ? at : reviewed,
      createdAt: new Date(reviewed.getTime() - (451 - k) * 1000),
      updatedAt: reviewed,
    }));
    await h.t.context.db.insert(mediaRequests).values(rows);
    for (let k = 0; k <= 450; k += 3) {
      await addItem(h, { type: 'Movie', name: `Batch ${k}`, tmdbId: String(4_500_000 + k) });
    }
    h.media.clearRequests();
    const run = await runSync(shanghai);
    const reconcile = (run.summary as { reconcile: Record<string, number> }).reconcile;
    expect(reconcile).toMatchObject({ ingested: 150, failed: 0 });
    expect(reconcile['checked']).toBeGreaterThanOrEqual(450);
    const ingested = await h.t.context.db
      .select({ tmdbId: mediaRequests.tmdbId })
      .from(mediaRequests)
      .where(and(eq(mediaRequests.requesterName, 'batch'), eq(mediaRequests.status, 'INGESTED')))
      .orderBy(asc(mediaRequests.tmdbId));
    expect(ingested.map((r) => r.tmdbId - 4_500_000)).toEqual(
      Array.from({ length: 150 }, (_, i) => i * 3),
    );
    // Jellyfin: the tmdb→item map of each type read once for the whole pass (plus the sync's
    // own listing of series), never a title search per request.
    const searches = h.media.requests('/Items').filter((r) => 'searchTerm' in r.query);
    expect(searches).toEqual([]);
    expect(h.media.requests('/Items').length).toBeLessThan(10);
  });
});

describe(`calendar_sync on two replicas (${ENGINE})`, () => {
  let h: Harness;
  let clock: SimulatedClock;
  let a: TestApp;
  let b: TestApp;
  const settle = () => Promise.all([a.context.scheduler.idle(), b.context.scheduler.idle()]);

  beforeAll(async () => {
    h = await startHarness({ tmdbToday: TMDB_TODAY, bot: false });
    clock = new SimulatedClock('2026-06-08T00:10:00Z');
    const replica = async (replicaId: string, handle = h.database.handle) =>
      createTestApp(handle, {
        replicaId,
        config: h.t.config,
        now: clock.now,
        schedulerClock: clock,
        settingsEnv: h.env,
        jobs: (ctx) => calendarJobs(ctx),
      });
    a = await replica('replica-a');
    b = await replica('replica-b', await h.database.connectAnother());
    await Promise.all([a.context.scheduler.start(), b.context.scheduler.start()]);
  });
  afterAll(async () => {
    await a.context.scheduler.stop(1000);
    await b.context.scheduler.stop(1000);
    await h.close();
  });

  it('should run the start-up sync once and each scheduled slot once', async () => {
    await clock.advanceTo('2026-06-09T00:30:00Z', settle);
    const runs = await h.t.context.db
      .select({
        trigger: jobRuns.trigger,
        slot: jobRuns.scheduledFor,
        status: jobRuns.status,
      })
      .from(jobRuns)
      .where(eq(jobRuns.jobName, 'calendar_sync'))
      .orderBy(asc(jobRuns.startedAt));
    expect(runs.map((r) => `${r.trigger} ${r.slot?.toISOString() ?? '-'} ${r.status}`)).toEqual([
      // 15 s after both replicas started: one run; the other replica saw it had just finished.
      'startup - succeeded',
      'schedule 2026-06-08T12:00:00.000Z succeeded',
      'schedule 2026-06-09T00:00:00.000Z succeeded',
    ]);
    // One row per episode whoever ran the sync.
    const episodes = await h.t.context.db.select().from(calendarEpisodes);
    expect(episodes.map((e) => `${e.season}x${e.episode}`).sort()).toEqual(['2x6', '2x7']);
  });
});

describe(`calendar_sync at start switched off (${ENGINE})`, () => {
  it('should not run 15 s after start when CALENDAR_SYNC_ON_START is false', async () => {
    const h = await startHarness({ tmdbToday: TMDB_TODAY, bot: false });
    const clock = new SimulatedClock('2026-06-08T00:10:00Z');
    const t = createTestApp(h.database.handle, {
      config: h.t.config,
      now: clock.now,
      schedulerClock: clock,
      settingsEnv: { ...h.env, CALENDAR_SYNC_ON_START: 'false' },
      jobs: (ctx) => calendarJobs(ctx),
    });
    try {
      await t.context.scheduler.start();
      await clock.advanceTo('2026-06-08T00:20:00Z', () => t.context.scheduler.idle());
      expect(await t.context.db.select().from(jobRuns)).toEqual([]);
    } finally {
      await t.context.scheduler.stop(1000);
      await h.close();
    }
  });
});
