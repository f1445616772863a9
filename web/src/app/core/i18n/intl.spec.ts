import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { LocalDatePipe } from '../../shared/local-date';
import { formatIcu } from './icu';
import { dateFormat, numberFormat } from './intl';
import { LanguageSwitch } from './language';

describe('Intl formatter cache', () => {
  it('should hand out one formatter per language and options', () => {
    const a = dateFormat('en', { dateStyle: 'medium' });
    expect(dateFormat('en', { dateStyle: 'medium' })).toBe(a);
    expect(dateFormat('zh-CN', { dateStyle: 'medium' })).not.toBe(a);
    expect(dateFormat('en', { dateStyle: 'long' })).not.toBe(a);
    expect(numberFormat('en', { maximumFractionDigits: 1 })).toBe(
      numberFormat('en', { maximumFractionDigits: 1 }),
    );
    expect(numberFormat('en', { maximumFractionDigits: 1 }).format(1.25)).toBe('1.3');
  });

  it('should not keep a formatter the browser refused', () => {
    const options = { style: 'currency', currency: 'NOT-A-CODE' } as const;
    expect(() => numberFormat('en', options)).toThrow(RangeError);
    expect(() => numberFormat('en', options)).toThrow(RangeError);
  });

  it('should let every localDate pipe share the formatter instead of building one per row', () => {
    TestBed.configureTestingModule({
      providers: [{ provide: LanguageSwitch, useValue: { active: signal('en') } }],
    });
    const built = countBuilds('DateTimeFormat');
    const rows = Array.from({ length: 20 }, () =>
      TestBed.runInInjectionContext(() => new LocalDatePipe()),
    );
    const texts = rows.map((pipe) => pipe.transform('2026-03-04T10:00:00Z', 'dateTime'));
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toContain('2026');
    expect(built()).toBeLessThanOrEqual(1);
  });

  it('should format ICU plurals without building rules or a number format per message', () => {
    const rules = countBuilds('PluralRules');
    const numbers = countBuilds('NumberFormat');
    const message = '{n, plural, one {# day left} other {# days left}}';
    const texts = [1, 2, 1200, 1].map((n) => formatIcu(message, { n }, 'en'));
    expect(texts).toEqual(['1 day left', '2 days left', '1,200 days left', '1 day left']);
    expect(rules()).toBeLessThanOrEqual(1);
    expect(numbers()).toBeLessThanOrEqual(1);
  });
});

/** Counts `new Intl[name]` until the test ends (PluralRules cannot be called without `new`). */
function countBuilds(name: 'PluralRules' | 'NumberFormat' | 'DateTimeFormat'): () => number {
  const original = Intl[name];
  let built = 0;
  const Counting = class extends (original as typeof Intl.PluralRules) {
    constructor(...args: ConstructorParameters<typeof Intl.PluralRules>) {
      super(...args);
      built++;
    }
  };
  Object.defineProperty(Intl, name, { value: Counting, configurable: true, writable: true });
  restore.push(() =>
    Object.defineProperty(Intl, name, { value: original, configurable: true, writable: true }),
  );
  return () => built;
}
const restore: (() => void)[] = [];
afterEach(() => restore.splice(0).forEach((undo) => undo()));
