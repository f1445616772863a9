// The Playback Reporting plugin (§1.7, §8 risk 12): `colums`, string cells, errors inside an
// HTTP 200, shared columns only, and date bounds written in the media server's time zone.
import { playbackPluginDate } from '@usher/testkit';
import {
  assertPlaybackSql,
  formatPlaybackBound,
  parsePlaybackDate,
  playbackMethodOf,
  readPlaybackReply,
  sqlId,
  sqlLikeText,
} from '../../../src/integrations/media-server/playback.js';
import { memoryLogger } from '../../support/logs.js';
import { failure, FLAVOURS, harness, MODES, requestCount } from './helpers.js';

const HOUR = 3_600_000;

describe('playback reply and SQL text', () => {
  it('should read colums and string cells', () => {
    const reply = { colums: ['UserId', 'plays'], results: [['abc', '3']], message: '' };
    expect(readPlaybackReply(reply)).toEqual({
      columns: ['UserId', 'plays'],
      rows: [['abc', '3']],
    });
  });

  it('should treat "no data returned" as an empty result', () => {
    const message = 'Query executed, no data returned.<br>Number of rows effected : 0';
    expect(readPlaybackReply({ colums: [], results: [], message })).toEqual({
      columns: [],
      rows: [],
    });
  });

  it('should turn an in-band error into invalid_response and log it without HTML', async () => {
    const logs = memoryLogger('debug');
    const message = 'Error Running Query</br>no such column: Nope<pre>SqliteException</pre>';
    const err = await failure(
      Promise.resolve().then(() =>
        readPlaybackReply({ colums: [], results: [], message }, { logger: logs.logger }),
      ),
    );
    expect(err).toMatchObject({ system: 'playback_reporting', kind: 'invalid_response' });
    expect(err.upstreamMessage).toBe('Error Running Query no such column: Nope SqliteException');
    expect(logs.text()).toContain('no such column: Nope');
    expect(logs.text()).not.toContain('<pre>');
  });

  it('should refuse rows that do not fit the columns', async () => {
    const reply = { colums: ['a', 'b'], results: [['1']], message: '' };
    const err = await failure(Promise.resolve().then(() => readPlaybackReply(reply)));
    expect(err.kind).toBe('invalid_response');
  });

  it.each([
    ['DELETE FROM PlaybackActivity', 'single SELECT'],
    ['SELECT 1; DROP TABLE PlaybackActivity', 'single statement'],
    ['SELECT SUM(PlayDuration - PauseDuration) FROM PlaybackActivity', 'PauseDuration'],
    ['SELECT RemoteAddress FROM PlaybackActivity', 'RemoteAddress'],
  ])('should refuse %s', (sql, why) => {
    expect(() => assertPlaybackSql(sql)).toThrow(why);
  });

  it('should accept a commented SELECT with a trailing semicolon', () => {
    expect(() =>
      assertPlaybackSql('-- totals\n  select count(*) from PlaybackActivity;'),
    ).not.toThrow();
  });

  it.each([
    ['2024-07-01T12:00:00Z', 'Europe/Paris', '2024-07-01 14:00:00'],
    ['2024-01-01T12:00:00Z', 'Europe/Paris', '2024-01-01 13:00:00'],
    ['2024-01-01T03:30:00Z', 'America/New_York', '2023-12-31 22:30:00'],
    ['2024-01-01T00:00:00Z', 'UTC', '2024-01-01 00:00:00'],
  ])('should write %s as %s local text (%s)', (iso, zone, text) => {
    expect(formatPlaybackBound(new Date(iso), zone)).toBe(text);
  });

  it.each([
    ['2024-07-01 14:00:00.1234567', 'Europe/Paris', '2024-07-01T12:00:00.123Z'],
    ['2024-03-31 03:30:00.0000000', 'Europe/Paris', '2024-03-31T01:30:00.000Z'],
    ['2024-10-27 01:30:00', 'Europe/Paris', '2024-10-26T23:30:00.000Z'],
    ['2023-12-31 22:30:00.0000000', 'America/New_York', '2024-01-01T03:30:00.000Z'],
  ])('should read the plugin date %s in %s as %s', (text, zone, iso) => {
    expect(parsePlaybackDate(text, zone)).toBe(iso);
  });

  it('should read back what the fake writes, in any zone', () => {
    const at = new Date('2024-05-05T05:05:05.505Z');
    for (const zone of ['UTC', 'Asia/Shanghai', 'America/Los_Angeles', 'Australia/Adelaide']) {
      expect(parsePlaybackDate(playbackPluginDate(at, zone), zone)).toBe(at.toISOString());
    }
    expect(parsePlaybackDate('yesterday', 'UTC')).toBeUndefined();
  });

  it('should only let ids and escaped text into SQL', () => {
    expect(sqlId('0123ABCD-0123-4567-89ab-0123456789AB')).toBe('0123abcd0123456789ab0123456789ab');
    expect(sqlId('1042')).toBe('1042');
    expect(() => sqlId("1' OR '1'='1")).toThrow('Not a media-server id');
    expect(sqlLikeText("O'Brien 100%_\\")).toBe("O''Brien 100\\%\\_\\\\");
  });

  it.each([
    ['DirectPlay', 'DirectPlay'],
    ['DirectStream', 'DirectStream'],
    ['Transcode (v:h264 a:aac)', 'Transcode'],
    ['na', 'unknown'],
  ] as const)('should read the play method %s as %s', (cell, want) => {
    expect(playbackMethodOf(cell)).toBe(want);
  });
});

describe('media-server adapters: playback queries', () => {
  const boot = harness();

  it.each(MODES)('should run a %s query and hand back text cells', async (mode) => {
    const { adapter, seeded, fake } = await boot(mode);
    const alice = seeded.users.alice?.id ?? '';
    const result = await adapter.playbackQuery(
      `SELECT UserId, COUNT(*) AS plays, COALESCE(SUM(PlayDuration), 0) AS secs
       FROM PlaybackActivity WHERE UserId = '${sqlId(alice)}' GROUP BY UserId`,
    );
    expect(result.columns).toEqual(['UserId', 'plays', 'secs']);
    expect(result.rows).toEqual([[alice, '16', expect.stringMatching(/^\d+$/)]]);
    const [req] = fake.requests();
    expect(req?.path.replace(/^\/emby/, '')).toBe('/user_usage_stats/submit_custom_query');
    expect(req?.body).toMatchObject({ ReplaceUserId: false });
  });

  it.each(FLAVOURS)('should return an empty %s result for no rows', async (mode) => {
    const { adapter } = await boot(mode);
    const sql = "SELECT ItemName FROM PlaybackActivity WHERE ItemName = 'nothing'";
    await expect(adapter.playbackQuery(sql)).resolves.toEqual({ columns: [], rows: [] });
  });

  it('should count a plugin error as invalid_response for playback_reporting', async () => {
    const env = await boot('jellyfin12');
    const err = await failure(env.adapter.playbackQuery('SELECT Nope FROM PlaybackActivity'));
    expect(err).toMatchObject({ system: 'playback_reporting', kind: 'invalid_response' });
    expect(err.upstreamMessage).toContain('no such column: Nope');
    const count = (outcome: string) =>
      requestCount(env, 'playback_reporting', 'playback_query', outcome);
    await expect(count('invalid_response')).resolves.toBe(1);
    await expect(count('ok')).resolves.toBe(1);
  });

  it('should never send Emby-only columns, which Jellyfin lacks (risk 12)', async () => {
    const { adapter, fake } = await boot('jellyfin12');
    const sql = 'SELECT SUM(PlayDuration - PauseDuration) FROM PlaybackActivity';
    await expect(adapter.playbackQuery(sql)).rejects.toThrow('only shared columns');
    expect(fake.requests()).toEqual([]);
    expect(fake.state.playback.columns).not.toContain('PauseDuration');
  });

  it.each(FLAVOURS)(
    'should report a %s server without the plugin as not configured',
    async (mode) => {
      const { adapter, fake } = await boot(mode);
      fake.state.playback.installed = false;
      const err = await failure(adapter.playbackQuery('SELECT 1'));
      expect(err).toMatchObject({
        system: 'playback_reporting',
        kind: 'not_configured',
        message: 'Playback Reporting plugin not installed',
      });
      expect(err.toAppError()).toMatchObject({ code: 'NOT_CONFIGURED', status: 503 });
    },
  );

  it('should bound dates in the server zone, not in UTC (risk 12)', async () => {
    const zone = 'Europe/Paris';
    const { adapter } = await boot('emby', { timeZone: zone }, { timeZone: zone });
    expect(adapter.timeZone).toBe(zone);
    // Seeded plays are 13 h apart from now; 38.5 h back keeps the 0, 13 and 26 h ones.
    const since = new Date(Date.now() - 38.5 * HOUR);
    const count = async (bound: string) => {
      const sql = `SELECT COUNT(*) FROM PlaybackActivity WHERE DateCreated >= '${bound}'`;
      return (await adapter.playbackQuery(sql)).rows[0]?.[0];
    };
    await expect(count(formatPlaybackBound(since, adapter.timeZone))).resolves.toBe('3');
    // The same instant written in UTC is 1-2 h "earlier" as Paris text and lets one more in.
    await expect(count(formatPlaybackBound(since, 'UTC'))).resolves.toBe('4');
  });
});
