import { toCsv } from './csv';

describe('toCsv', () => {
  it('should quote fields with commas, quotes and line breaks, and end rows with CRLF', () => {
    expect(
      toCsv([
        ['code', 'notes'],
        ['A1', 'for "VIP", second\nline'],
      ]),
    ).toBe('code,notes\r\nA1,"for ""VIP"", second\nline"\r\n');
  });

  it('should write null as an empty field and numbers as they are', () => {
    expect(toCsv([[null, 30, 'x']])).toBe(',30,x\r\n');
  });

  it('should defuse text a spreadsheet would run as a formula', () => {
    expect(toCsv([['=HYPERLINK("x")', '+1', '-2', '@a']])).toBe(
      `"'=HYPERLINK(""x"")",'+1,'-2,'@a\r\n`,
    );
  });
});
