import { formatMoney } from './money';

describe('formatMoney', () => {
  it('should show minor units with the currency digits in the given language', () => {
    expect(formatMoney(1999, 'usd', 'en')).toBe('$19.99');
    expect(formatMoney(500, 'jpy', 'en')).toBe('¥500');
    expect(formatMoney(12340, 'kwd', 'en')).toBe('KWD\u00a012.340');
    expect(formatMoney(1999, 'cny', 'zh-CN')).toBe('¥19.99');
    expect(formatMoney(1999, 'eur', 'en')).toBe('€19.99');
  });

  it('should not invent decimals for yen nor drop the third one of the dinar', () => {
    expect(formatMoney(1, 'jpy', 'zh-CN')).not.toContain('.');
    expect(formatMoney(10, 'kwd', 'en')).toMatch(/0\.010$/);
  });
});
