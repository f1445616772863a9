import { formatIcu } from './icu';

describe('formatIcu', () => {
  it('should substitute named arguments', () => {
    expect(formatIcu('Hello, {name}', { name: 'admin' }, 'en')).toBe('Hello, admin');
  });

  it('should leave a message without arguments alone, apostrophes included', () => {
    expect(formatIcu("Can't reach Usher", {}, 'en')).toBe("Can't reach Usher");
  });

  it.each([
    [0, 'Last day'],
    [1, '1 day left'],
    [5, '5 days left'],
    [1500, '1,500 days left'],
  ])('should pick the English plural form for %p', (n, expected) => {
    const message = '{n, plural, =0 {Last day} one {# day left} other {# days left}}';
    expect(formatIcu(message, { n }, 'en')).toBe(expected);
  });

  it('should use the Chinese plural rules (no "one" category)', () => {
    const message = '{n, plural, one {ONE} other {剩余 # 天}}';
    expect(formatIcu(message, { n: 1 }, 'zh-CN')).toBe('剩余 1 天');
  });

  it('should select by value with an "other" fallback', () => {
    const message = '{kind, select, emby {Emby} other {Jellyfin or other}}';
    expect(formatIcu(message, { kind: 'emby' }, 'en')).toBe('Emby');
    expect(formatIcu(message, { kind: 'x' }, 'en')).toBe('Jellyfin or other');
  });

  it('should honour ICU apostrophe quoting', () => {
    expect(formatIcu("Use '{braces}' and it''s fine", {}, 'en')).toBe("Use {braces} and it's fine");
  });

  it('should nest arguments inside plural branches', () => {
    const message = '{n, plural, one {# file for {who}} other {# files for {who}}}';
    expect(formatIcu(message, { n: 2, who: 'Ann' }, 'en')).toBe('2 files for Ann');
  });

  it('should reject broken syntax loudly', () => {
    expect(() => formatIcu('{n, plural, one {x}}', { n: 1 }, 'en')).toThrow(/MISSING_OTHER_CLAUSE/);
    expect(() => formatIcu('{n, plural, other {x}', { n: 1 }, 'en')).toThrow();
  });

  it('should render a missing argument empty, and a missing count as "other"', () => {
    expect(formatIcu('Hello, {name}!', {}, 'en')).toBe('Hello, !');
    expect(formatIcu('{n, plural, =0 {none} other {some}}', {}, 'en')).toBe('some');
  });

  it('should treat markup as text', () => {
    expect(formatIcu('<b>{name}</b>', { name: 'Ann' }, 'en')).toBe('<b>Ann</b>');
  });
});
