// The viewing portrait, history and profiles against the fake's Playback Reporting endpoint
// (a real SQLite, the plugin's `colums`, string cells and local-time dates). The media server
// writes Asia/Shanghai local time; the business zone is UTC, so every hour bucket below is only
// right if the plugin's text was converted from the server's zone first. Every reply is checked
// twice (issue 33): read from the plugin (before the plays copy's first pass) and from the copy
// after `playback_sync` has copied the plugin's rows — the same replies either way.
import {
  pageOf,
  playbackProfileSchema,
  playbackProfilesPageSchema,
  playbackRecordSchema,
  playbackSummarySchema,
} from '@usher/contracts';
import type { PlaybackRow } from '@usher/testkit';
import { errorOf, startMediaWorld, type Flavour, type MediaWorld } from './harness.js';
import { domainFlavours } from '../support/flavours.js';
import { syncPlays } from '../../src/modules/playback/index.js';

/** Runs the plays copy's sync to the plugin's last row, as the `playback_sync` job does. */
export async function syncCopy(w: MediaWorld) {
  const ms = await w.t.context.integrations.mediaServer.get();
  const run = {
    runId: '00000000-0000-7000-8000-000000000000',
    signal: new AbortController().signal,
  };
  return syncPlays(w.t.context, ms, run);
}

// Friday 2026-11-20 12:00 UTC.
const NOW = new Date('2026-11-20T12:00:00.000Z');

function seedHistory(w: MediaWorld, flavour: Flavour) {
  const s = w.fake.seeded!;
  const alice = s.users.alice!.id;
  const bob = s.users.bob!.id;
  const episode = s.series.severance.episodes[0]!;
  const web = flavour === 'emby' ? 'Emby Web' : 'Jellyfin Web';
  const row = (r: Omit<PlaybackRow, 'DeviceName'> & { DeviceName?: string }): PlaybackRow => ({
    DeviceName: 'Firefox',
    ...r,
    ...(flavour === 'emby' ? { PauseDuration: 30, RemoteAddress: '10.0.0.1' } : {}),
  });
  w.fake.state.playback.clear();
  for (const r of [
    // 2026-11-20 02:30 in Shanghai = Thursday 2026-11-19 18:30 UTC.
    row({
      DateCreated: '2026-11-20 02:30:00.0000000',
      UserId: alice,
      ItemId: s.movies.dune.id,
      ItemType: 'Movie',
      ItemName: 'Dune: Part Two',
      PlaybackMethod: 'DirectPlay',
      ClientName: web,
      PlayDuration: 3600,
    }),
    // Wednesday 2026-11-18 23:00 UTC; an episode takes its series' genres.
    row({
      DateCreated: '2026-11-19 07:00:00.1234567',
      UserId: alice,
      ItemId: episode.id,
      ItemType: 'Episode',
      ItemName: `Severance - s01e01 - ${episode.name}`,
      PlaybackMethod: 'Transcode (v:h264 a:aac)',
      ClientName: 'Infuse',
      DeviceName: 'Living Room Apple TV',
      PlayDuration: 1800,
    }),
    // Monday 2026-11-16 01:15 UTC.
    row({
      DateCreated: '2026-11-16 09:15:00.0000000',
      UserId: alice,
      ItemId: s.movies.oppenheimer.id,
      ItemType: 'Movie',
      ItemName: 'Oppenheimer',
      PlaybackMethod: 'DirectStream',
      ClientName: web,
      PlayDuration: 5400,
    }),
    // Outside the last 7 days.
    row({
      DateCreated: '2026-11-01 10:00:00.0000000',
      UserId: alice,
      ItemId: s.movies.dune.id,
      ItemType: 'Movie',
      ItemName: 'Dune: Part Two',
      PlaybackMethod: 'na',
      ClientName: web,
      PlayDuration: 1000,
    }),
    // Someone else.
    row({
      DateCreated: '2026-11-19 20:00:00.0000000',
      UserId: bob,
      ItemId: s.movies.oppenheimer.id,
      ItemType: 'Movie',
      ItemName: "Oppenheimer's 100% cut",
      PlaybackMethod: 'DirectPlay',
      ClientName: 'Infuse',
      PlayDuration: 700,
    }),
  ]) {
    w.fake.state.playback.insert(r);
  }
}

const bucket = (count: number, durationSeconds: number) => ({ count, durationSeconds });
const empty = bucket(0, 0);

// One flavour (support/flavours.ts): Jellyfin, whose plugin table lacks Emby's extra columns;
// each read from the plugin and from the plays copy.
const CASES = domainFlavours('jellyfin').flatMap((flavour) => [
  [flavour, 'plugin'] as const,
  [flavour, 'copy'] as const,
]);

describe.each(CASES)('playback on %s, read from the %s', (flavour, source) => {
  let w: MediaWorld;
  beforeAll(async () => {
    w = await startMediaWorld(flavour, {
      now: NOW,
      serverZone: 'Asia/Shanghai',
      businessZone: 'UTC',
    });
    seedHistory(w, flavour);
    if (source === 'copy') await syncCopy(w);
  });
  afterAll(async () => w.close());

  it('should draw the portrait of the last 7 days exactly as counted by hand', async () => {
    const alice = await w.member('alice');
    const res = await w.get('/api/v1/me/playback?range=7d', await w.token(alice));
    expect(res.status).toBe(200);
    const p = playbackProfileSchema.parse(await res.json());
    expect(p.range).toEqual({ from: '2026-11-14T00:00:00.000Z', to: NOW.toISOString() });
    expect(p.timeZone).toBe('UTC');
    expect(p.totals).toEqual({
      playCount: 3,
      durationSeconds: 10_800,
      activeDays: 3,
      averageSeconds: 3600,
      lastPlayedAt: '2026-11-19T18:30:00.000Z',
    });
    const hours = Array.from({ length: 24 }, () => empty);
    hours[18] = bucket(1, 3600);
    hours[23] = bucket(1, 1800);
    hours[1] = bucket(1, 5400);
    expect(p.byHour).toEqual(hours);
    // Monday first: Mon, Tue, Wed, Thu, Fri, Sat, Sun.
    expect(p.byWeekday).toEqual([
      bucket(1, 5400),
      empty,
      bucket(1, 1800),
      bucket(1, 3600),
      empty,
      empty,
      empty,
    ]);
    // The heatmap (issue 36): Monday 01:00, Wednesday 23:00, Thursday 18:00.
    const grid = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
    grid[0]![1] = 1;
    grid[2]![23] = 1;
    grid[3]![18] = 1;
    expect(p.byWeekdayHour).toEqual(grid);
    const web = flavour === 'emby' ? 'Emby Web' : 'Jellyfin Web';
    expect(p.clients).toEqual([
      { name: web, count: 2, durationSeconds: 9000 },
      { name: 'Infuse', count: 1, durationSeconds: 1800 },
    ]);
    expect(p.devices).toEqual([
      { name: 'Firefox', count: 2, durationSeconds: 9000 },
      { name: 'Living Room Apple TV', count: 1, durationSeconds: 1800 },
    ]);
    expect(p.playMethods).toEqual({ directPlay: 1, directStream: 1, transcode: 1 });
    expect(p.tags.map((t) => [t.name, t.durationSeconds])).toEqual([
      ['Drama', 7200],
      ['History', 5400],
      ['Adventure', 3600],
      ['Science Fiction', 3600],
      ['Mystery', 1800],
      ['Sci-Fi & Fantasy', 1800],
    ]);
    expect(p.recent.map((r) => [r.at, r.itemName, r.playMethod, r.durationSeconds])).toEqual([
      ['2026-11-19T18:30:00.000Z', 'Dune: Part Two', 'DirectPlay', 3600],
      ['2026-11-18T23:00:00.123Z', expect.stringMatching(/^Severance - s01e01/), 'Transcode', 1800],
      ['2026-11-16T01:15:00.000Z', 'Oppenheimer', 'DirectStream', 5400],
    ]);
    expect(p.recent[0]!.user).toEqual({
      mediaUserId: w.fake.seeded!.users.alice!.id,
      name: 'alice',
      userId: alice.id,
    });
  });

  it('should count a custom range and all time, and refuse a custom range over 92 days', async () => {
    const token = await w.token(await w.member('alice'));
    const custom = playbackProfileSchema.parse(
      await (
        await w.get('/api/v1/me/playback?range=custom&from=2026-11-01&to=2026-11-16', token)
      ).json(),
    );
    // 2026-11-01 02:00 UTC and 2026-11-16 01:15 UTC.
    expect(custom.totals.playCount).toBe(2);
    expect(custom.totals.durationSeconds).toBe(6400);
    const all = playbackProfileSchema.parse(
      await (await w.get('/api/v1/me/playback?range=all', token)).json(),
    );
    expect(all.range.from).toBeNull();
    expect(all.totals.playCount).toBe(4);
    expect(all.playMethods).toEqual({ directPlay: 1, directStream: 1, transcode: 1 });
    const long = await w.get(
      '/api/v1/me/playback?range=custom&from=2026-01-01&to=2026-11-01',
      token,
    );
    expect(long.status).toBe(400);
    expect((await errorOf(long)).code).toBe('VALIDATION_FAILED');
  });

  it("should show an admin a member's portrait, and refuse unlinked or unknown users", async () => {
    const alice = await w.member('alice');
    const res = await w.get(`/api/v1/admin/users/${alice.id}/playback?range=7d`, w.adminToken);
    expect(playbackProfileSchema.parse(await res.json()).totals.playCount).toBe(3);
    const loner = await w.user(`loner_${flavour}`);
    const unlinked = await w.get(`/api/v1/admin/users/${loner.id}/playback`, w.adminToken);
    expect(unlinked.status).toBe(422);
    expect((await errorOf(unlinked)).code).toBe('MEDIA_ACCOUNT_UNLINKED');
    const own = await w.get('/api/v1/me/playback', await w.token(loner));
    expect((await errorOf(own)).code).toBe('MEDIA_ACCOUNT_UNLINKED');
    const missing = await w.get(
      '/api/v1/admin/users/01900000-0000-7000-8000-000000000000/playback',
      w.adminToken,
    );
    expect(missing.status).toBe(404);
    const member = await w.get(`/api/v1/admin/users/${alice.id}/playback`, await w.token(alice));
    expect(member.status).toBe(403);
  });

  it('should sign the posters of plays for the caller, usable in a plain <img>', async () => {
    const alice = await w.member('alice');
    const own = playbackProfileSchema.parse(
      await (await w.get('/api/v1/me/playback?range=7d', await w.token(alice))).json(),
    );
    const dune = own.recent[0]!;
    expect(dune.posterUrl).toMatch(
      new RegExp(`^/api/v1/media/posters/${dune.itemId}\\?u=${alice.id}&exp=\\d+&sig=`),
    );
    // No bearer token: the signature alone authorises the image.
    const image = await w.get(dune.posterUrl!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    const viaAdmin = playbackProfileSchema.parse(
      await (await w.get(`/api/v1/admin/users/${alice.id}/playback?range=7d`, w.adminToken)).json(),
    );
    expect(viaAdmin.recent[0]!.posterUrl).toContain(`u=${w.admin.id}`);
    const history = pageOf(playbackRecordSchema).parse(
      await (await w.get('/api/v1/admin/playback/history?from=2026-11-15', w.adminToken)).json(),
    );
    expect(history.data.every((r) => r.posterUrl?.includes(`u=${w.admin.id}`))).toBe(true);
  });

  it("should show an episode's play with its show's poster, and give a play without any image none", async () => {
    const alice = await w.member('alice');
    const token = await w.token(alice);
    const s = w.fake.seeded!;
    const portrait = async () =>
      playbackProfileSchema.parse(
        await (await w.get('/api/v1/me/playback?range=7d', token)).json(),
      );
    const episode = (await portrait()).recent.find((r) => r.itemType === 'Episode')!;
    expect(episode.itemId).toBe(s.series.severance.episodes[0]!.id);
    // The 2:3 poster of Severance, not the episode's 16:9 still; alice's libraries hold the show.
    expect(episode.posterUrl).toMatch(
      new RegExp(`^/api/v1/media/posters/${s.series.severance.series.id}\\?u=${alice.id}&`),
    );
    const image = await w.get(episode.posterUrl!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');

    // Oppenheimer loses its image; once the 10-minute memory of the lookup has run out, its play
    // carries no URL that could only 404.
    const film = w.fake.state.items.get(s.movies.oppenheimer.id)!;
    film.hasPrimaryImage = false;
    const saved = w.clock.now;
    w.clock.now = new Date(saved.getTime() + 11 * 60_000);
    try {
      const later = await portrait();
      const play = later.recent.find((r) => r.itemId === s.movies.oppenheimer.id)!;
      expect(play).not.toHaveProperty('posterUrl');
      expect(later.recent.find((r) => r.itemId === s.movies.dune.id)!.posterUrl).toContain(
        `/posters/${s.movies.dune.id}?`,
      );
    } finally {
      film.hasPrimaryImage = true;
      w.clock.now = saved;
    }
  });

  it('should list history newest first, filtered by user and keyword, names linked', async () => {
    const alice = await w.member('alice');
    w.fake.clearRequests();
    const res = await w.get(
      '/api/v1/admin/playback/history?from=2026-10-25&to=2026-11-20',
      w.adminToken,
    );
    expect(res.status).toBe(200);
    const page = pageOf(playbackRecordSchema).parse(await res.json());
    expect(page.total).toBe(5);
    expect(page.data.map((r) => r.at)).toEqual([
      '2026-11-19T18:30:00.000Z',
      '2026-11-19T12:00:00.000Z',
      '2026-11-18T23:00:00.123Z',
      '2026-11-16T01:15:00.000Z',
      '2026-11-01T02:00:00.000Z',
    ]);
    // Bob is not linked in Usher: his name comes from the media server.
    expect(page.data[1]!.user).toEqual({ mediaUserId: w.fake.seeded!.users.bob!.id, name: 'bob' });
    // Named by his own record, not the server's whole user list (10 000 accounts at scale).
    const userReads = w.fake.requests('/Users').filter((r) => r.method === 'GET');
    expect(userReads.map((r) => r.route)).toEqual(['/Users/{id}']);
    const byUser = pageOf(playbackRecordSchema).parse(
      await (
        await w.get(
          `/api/v1/admin/playback/history?userId=${alice.id}&from=2026-10-25&to=2026-11-20&pageSize=2&page=2`,
          w.adminToken,
        )
      ).json(),
    );
    expect(byUser.total).toBe(4);
    expect(byUser.data.map((r) => r.itemName)).toEqual(['Oppenheimer', 'Dune: Part Two']);
    const byName = pageOf(playbackRecordSchema).parse(
      await (
        await w.get('/api/v1/admin/playback/history?username=BOB&from=2026-10-25', w.adminToken)
      ).json(),
    );
    expect(byName.total).toBe(1);
    const keyword = pageOf(playbackRecordSchema).parse(
      await (
        await w.get('/api/v1/admin/playback/history?keyword=dune&from=2026-10-25', w.adminToken)
      ).json(),
    );
    expect(keyword.data.map((r) => r.itemName)).toEqual(['Dune: Part Two', 'Dune: Part Two']);
  });

  it('should keep an injection attempt in keyword inert, and wildcards literal', async () => {
    const history = (keyword: string) =>
      w.get(
        `/api/v1/admin/playback/history?from=2026-10-25&keyword=${encodeURIComponent(keyword)}`,
        w.adminToken,
      );
    w.fake.clearRequests();
    for (const attempt of [
      "' OR '1'='1",
      "x'; DELETE FROM PlaybackActivity; --",
      "%' UNION SELECT name, 1, 1, 1, 1, 1, 1, 1, 1 FROM sqlite_master --",
    ]) {
      const res = await history(attempt);
      expect(res.status).toBe(200);
      expect(pageOf(playbackRecordSchema).parse(await res.json()).total).toBe(0);
    }
    // `%` and `_` match themselves only.
    const percent = pageOf(playbackRecordSchema).parse(await (await history('100%')).json());
    expect(percent.data.map((r) => r.itemName)).toEqual(["Oppenheimer's 100% cut"]);
    expect(pageOf(playbackRecordSchema).parse(await (await history('_')).json()).total).toBe(0);
    // Nothing was deleted, and every query the plugin received was one SELECT.
    const all = pageOf(playbackRecordSchema).parse(
      await (await w.get('/api/v1/admin/playback/history?from=2026-10-25', w.adminToken)).json(),
    );
    expect(all.total).toBe(5);
    const sent = w.fake
      .requests('submit_custom_query')
      .map((r) => (r.body as { CustomQueryString: string }).CustomQueryString);
    // The copy is read with bound parameters; the plugin, when it is the source, with text.
    expect(sent.length > 0).toBe(source === 'plugin');
    for (const sql of sent) {
      expect(sql).toMatch(/^SELECT /);
      // Outside its quoted literals, no statement ends: the attempt stayed inside the string.
      expect(sql.replace(/'(?:[^']|'')*'/g, "''")).not.toMatch(/;/);
    }
  });

  it('should refuse a history range over 366 days or reversed', async () => {
    const long = await w.get(
      '/api/v1/admin/playback/history?from=2025-01-01&to=2026-11-20',
      w.adminToken,
    );
    expect(long.status).toBe(400);
    const reversed = await w.get(
      '/api/v1/admin/playback/history?from=2026-11-20&to=2026-11-01',
      w.adminToken,
    );
    expect(reversed.status).toBe(400);
  });

  it('should summarise every member in the profiles, sortable', async () => {
    const alice = await w.member('alice');
    const res = await w.get(
      '/api/v1/admin/playback/profiles?range=30d&sort=plays&order=desc',
      w.adminToken,
    );
    expect(res.status).toBe(200);
    const page = playbackProfilesPageSchema.parse(await res.json());
    expect(page.summary).toEqual({ userCount: 2, playCount: 5, durationSeconds: 12_500 });
    expect(page.data.map((r) => [r.user.username, r.user.name, r.totals.playCount])).toEqual([
      ['alice', 'alice', 4],
      [null, 'bob', 1],
    ]);
    expect(page.data[0]!.user.id).toBe(alice.id);
    expect(page.data[0]!.peakHour).toBe(1);
    expect(page.data[0]!.tags).toEqual(['Drama', 'History']);
    // Bob: 2026-11-19 20:00 Shanghai = 12:00 UTC.
    expect(page.data[1]!.peakHour).toBe(12);
    const asc = playbackProfilesPageSchema.parse(
      await (
        await w.get(
          '/api/v1/admin/playback/profiles?range=30d&sort=duration&order=asc',
          w.adminToken,
        )
      ).json(),
    );
    expect(asc.data.map((r) => r.user.name)).toEqual(['bob', 'alice']);
  });

  it("should page the profiles in the source and read only the page's users' plays", async () => {
    w.fake.clearRequests();
    const res = await w.get(
      '/api/v1/admin/playback/profiles?range=30d&sort=plays&order=desc&page=2&pageSize=1',
      w.adminToken,
    );
    const page = playbackProfilesPageSchema.parse(await res.json());
    expect(page.total).toBe(2);
    expect(page.summary).toEqual({ userCount: 2, playCount: 5, durationSeconds: 12_500 });
    expect(page.data.map((r) => [r.user.name, r.totals.playCount, r.peakHour])).toEqual([
      ['bob', 1, 12],
    ]);
    const sent = w.fake
      .requests('submit_custom_query')
      .map((r) => String((r.body as { CustomQueryString?: string }).CustomQueryString));
    if (source === 'copy') {
      // Read from the copy: the plugin is not asked at all.
      expect(sent).toEqual([]);
    } else {
      expect(sent.some((q) => q.includes('GROUP BY lower(UserId)') && q.includes('OFFSET 1'))).toBe(
        true,
      );
      // Every read of whole rows names the page's one user.
      const rowReads = sent.filter((q) => q.startsWith('SELECT DateCreated'));
      expect(rowReads).toHaveLength(1);
      expect(rowReads[0]).toMatch(/UserId IN \('[0-9a-f]{32}'\)/);
    }
    // Active days are counted in the business zone: that sort still reads the range's plays.
    const byDays = playbackProfilesPageSchema.parse(
      await (
        await w.get('/api/v1/admin/playback/profiles?range=30d&sort=activeDays', w.adminToken)
      ).json(),
    );
    expect(byDays.data.map((r) => r.user.name)).toEqual(['alice', 'bob']);
  });

  // Issue 36: the admin dashboard's and the playback page's charts, aggregated in the plugin.
  it("should summarise everyone's plays per business day, hour, method, client and title", async () => {
    const s = w.fake.seeded!;
    const res = await w.get('/api/v1/admin/playback/summary', w.adminToken);
    expect(res.status).toBe(200);
    const sum = playbackSummarySchema.parse(await res.json());
    // The last 30 days, today included, in the business zone (UTC).
    expect(sum.range).toEqual({
      from: '2026-10-22T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
    });
    expect(sum.byDay).toHaveLength(30);
    expect(sum.byDay[0]!.day).toBe('2026-10-22');
    expect(sum.byDay[29]!.day).toBe('2026-11-20');
    const days = Object.fromEntries(
      sum.byDay.filter((d) => d.count > 0).map((d) => [d.day, [d.count, d.durationSeconds]]),
    );
    // Shanghai's 2026-11-20 02:30 is the 19th in UTC; its 2026-11-19 07:00 the 18th.
    expect(days).toEqual({
      '2026-11-01': [1, 1000],
      '2026-11-16': [1, 5400],
      '2026-11-18': [1, 1800],
      '2026-11-19': [2, 4300],
    });
    expect(sum.totals).toEqual({ playCount: 5, durationSeconds: 12_500 });
    const hours = Array.from({ length: 24 }, () => empty);
    hours[1] = bucket(1, 5400);
    hours[2] = bucket(1, 1000);
    hours[12] = bucket(1, 700);
    hours[18] = bucket(1, 3600);
    hours[23] = bucket(1, 1800);
    expect(sum.byHour).toEqual(hours);
    expect(sum.playMethods).toEqual({ directPlay: 2, directStream: 1, transcode: 1 });
    const web = flavour === 'emby' ? 'Emby Web' : 'Jellyfin Web';
    expect(sum.clients).toEqual([
      { name: web, count: 3, durationSeconds: 10_000 },
      { name: 'Infuse', count: 2, durationSeconds: 2500 },
    ]);
    // A movie by its id whatever name a play recorded; a series' episodes under the show.
    expect(sum.topTitles.map((t) => [t.kind, t.itemKey, t.playCount, t.durationSeconds])).toEqual([
      ['movie', s.movies.oppenheimer.id, 2, 6100],
      ['movie', s.movies.dune.id, 2, 4600],
      ['series', s.series.severance.series.id, 1, 1800],
    ]);
    expect(sum.topTitles[0]!.name).toBe(w.fake.state.items.get(s.movies.oppenheimer.id)!.name);
    expect(sum.topTitles[2]!.posterUrl).toMatch(
      new RegExp(`^/api/v1/media/posters/${s.series.severance.series.id}\\?u=${w.admin.id}&`),
    );
    const week = playbackSummarySchema.parse(
      await (
        await w.get('/api/v1/admin/playback/summary?from=2026-11-16&to=2026-11-18', w.adminToken)
      ).json(),
    );
    expect(week.byDay.map((d) => d.count)).toEqual([1, 0, 1]);
    expect(week.topTitles.map((t) => t.kind)).toEqual(['movie', 'series']);
    const reversed = await w.get(
      '/api/v1/admin/playback/summary?from=2026-11-18&to=2026-11-16',
      w.adminToken,
    );
    expect(reversed.status).toBe(400);
    const member = await w.get(
      '/api/v1/admin/playback/summary',
      await w.token(await w.member('alice')),
    );
    expect(member.status).toBe(403);
  });

  it('should answer 503 NOT_CONFIGURED playback_reporting without the plugin, unless the copy has its plays', async () => {
    w.fake.state.playback.installed = false;
    try {
      const token = await w.token(await w.member('alice'));
      for (const [path, tok] of [
        ['/api/v1/me/playback', token],
        ['/api/v1/admin/playback/history', w.adminToken],
        ['/api/v1/admin/playback/profiles', w.adminToken],
        ['/api/v1/admin/playback/summary', w.adminToken],
      ] as const) {
        const res = await w.get(path, tok);
        if (source === 'copy') {
          // The copy holds what the plugin held: its pages go on without it.
          expect(res.status).toBe(200);
          continue;
        }
        expect(res.status).toBe(503);
        const error = await errorOf(res);
        expect(error.code).toBe('NOT_CONFIGURED');
        expect(error.details).toEqual({ system: 'playback_reporting' });
      }
    } finally {
      w.fake.state.playback.installed = true;
    }
  });
});
