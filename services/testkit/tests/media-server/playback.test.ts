import type { CustomQueryReply, FakeMediaServer } from '../../src/media-server/index.js';
import { pluginDate } from '../../src/media-server/index.js';
import { adminHeaders, call, start } from './helpers.js';

const PATH = '/user_usage_stats/submit_custom_query';

async function query(s: FakeMediaServer, sql: string, headers = adminHeaders(s)) {
  return call(s, 'POST', PATH, { headers, body: { CustomQueryString: sql, ReplaceUserId: false } });
}

describe('media-server fake: Playback Reporting plugin (§1.7)', () => {
  const servers: FakeMediaServer[] = [];
  const boot = async (...args: Parameters<typeof start>): Promise<FakeMediaServer> => {
    const s = await start(...args);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it.each(['emby', 'jellyfin'] as const)(
    'should run real SQL on %s and answer colums + string cells',
    async (flavour) => {
      const s = await boot(flavour);
      const alice = s.seeded?.users.alice?.id ?? '';
      const res = await query(
        s,
        `SELECT UserId, COUNT(*) AS plays, COALESCE(SUM(PlayDuration),0) AS secs
       FROM PlaybackActivity
       WHERE UserId = '${alice}' AND PlaybackMethod LIKE 'Transcode%' GROUP BY UserId`,
      );
      expect(res.status).toBe(200);
      const body = res.json() as CustomQueryReply;
      expect(body).not.toHaveProperty('columns');
      expect(body.colums).toEqual(['UserId', 'plays', 'secs']);
      expect(body.message).toBe('');
      expect(body.results).toHaveLength(1);
      expect(body.results[0]?.every((c) => typeof c === 'string')).toBe(true);
      expect(body.results[0]?.[0]).toBe(alice);
      expect(Number(body.results[0]?.[1])).toBeGreaterThan(0);
    },
  );

  it('should store DateCreated as local text with seven fraction digits', async () => {
    const jf = await boot('jellyfin', { timeZone: 'Europe/Paris' });
    const body = (
      await query(jf, 'SELECT DateCreated, ItemName, ItemType FROM PlaybackActivity')
    ).json() as CustomQueryReply;
    expect(body.results[0]?.[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{7}$/);
    const episode = body.results.find((r) => r[2] === 'Episode');
    expect(episode?.[1]).toMatch(/^.+ - s\d{2}e\d{2} - .+$/);
    expect(pluginDate(new Date('2025-01-15T12:00:00.123Z'), 'Europe/Paris')).toBe(
      '2025-01-15 13:00:00.1230000',
    );
  });

  it('should answer HTTP 200 with an error message for bad SQL', async () => {
    const jf = await boot('jellyfin');
    const body = (await query(jf, 'SELEC nonsense')).json() as CustomQueryReply;
    expect(body.results).toEqual([]);
    expect(body.message).toMatch(/^Error Running Query/);
  });

  it('should answer the "no data" message with empty colums for zero rows', async () => {
    const emby = await boot('emby');
    const res = await query(emby, "SELECT ItemName FROM PlaybackActivity WHERE UserId = 'nobody'");
    expect(res.status).toBe(200);
    const body = res.json() as CustomQueryReply;
    expect(body).toMatchObject({ colums: [], results: [] });
    expect(body.message).toMatch(/^Query executed, no data returned/);
  });

  it('should have PauseDuration on Emby only', async () => {
    const emby = await boot('emby');
    const jf = await boot('jellyfin');
    const sql = 'SELECT COALESCE(SUM(PauseDuration),0) AS p FROM PlaybackActivity';
    expect(((await query(emby, sql)).json() as CustomQueryReply).results).toHaveLength(1);
    const jfBody = (await query(jf, sql)).json() as CustomQueryReply;
    expect(jfBody.message).toMatch(/^Error Running Query.*PauseDuration/s);
  });

  it('should 404 when the plugin is not installed and need the admin key', async () => {
    const jf = await boot('jellyfin');
    expect((await query(jf, 'SELECT 1', {})).status).toBe(401);
    jf.state.playback.installed = false;
    expect((await query(jf, 'SELECT 1')).status).toBe(404);
  });

  it('should replace UserId cells with names when ReplaceUserId is true', async () => {
    const jf = await boot('jellyfin');
    const res = await call(jf, 'POST', PATH, {
      headers: adminHeaders(jf),
      body: {
        CustomQueryString: 'SELECT DISTINCT UserId FROM PlaybackActivity ORDER BY 1',
        ReplaceUserId: true,
      },
    });
    const names = (res.json() as CustomQueryReply).results.map((r) => r[0]).sort();
    expect(names).toEqual(['alice', 'bob']);
  });
  // The reads of Usher's `playback_sync` (issue 33), exactly as it sends them: the fake is a real
  // SQLite table with rowids, so what the sync relies on is SQLite's own behaviour.
  it('should answer the plays sync by rowid as SQLite does: text cells, in order, rowid 1 again once emptied', async () => {
    const jf = await boot('jellyfin', { seed: false });
    const store = jf.state.playback;
    store.clear();
    const row = (n: number) => ({
      DateCreated: `2026-11-0${n} 10:00:00.0000000`,
      UserId: 'a'.repeat(32),
      ItemId: String(n),
      ItemType: 'Movie',
      ItemName: `Film ${n}`,
      PlaybackMethod: 'DirectPlay',
      ClientName: 'Infuse',
      DeviceName: 'TV',
      PlayDuration: 60 * n,
    });
    const last = 'SELECT COALESCE(MAX(rowid), 0) AS LastRowId FROM PlaybackActivity';
    const batch = (after: number, limit: number) =>
      'SELECT rowid AS RowId, DateCreated, UserId, ItemId, ItemType, ItemName, PlaybackMethod, ' +
      `ClientName, DeviceName, PlayDuration FROM PlaybackActivity WHERE rowid > ${after} ` +
      `ORDER BY rowid LIMIT ${limit}`;
    const ask = async (sql: string) => (await query(jf, sql)).json() as CustomQueryReply;
    // An empty table still answers one row: MAX over nothing is NULL, COALESCE makes it 0.
    expect((await ask(last)).results).toEqual([['0']]);
    for (const n of [1, 2, 3, 4, 5]) store.insert(row(n));
    const first = await ask(batch(0, 2));
    expect(first.colums.slice(0, 2)).toEqual(['RowId', 'DateCreated']);
    expect(first.results.map((r) => r.slice(0, 2))).toEqual([
      ['1', '2026-11-01 10:00:00.0000000'],
      ['2', '2026-11-02 10:00:00.0000000'],
    ]);
    expect(first.results[1]?.[9]).toBe('120');
    expect((await ask(batch(4, 2))).results.map((r) => r[0])).toEqual(['5']);
    // Past the last row: the plugin's "no data" reply, no columns either.
    expect(await ask(batch(5, 2))).toMatchObject({ colums: [], results: [] });
    // Deleting old rows leaves gaps; new rows still come after the largest rowid.
    store.db.exec('DELETE FROM PlaybackActivity WHERE rowid <= 2');
    store.insert(row(6));
    expect((await ask(batch(0, 10))).results.map((r) => r[0])).toEqual(['3', '4', '5', '6']);
    // Emptied (no AUTOINCREMENT): SQLite hands out rowid 1 again, below any cursor kept.
    store.clear();
    store.insert(row(7));
    expect((await ask(last)).results).toEqual([['1']]);
  });
});
