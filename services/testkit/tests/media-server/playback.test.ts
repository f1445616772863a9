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
});
