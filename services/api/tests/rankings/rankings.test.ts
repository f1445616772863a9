// Daily and weekly rankings against the fake's Playback Reporting plugin: the business zone is
// Europe/Berlin, the server writes Asia/Shanghai local time, and the seeded week ends on the
// 25-hour Sunday when summer time ends. Every expectation below is counted by hand from
// seed.ts; a day taken as 24 hours, a week not starting on Monday, or a play read in the wrong
// zone moves at least one number.
import {
  errorBodySchema,
  rankingBatchSchema,
  rankingHistoryPageSchema,
  rankingLatestSchema,
  type RankingBatch,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { auditLog, rankingBatches } from '../../src/db/schema/index.js';
import { startMediaWorld, type MediaWorld } from '../media/harness.js';
import { startFakeBot, type FakeBot } from '../requests/harness.js';
import { testConfig } from '../support/config.js';
import { PLAYS, seedPlays } from './seed.js';
import { domainFlavours } from '../support/flavours.js';

// Tuesday 2026-10-27 13:00 in Berlin (CET).
const NOW = new Date('2026-10-27T12:00:00.000Z');

const rows = (entries: RankingBatch['movies']) =>
  entries.map((e) => [e.rank, e.name, e.playCount, e.durationSeconds]);

// One flavour (support/flavours.ts): Emby (rankings/jobs.test.ts runs on Jellyfin).
describe.each(domainFlavours('emby'))('rankings on %s', (flavour) => {
  let w: MediaWorld;
  let bot: FakeBot;
  let memberToken: string;
  const post = (path: string, body: unknown, token = w.adminToken) =>
    w.t.call('POST', `/api/v1/admin/rankings/${path}`, { token, body });
  const batchCount = async () => (await w.t.context.db.select().from(rankingBatches)).length;

  beforeAll(async () => {
    bot = await startFakeBot();
    bot.reply = () => ({
      ok: true,
      deliveries: [{ to: 'groupChat', chatId: -100, messageId: 7, status: 'sent' }],
      sent: true,
    });
    w = await startMediaWorld(flavour, {
      now: NOW,
      serverZone: 'Asia/Shanghai',
      businessZone: 'Europe/Berlin',
      config: testConfig({ BOT_NOTIFY_URL: bot.url }),
    });
    seedPlays(w, flavour);
    memberToken = await w.token(await w.member('alice'));
  });
  afterAll(async () => {
    await w.t.context.notify.idle();
    await w.close();
    await new Promise((r) => bot.server.close(r));
  });

  it('should rank the week Monday–Sunday across the 25-hour Sunday exactly as counted by hand', async () => {
    const res = await post('preview', { period: 'weekly', date: '2026-10-21' });
    expect(res.status).toBe(200);
    const b = rankingBatchSchema.parse(await res.json());
    expect(b).toMatchObject({
      id: null,
      period: 'weekly',
      periodStart: '2026-10-19',
      periodEnd: '2026-10-25',
      timezone: 'Europe/Berlin',
      // Midnight after Sunday, CET.
      cutoffAt: '2026-10-25T23:00:00.000Z',
      totalDurationSeconds: 18_700,
      pushOutcome: null,
    });
    expect(rows(b.movies)).toEqual([
      [1, 'Oppenheimer', 3, 6000],
      [2, 'Mad Max: Fury Road', 2, 5000],
      [3, 'Dune: Part Two', 1, 2000],
    ]);
    // Episodes add up to their series; the lost episode joins Severance by name.
    expect(rows(b.series)).toEqual([
      [1, 'Severance', 3, 3600],
      [2, 'The Bear', 1, 1800],
    ]);
    const s = w.fake.seeded!;
    expect(b.movies.map((m) => m.itemKey)).toEqual([
      s.movies.oppenheimer.id,
      s.movies.madMax.id,
      s.movies.dune.id,
    ]);
    expect(b.series.map((m) => m.itemKey)).toEqual([
      s.series.severance.series.id,
      s.series.bear.series.id,
    ]);
    // Nothing was stored by a preview.
    expect(await batchCount()).toBe(0);
  });

  it('should rank the 25-hour day by time, then plays, then title', async () => {
    const b = rankingBatchSchema.parse(
      await (await post('preview', { period: 'daily', date: '2026-10-25' })).json(),
    );
    expect(b).toMatchObject({
      periodStart: '2026-10-25',
      periodEnd: '2026-10-25',
      cutoffAt: '2026-10-25T23:00:00.000Z',
      totalDurationSeconds: 10_800,
    });
    // All three movies played 2000 s: two plays beat one, then "Dune" comes before "Mad Max".
    expect(rows(b.movies)).toEqual([
      [1, 'Oppenheimer', 2, 2000],
      [2, 'Dune: Part Two', 1, 2000],
      [3, 'Mad Max: Fury Road', 1, 2000],
    ]);
    expect(rows(b.series)).toEqual([
      [1, 'Severance', 2, 3000],
      [2, 'The Bear', 1, 1800],
    ]);
    // Saturday ends at 22:00Z (CEST midnight): Sunday's 00:10 episode is not in it.
    const saturday = rankingBatchSchema.parse(
      await (await post('preview', { period: 'daily', date: '2026-10-24' })).json(),
    );
    expect(saturday.totalDurationSeconds).toBe(3000);
    expect(rows(saturday.movies)).toEqual([[1, 'Mad Max: Fury Road', 1, 3000]]);
    expect(saturday.series).toEqual([]);
  });

  it('should count the running period up to now and default to today', async () => {
    const b = rankingBatchSchema.parse(await (await post('preview', { period: 'daily' })).json());
    expect(b).toMatchObject({
      periodStart: '2026-10-27',
      cutoffAt: NOW.toISOString(),
      totalDurationSeconds: 0,
      movies: [],
      series: [],
    });
    const week = rankingBatchSchema.parse(
      await (await post('preview', { period: 'weekly' })).json(),
    );
    // Monday 00:30 CET is the new week's only play so far.
    expect(week).toMatchObject({ periodStart: '2026-10-26', periodEnd: '2026-11-01' });
    expect(rows(week.movies)).toEqual([[1, 'Oppenheimer', 1, 9999]]);
  });

  it('should store a generated batch, push it, and show it to members with signed posters', async () => {
    const res = await post('generate', { period: 'weekly', date: '2026-10-25' });
    expect(res.status).toBe(201);
    const b = rankingBatchSchema.parse(await res.json());
    expect(b.id).not.toBeNull();
    expect(b.trigger).toBe('manual');
    await w.t.context.notify.idle();

    const pushed = bot.calls.filter((c) => c.path === '/notify/ranking');
    expect(pushed).toHaveLength(1);
    expect(pushed[0]!.body).toMatchObject({
      batchId: b.id,
      period: 'weekly',
      periodStart: '2026-10-19',
      periodEnd: '2026-10-25',
      cutoffAt: '2026-10-25T23:00:00.000Z',
      timezone: 'Europe/Berlin',
      totalDurationSeconds: 18_700,
      movies: [
        { rank: 1, name: 'Oppenheimer', playCount: 3, durationSeconds: 6000 },
        { rank: 2, name: 'Mad Max: Fury Road', playCount: 2, durationSeconds: 5000 },
        { rank: 3, name: 'Dune: Part Two', playCount: 1, durationSeconds: 2000 },
      ],
      series: [
        { rank: 1, name: 'Severance', playCount: 3, durationSeconds: 3600 },
        { rank: 2, name: 'The Bear', playCount: 1, durationSeconds: 1800 },
      ],
    });

    const latest = rankingLatestSchema.parse(
      await (await w.get('/api/v1/rankings/latest?period=weekly', memberToken)).json(),
    );
    expect(latest.batch).toMatchObject({ id: b.id, pushOutcome: 'sent' });
    expect(rows(latest.batch!.movies)).toEqual(rows(b.movies));
    const poster = latest.batch!.movies[0]!.posterUrl!;
    const alice = await w.member('alice');
    expect(poster).toMatch(
      new RegExp(`^/api/v1/media/posters/${w.fake.seeded!.movies.oppenheimer.id}\\?u=${alice.id}&`),
    );
    const image = await w.get(poster);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    const one = await w.get(`/api/v1/rankings/${b.id}`, memberToken);
    expect(rankingBatchSchema.parse(await one.json()).series[0]!.name).toBe('Severance');
    const [audit] = await w.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'ranking.generate'));
    expect(audit).toMatchObject({ targetType: 'ranking_batch', targetId: b.id });
    const none = rankingLatestSchema.parse(
      await (await w.get('/api/v1/rankings/latest?period=daily', memberToken)).json(),
    );
    expect(none.batch).toBeNull();
  });

  it('should replace the period on regeneration, and record a push the bot skipped', async () => {
    const before = rankingLatestSchema.parse(
      await (await w.get('/api/v1/rankings/latest?period=weekly', memberToken)).json(),
    ).batch!;
    // One more Sunday play of The Bear: 1800 + 2000 s moves it above Severance.
    seedPlays(w, flavour, [...PLAYS, { at: '2026-10-25T18:00:00Z', item: 'bear1', seconds: 2000 }]);
    bot.reply = () => ({
      ok: true,
      deliveries: [
        { to: 'adminChat', chatId: null, status: 'skipped', reason: 'chat_not_configured' },
      ],
      sent: false,
    });
    const res = await post('generate', { period: 'weekly', date: '2026-10-19' });
    expect(res.status).toBe(201);
    const after = rankingBatchSchema.parse(await res.json());
    await w.t.context.notify.idle();
    expect(after.id).not.toBe(before.id);
    expect(rows(after.series)).toEqual([
      [1, 'The Bear', 2, 3800],
      [2, 'Severance', 3, 3600],
    ]);
    expect((await w.get(`/api/v1/rankings/${before.id}`, memberToken)).status).toBe(404);
    const history = rankingHistoryPageSchema.parse(
      await (await w.get('/api/v1/rankings/history?period=weekly', memberToken)).json(),
    );
    expect(history.total).toBe(1);
    expect(history.data[0]).toMatchObject({
      id: after.id,
      pushOutcome: 'skipped',
      movieCount: 3,
      seriesCount: 2,
      topMovie: 'Oppenheimer',
      topSeries: 'The Bear',
    });
    seedPlays(w, flavour);
  });

  it('should not push with push:false, and list the history newest period first', async () => {
    const calls = bot.calls.length;
    const quiet = rankingBatchSchema.parse(
      await (await post('generate', { period: 'daily', date: '2026-10-24', push: false })).json(),
    );
    await w.t.context.notify.idle();
    expect(bot.calls.length).toBe(calls);
    const [row] = await w.t.context.db
      .select()
      .from(rankingBatches)
      .where(eq(rankingBatches.id, quiet.id!));
    expect(row!.pushOutcome).toBeNull();
    expect(
      (await post('generate', { period: 'daily', date: '2026-10-25', push: false })).status,
    ).toBe(201);
    const history = rankingHistoryPageSchema.parse(
      await (await w.get('/api/v1/rankings/history?period=daily&pageSize=1', memberToken)).json(),
    );
    expect(history.total).toBe(2);
    expect(history.data.map((h) => [h.periodStart, h.topMovie])).toEqual([
      ['2026-10-25', 'Oppenheimer'],
    ]);
    const second = rankingHistoryPageSchema.parse(
      await (
        await w.get('/api/v1/rankings/history?period=daily&pageSize=1&page=2', memberToken)
      ).json(),
    );
    expect(second.data.map((h) => [h.periodStart, h.topMovie, h.seriesCount])).toEqual([
      ['2026-10-24', 'Mad Max: Fury Road', 0],
    ]);
  });

  it('should rank only the libraries RANKING_LIBRARY_IDS names, the total still counting all', async () => {
    const ms = await w.t.context.integrations.mediaServer.get();
    const movies = (await ms.libraries()).find((l) => l.name === 'Movies')!;
    const put = (ids: string[]) =>
      w.t.call('PUT', '/api/v1/admin/settings/schedule', {
        token: w.adminToken,
        body: { values: { RANKING_LIBRARY_IDS: ids } },
      });
    expect((await put([movies.id])).status).toBe(200);
    try {
      const b = rankingBatchSchema.parse(
        await (await post('preview', { period: 'weekly', date: '2026-10-25' })).json(),
      );
      expect(rows(b.movies)).toEqual([
        [1, 'Oppenheimer', 3, 6000],
        [2, 'Mad Max: Fury Road', 2, 5000],
        [3, 'Dune: Part Two', 1, 2000],
      ]);
      expect(b.series).toEqual([]);
      expect(b.totalDurationSeconds).toBe(18_700);
    } finally {
      expect((await put([])).status).toBe(200);
    }
  });

  it('should answer bad input with the error body and change nothing', async () => {
    const stored = await batchCount();
    const cases: [string, unknown, number, string][] = [
      ['generate', { period: 'monthly' }, 400, 'VALIDATION_FAILED'],
      ['generate', { period: 'daily', date: '2026-13-01' }, 400, 'VALIDATION_FAILED'],
      ['generate', { period: 'daily', date: '2026-10-28' }, 400, 'VALIDATION_FAILED'],
      ['generate', { period: 'daily', extra: 1 }, 400, 'VALIDATION_FAILED'],
      ['preview', {}, 400, 'VALIDATION_FAILED'],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await post(path, body);
      expect([path, body, res.status]).toEqual([path, body, status]);
      expect(errorBodySchema.parse(await res.json()).error.code).toBe(code);
    }
    const member = await post('generate', { period: 'daily' }, memberToken);
    expect(member.status).toBe(403);
    expect(await batchCount()).toBe(stored);

    for (const id of ['0190a5c2-0000-7000-8000-000000000009', 'not-a-uuid']) {
      const res = await w.get(`/api/v1/rankings/${id}`, memberToken);
      expect(res.status).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.code).toBe('RANKING_NOT_FOUND');
    }
    const badPeriod = await w.get('/api/v1/rankings/latest?period=yearly', memberToken);
    expect(badPeriod.status).toBe(400);
    expect((await w.get('/api/v1/rankings/latest')).status).toBe(401);
  });

  it('should answer 503 playback_reporting without the plugin, storing nothing', async () => {
    const stored = await batchCount();
    w.fake.state.playback.installed = false;
    try {
      const res = await post('generate', { period: 'daily', date: '2026-10-25' });
      expect(res.status).toBe(503);
      const error = errorBodySchema.parse(await res.json()).error;
      expect(error).toMatchObject({
        code: 'NOT_CONFIGURED',
        details: { system: 'playback_reporting' },
      });
    } finally {
      w.fake.state.playback.installed = true;
    }
    expect(await batchCount()).toBe(stored);
  });
});
