/** Pure formatting: escaping, cuts, Telegram lengths, values, catalog parity, callback data. */
import { CALLBACK_MAX_BYTES, callback, parseCallback } from '../src/format/callback.js';
import { approvalCard, rankingMessage, type CardSubscription } from '../src/format/cards.js';
import { cut, escapeHtml, esc, stripTags, visibleLength } from '../src/format/html.js';
import { en } from '../src/format/i18n/en.js';
import { CATALOGS, languageOf, t } from '../src/format/i18n/index.js';
import { zhCN } from '../src/format/i18n/zh-CN.js';
import { formatDuration, formatExpiry, formatMoney, formatTime } from '../src/format/values.js';

describe('html', () => {
  it('should escape the four characters Telegram needs', () => {
    expect(escapeHtml(`<a href="x">&</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });

  it('should cut before escaping so no entity is split', () => {
    expect(esc('&&&&&', 3)).toBe('&amp;&amp;…');
    expect(cut('abc', 3)).toBe('abc');
    expect(cut('abcd', 3)).toBe('ab…');
  });

  it('should not split a surrogate pair', () => {
    expect(cut('😀😀😀', 2)).toBe('😀…');
  });

  it('should measure text the way Telegram does', () => {
    expect(visibleLength('<b>a&amp;b</b> &lt;x&gt; &#128512;')).toBe('a&b <x> 😀'.length);
    expect(stripTags('<tg-spoiler>p&quot;w</tg-spoiler>')).toBe('p"w');
  });
});

describe('values', () => {
  it('should format times and expiries in the time zone', () => {
    expect(formatTime('2026-11-22T16:05:00.000Z', 'Asia/Shanghai')).toBe('2026-11-23 00:05');
    expect(formatTime('2026-11-22T16:05:00.000Z', 'Not/AZone')).toBe('2026-11-22 16:05');
    expect(formatExpiry(null, 'UTC', 'en')).toBe('no expiry');
    expect(formatExpiry(null, 'UTC', 'zh-CN')).toBe('永久有效');
  });

  it('should format money from minor units with the currency digits', () => {
    expect(formatMoney(1299, 'usd', 'en')).toBe('$12.99');
    expect(formatMoney(500, 'jpy', 'en')).toBe('¥500');
    expect(formatMoney(1299, 'cny', 'zh-CN')).toBe('¥12.99');
    // Three decimals: 12340 fils are 12.340 dinars.
    expect(formatMoney(12340, 'kwd', 'en')).toBe('KWD\u00a012.340');
  });

  it('should format durations with minutes rounded up and leading zero units dropped', () => {
    expect(formatDuration(0, 'en')).toBe('0m');
    expect(formatDuration(61, 'en')).toBe('2m');
    expect(formatDuration(3600, 'en')).toBe('1h 0m');
    expect(formatDuration(2 * 86400 + 3 * 3600 + 5 * 60, 'en')).toBe('2d 3h 5m');
    expect(formatDuration(2 * 86400 + 3 * 3600 + 5 * 60, 'zh-CN')).toBe('2天3小时5分钟');
  });
});

describe('catalog', () => {
  it('should have the same keys in both languages', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
    for (const lang of ['en', 'zh-CN'] as const) {
      for (const [key, value] of Object.entries(CATALOGS[lang])) {
        expect(`${key}: ${value.trim() === '' && key !== 'duration.sep' ? 'EMPTY' : 'ok'}`).toBe(
          `${key}: ok`,
        );
      }
    }
  });

  it('should use only Telegram tags, balanced, in every template', () => {
    const allowed = new Set(['b', 'i', 'u', 's', 'a', 'code', 'pre', 'tg-spoiler', 'blockquote']);
    for (const catalog of Object.values(CATALOGS)) {
      for (const template of Object.values(catalog)) {
        const stack: string[] = [];
        for (const [, close, name] of template.matchAll(/<(\/?)([a-z-]+)[^>]*>/g)) {
          expect(allowed.has(name!)).toBe(true);
          if (close) expect(stack.pop()).toBe(name);
          else stack.push(name!);
        }
        expect(stack).toEqual([]);
      }
    }
  });

  it('should escape interpolated values', () => {
    expect(t('en', 'bind.ok', { username: '<x>' })).toBe(
      '✅ Linked to Usher account <b>&lt;x&gt;</b>.',
    );
  });

  it('should pick the language from the Telegram language code', () => {
    expect(languageOf('zh-hans', 'en')).toBe('zh-CN');
    expect(languageOf('zh-TW', 'en')).toBe('zh-CN');
    expect(languageOf('en-GB', 'zh-CN')).toBe('en');
    expect(languageOf('de', 'zh-CN')).toBe('zh-CN');
    expect(languageOf(undefined, 'en')).toBe('en');
  });
});

describe('cards and limits', () => {
  const sub = (patch: Partial<CardSubscription> = {}): CardSubscription => ({
    id: 'r',
    mediaType: 'tv',
    tmdbId: 1,
    title: 'Show',
    year: null,
    season: 2,
    posterPath: '/p.jpg',
    note: null,
    requester: { username: 'u' },
    ...patch,
  });

  it('should keep a card within the caption limit by dropping the note', () => {
    const card = approvalCard(
      sub({
        note: 'n'.repeat(500),
        title: 't'.repeat(200),
        requester: { username: 'u'.repeat(64) },
      }),
      'en',
      'UTC',
      {
        kind: 'rejected',
        name: 'x'.repeat(64),
        at: '2026-01-01T00:00:00.000Z',
        reason: 'r'.repeat(500),
      },
    );
    expect(card.caption).not.toBeNull();
    expect(visibleLength(card.caption!)).toBeLessThanOrEqual(1024);
    expect(card.caption).not.toContain('💬');
    expect(card.text).toContain('💬');
    expect(card.text).toContain('t'.repeat(159) + '…');
  });

  it('should fall back to text when even the short card is too long for a caption', () => {
    const card = approvalCard(sub({ title: '&'.repeat(200) }), 'en', 'UTC', {
      kind: 'rejected',
      name: '<'.repeat(64),
      at: '2026-01-01T00:00:00.000Z',
      reason: '"'.repeat(500),
    });
    expect(visibleLength(card.text)).toBeLessThanOrEqual(4096);
    expect(card.text).toContain(' · S2');
  });

  it('should drop ranking rows from the bottom to fit 4096', () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({
      rank: i + 1,
      name: `${'名'.repeat(200)}${i}`,
      playCount: i,
      durationSeconds: 60 * i,
    }));
    const text = rankingMessage(
      {
        period: 'weekly',
        periodStart: '2026-11-16',
        periodEnd: '2026-11-22',
        cutoffAt: '2026-11-23T00:00:00.000Z',
        timezone: 'UTC',
        totalDurationSeconds: 1,
        movies: rows,
        series: rows,
      },
      'zh-CN',
    );
    expect(visibleLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toContain('🏆 <b>播放周榜</b>');
    expect(text).toContain('🥇');
    expect(text).not.toContain('名'.repeat(60));
  });
});

describe('callback data', () => {
  const longest = 'f'.repeat(36);

  it('should keep every kind within 64 bytes with the longest ids', () => {
    const values = [
      callback.approve(longest),
      callback.reject(longest),
      callback.pick(longest, 8),
      callback.season(longest, 30),
      ...(['ok', 'f', 'b', 'bs', 'x'] as const).map((a) => callback.search(longest, a)),
      callback.resetpw(longest, 'ok'),
      callback.resetpw(longest, 'x'),
    ];
    for (const value of values) {
      expect(Buffer.byteLength(value)).toBeLessThanOrEqual(CALLBACK_MAX_BYTES);
      expect(parseCallback(value)).not.toBeNull();
    }
  });

  it('should throw when a value would exceed 64 bytes', () => {
    expect(() => callback.approve('x'.repeat(70))).toThrow(/over 64 bytes/);
  });

  it('should parse each kind and refuse garbage', () => {
    expect(parseCallback('s:abc:n:0')).toEqual({ kind: 'season', stateId: 'abc', season: 0 });
    expect(parseCallback('pw:abc:ok')).toEqual({ kind: 'resetpw', stateId: 'abc', action: 'ok' });
    expect(parseCallback('ap:../x')).toBeNull();
    expect(parseCallback('zz:1')).toBeNull();
  });
});
