// The `playback_sync` job (issue 33): the plugin's rows copied into `playback_plays` in batches by
// rowid — a cursor that survives a failed run, no duplicates when rows are read again, the
// refresh of recent plays, a plugin table emptied under it, rows past retention left out, and a
// skipped run without the plugin. Against the fake's real SQLite, on both engines.
import { playbackPluginDate, type PlaybackRow } from '@usher/testkit';
import { eq, sql } from 'drizzle-orm';
import { jobRuns } from '../../src/db/schema/index.js';
import { queryRows } from '../../src/db/sql.js';
import { assertPlaybackSql, parsePlaybackDate } from '../../src/integrations/media-server/index.js';
import { playbackDateReader, pluginBatchSql, syncPlays } from '../../src/modules/playback/index.js';
import { startMediaWorld, type MediaWorld } from '../media/harness.js';

// Friday 2026-11-20 12:00 UTC.
const NOW = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const ZONE = 'Asia/Shanghai';

describe('playback_sync reads', () => {
  it('should send one checked SELECT by rowid, refusing a cursor or limit that is not a count', () => {
    const text = pluginBatchSql(42, 5000);
    expect(() => assertPlaybackSql(text)).not.toThrow();
    expect(text).toMatch(/WHERE rowid > 42 ORDER BY rowid LIMIT 5000$/);
    for (const [after, limit] of [
      [-1, 10],
      [1.5, 10],
      [Number.NaN, 10],
      [0, 0],
      [0, 100_001],
    ]) {
      expect(() => pluginBatchSql(after!, limit!)).toThrow();
    }
  });

  it.each([
    // Spring forward (02:xx never happens) and fall back (02:xx happens twice).
    ['Europe/Berlin', ['2024-03-31 02', '2024-10-27 02', '2024-03-31 01', '2024-10-27 03']],
    // A half-hour shift: 01:30–02:00 twice in April, 02:00–02:30 never in October.
    ['Australia/Lord_Howe', ['2024-04-07 01', '2024-10-06 02', '2024-04-07 02', '2024-10-06 01']],
  ] as const)(
    'should convert server-local dates in %s exactly as parsePlaybackDate does, across DST',
    (zone, dstHours) => {
      const read = playbackDateReader(zone);
      const two = (n: number) => String(n).padStart(2, '0');
      const texts: string[] = [];
      // Every minute of the hours around the changes, and every 4 h 7 min 13 s through
      // 2023–2025; each text read twice, the second from the hour's cached offset.
      for (const hour of dstHours) {
        for (let m = 0; m < 60; m++) texts.push(`${hour}:${two(m)}:${two(m % 7)}.1234567`);
      }
      for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2025, 11, 31); t += 14_833_000) {
        const d = new Date(t);
        texts.push(
          `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
            `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.5`,
        );
      }
      const wrong = texts.filter((text) => {
        const want = parsePlaybackDate(text, zone);
        return read(text)?.toISOString() !== want || read(text)?.toISOString() !== want;
      });
      expect(wrong).toEqual([]);
      expect(read('not a date')).toBeUndefined();
    },
  );
});

describe('playback_sync', () => {
  let w: MediaWorld;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    w = await startMediaWorld('jellyfin', { now: NOW, serverZone: ZONE, businessZone: 'UTC' });
    alice = w.fake.seeded!.users.alice!.id;
    bob = w.fake.seeded!.users.bob!.id;
  });
  afterAll(async () => w.close());

  const row = (hoursAgo: number, patch: Partial<PlaybackRow> = {}): PlaybackRow => ({
    DateCreated: playbackPluginDate(new Date(NOW.getTime() - hoursAgo * HOUR), ZONE),
    UserId: hoursAgo % 2 ? alice : bob,
    ItemId: `${1000 + hoursAgo}`,
    ItemType: 'Movie',
    ItemName: `Film ${hoursAgo}`,
    PlaybackMethod: 'DirectPlay',
    ClientName: 'Infuse',
    DeviceName: 'Apple TV',
    PlayDuration: 600,
    ...patch,
  });
  const seed = (rows: PlaybackRow[]) => {
    for (const r of rows) w.fake.state.playback.insert(r);
  };
  const reset = async () => {
    // An emptied SQLite table hands out rowid 1 again: every case starts from rowid 1.
    w.fake.state.playback.clear();
    await w.t.context.db.execute(sql`delete from playback_plays`);
    await w.t.context.db.execute(sql`delete from playback_sync`);
  };
  const sync = async (batch: number, signal = new AbortController().signal) =>
    syncPlays(
      w.t.context,
      await w.t.context.integrations.mediaServer.get(),
      { runId: '00000000-0000-7000-8000-000000000000', signal },
      batch,
    );
  const copy = () =>
    queryRows<{
      item_id: string;
      seconds: number;
      played_at: Date | string;
      media_user_id: string;
    }>(
      w.t.context.db,
      sql`select item_id, seconds, played_at, media_user_id from playback_plays order by item_id`,
    );
  const state = async () =>
    (
      await queryRows<{ cursor: string | number; backfilled_at: unknown }>(
        w.t.context.db,
        sql`select cursor, backfilled_at from playback_sync`,
      )
    )[0];
  const sent = () =>
    w.fake
      .requests('submit_custom_query')
      .map((r) => String((r.body as { CustomQueryString?: string }).CustomQueryString));

  it('should backfill in batches by rowid, converting the server-local dates once', async () => {
    await reset();
    seed(Array.from({ length: 12 }, (_, i) => row(100 + i)));
    w.fake.clearRequests();
    const summary = await sync(5);
    expect(summary).toMatchObject({
      from: 0,
      cursor: 12,
      lastRowId: 12,
      batches: 3,
      rowsRead: 12,
      rowsStored: 12,
      backfill: true,
      complete: true,
      restarted: false,
    });
    const reads = sent().filter((q) => q.includes('rowid >'));
    expect(reads.map((q) => /rowid > (\d+) ORDER BY rowid LIMIT (\d+)/.exec(q)?.slice(1))).toEqual([
      ['0', '5'],
      ['5', '5'],
      ['10', '5'],
    ]);
    const rows = await copy();
    expect(rows).toHaveLength(12);
    // 100 hours before NOW, written in Shanghai time by the plugin, stored as the instant itself.
    const first = rows.find((r) => r.item_id === '1100')!;
    expect(new Date(first.played_at).toISOString()).toBe(
      new Date(NOW.getTime() - 100 * HOUR).toISOString(),
    );
    expect(first.media_user_id).toBe(bob.toLowerCase());
    expect(Number((await state())!.cursor)).toBe(12);
    expect((await state())!.backfilled_at).not.toBeNull();
  });

  it('should resume from the last stored batch after a failed run, with no duplicates', async () => {
    await reset();
    seed(Array.from({ length: 9 }, (_, i) => row(200 + i)));
    // The second batch's read fails inside the plugin (an in-band SQL error).
    let calls = 0;
    const original = w.fake.state.playback.run.bind(w.fake.state.playback);
    w.fake.state.playback.run = (q, names) =>
      q.includes('rowid > 4') && calls++ === 0
        ? original('SELEC broken', names)
        : original(q, names);
    try {
      await expect(sync(4)).rejects.toThrow(/could not run the query/);
    } finally {
      w.fake.state.playback.run = original;
    }
    expect(Number((await state())!.cursor)).toBe(4);
    expect((await state())!.backfilled_at).toBeNull();
    expect(await copy()).toHaveLength(4);
    // Before the first pass is complete the pages still read the plugin: all nine plays.
    const history = await w.get('/api/v1/admin/playback/history?from=2026-11-01', w.adminToken);
    expect(((await history.json()) as { total: number }).total).toBe(9);

    const again = await sync(4);
    expect(again).toMatchObject({ from: 4, cursor: 9, rowsRead: 5, complete: true });
    expect(await copy()).toHaveLength(9);
    // Reading everything again from the start stores nothing twice.
    await w.t.context.db.execute(sql`update playback_sync set cursor = 0`);
    await sync(4);
    expect(await copy()).toHaveLength(9);
  });

  it('should stop between batches when the run is stopped, keeping what it stored', async () => {
    await reset();
    seed(Array.from({ length: 6 }, (_, i) => row(300 + i)));
    const stop = new AbortController();
    const original = w.fake.state.playback.run.bind(w.fake.state.playback);
    w.fake.state.playback.run = (q, names) => {
      // The lease is lost while the first batch is read: that batch is stored, no more is read.
      if (q.includes('rowid > 0')) stop.abort();
      return original(q, names);
    };
    try {
      const summary = await sync(2, stop.signal);
      expect(summary).toMatchObject({ batches: 1, cursor: 2, complete: false });
    } finally {
      w.fake.state.playback.run = original;
    }
    expect(await copy()).toHaveLength(2);
  });

  it("should refresh the last day's plays (the plugin updates a play's duration) and take new rows", async () => {
    await reset();
    seed([row(30), row(3), row(2)]);
    await sync(100);
    // The plugin updates the play still going on, by its date, user and item, and adds one.
    const r2 = row(2);
    w.fake.state.playback.db
      .prepare(
        'UPDATE PlaybackActivity SET PlayDuration = 4200 WHERE DateCreated = ? AND ItemId = ?',
      )
      .run(r2.DateCreated, r2.ItemId);
    seed([row(1)]);
    w.fake.clearRequests();
    const summary = await sync(100);
    // Re-read from the oldest rowid copied in the last 24 hours (row 2 of the plugin), not from 0.
    expect(summary).toMatchObject({ from: 1, cursor: 4, rowsRead: 3, backfill: false });
    const rows = await copy();
    expect(rows.map((r) => [r.item_id, Number(r.seconds)])).toEqual([
      ['1001', 600],
      ['1002', 4200],
      ['1003', 600],
      ['1030', 600],
    ]);
    // A new play shows on the pages only once synced: the copy is the source now.
    seed([row(0.5, { ItemId: '2000' })]);
    const history = await w.get('/api/v1/admin/playback/history', w.adminToken);
    expect(((await history.json()) as { total: number }).total).toBe(4);
    await sync(100);
    const after = await w.get('/api/v1/admin/playback/history', w.adminToken);
    expect(((await after.json()) as { total: number }).total).toBe(5);
  });

  it('should start again from rowid 0 when the plugin table was emptied, and copy nothing past retention', async () => {
    await reset();
    seed([row(10), row(11), row(12)]);
    await sync(100);
    // Emptied (a reinstalled plugin): SQLite hands out rowid 1 again.
    w.fake.state.playback.clear();
    seed([row(5), row(731 * 24)]);
    const summary = await sync(100);
    expect(summary).toMatchObject({
      restarted: true,
      from: 0,
      cursor: 2,
      rowsRead: 2,
      rowsStored: 1,
    });
    // The copy keeps the plays it had (until retention) and adds the new one; the two-year-old
    // play is not copied.
    expect((await copy()).map((r) => r.item_id)).toEqual(['1005', '1010', '1011', '1012']);
  });

  it('should be skipped without the plugin, and fail with the cursor kept when the plugin errs', async () => {
    await reset();
    seed([row(1)]);
    const run = async () => {
      const res = await w.t.call('POST', '/api/v1/admin/jobs/playback_sync/run', {
        token: w.adminToken,
        body: {},
      });
      expect(res.status).toBe(202);
      const { runId } = (await res.json()) as { runId: string };
      for (;;) {
        const [r] = await w.t.context.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
        if (r!.status !== 'running') return r!;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    w.fake.state.playback.installed = false;
    try {
      expect(await run()).toMatchObject({
        status: 'skipped',
        summary: { reason: 'playback_reporting not configured' },
      });
    } finally {
      w.fake.state.playback.installed = true;
    }
    const original = w.fake.state.playback.run.bind(w.fake.state.playback);
    w.fake.state.playback.run = (q, names) =>
      q.includes('rowid >') ? original('SELECT nope FROM nowhere', names) : original(q, names);
    try {
      const failed = await run();
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/Playback Reporting/);
    } finally {
      w.fake.state.playback.run = original;
    }
    expect(await state()).toBeUndefined();
    const ok = await run();
    expect(ok).toMatchObject({ status: 'succeeded', summary: { rowsStored: 1, complete: true } });
  });
});
