import { dateFormat } from '../../core/i18n/intl';

/**
 * A ranking's days as people read them, in the UI language. The days are business-timezone
 * dates from the API (`YYYY-MM-DD`); they are formatted as UTC dates so the browser's own zone
 * never moves them (60-web.md: "the browser never shifts them").
 */
export function periodLabel(start: string, end: string, lang: string): string {
  const day = (text: string) => {
    const [y, m, d] = text.split('-').map(Number) as [number, number, number];
    return new Date(Date.UTC(y, m - 1, d));
  };
  const options = (year: boolean): Intl.DateTimeFormatOptions => ({
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: zh(lang) ? 'long' : 'short',
    ...(year ? { year: 'numeric' } : {}),
  });
  const full = dateFormat(lang, options(true));
  if (start === end) return full.format(day(start));
  if (!zh(lang)) return full.formatRange(day(start), day(end));
  // Chinese ranges come out numeric ("2026/10/19周一至…"): written out as "10月19日周一 至 …".
  const sameYear = start.slice(0, 4) === end.slice(0, 4);
  const first = dateFormat(lang, options(!sameYear)).format(day(start));
  return `${first} 至 ${full.format(day(end))}`;
}

const zh = (lang: string) => lang.startsWith('zh');
