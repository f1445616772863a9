// The Playback Reporting SQL templates: every variable part is validated or escaped before it
// reaches the text, and only columns both plugins have are named.
import {
  assertPlaybackSql,
  playbackCountSql,
  playbackRowsSql,
} from '../../src/integrations/media-server/index.js';

const base = { to: new Date('2026-11-20T12:00:00Z'), timeZone: 'Asia/Shanghai' };

describe('playback SQL templates', () => {
  it('should write bounds in the media server zone and ids as checked literals', () => {
    const sql = playbackRowsSql(
      {
        ...base,
        from: new Date('2026-11-13T16:00:00Z'),
        userIds: ['ABCDEF01-2345-6789-abcd-ef0123456789', '42'],
      },
      { limit: 20, offset: 40 },
    );
    expect(sql).toBe(
      'SELECT DateCreated, UserId, ItemId, ItemType, ItemName, PlaybackMethod, ClientName, ' +
        "DeviceName, PlayDuration FROM PlaybackActivity WHERE DateCreated >= '2026-11-14 00:00:00' " +
        "AND DateCreated < '2026-11-20 20:00:00' AND UserId IN ('abcdef0123456789abcdef0123456789', '42') " +
        'ORDER BY DateCreated DESC LIMIT 20 OFFSET 40',
    );
    expect(() => assertPlaybackSql(sql)).not.toThrow();
  });

  it('should refuse an id that is neither 32 hex nor digits, and odd row counts', () => {
    expect(() => playbackCountSql({ ...base, userIds: ["1' OR '1'='1"] })).toThrow();
    expect(() => playbackCountSql({ ...base, userIds: ['12ab'] })).toThrow();
    expect(() => playbackRowsSql(base, { limit: -1 })).toThrow();
    expect(() => playbackRowsSql(base, { limit: 1.5 })).toThrow();
    expect(() => playbackRowsSql(base, { limit: 10, offset: Number.NaN })).toThrow();
  });

  it('should keep keyword text inside its literal, wildcards escaped', () => {
    const sql = playbackCountSql({
      ...base,
      keyword: "x'; DROP TABLE PlaybackActivity; -- 100%_\\",
    });
    expect(sql).toContain(
      "ItemName LIKE '%x''; DROP TABLE PlaybackActivity; -- 100\\%\\_\\\\%' ESCAPE '\\'",
    );
    expect(() => assertPlaybackSql(sql)).not.toThrow();
  });

  it('should match nobody for an empty user list instead of writing IN ()', () => {
    expect(playbackCountSql({ ...base, userIds: [] })).toContain('1 = 0');
  });

  it('should refuse SQL that is not one SELECT or names an Emby-only column', () => {
    expect(() => assertPlaybackSql('DELETE FROM PlaybackActivity')).toThrow();
    expect(() => assertPlaybackSql('SELECT 1; DELETE FROM PlaybackActivity')).toThrow();
    expect(() => assertPlaybackSql('SELECT PauseDuration FROM PlaybackActivity')).toThrow();
    // The same words inside a literal are data.
    expect(() =>
      assertPlaybackSql("SELECT 1 FROM PlaybackActivity WHERE ItemName LIKE '%PauseDuration; x%'"),
    ).not.toThrow();
  });
});
