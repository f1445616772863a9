// How the watch calendar looks (60-web.md §4.2 "Watch calendar", §6.6 status chips): pure
// functions the page binds and the spec checks directly.
import type { CalendarItem, JobRun } from '@usher/contracts';
import type { CalendarStatus } from '@usher/contracts/values';
import { CALENDAR_STATUSES } from '@usher/contracts/values';
import type { Tone } from '../../shared/status-chip';
import { dateFormat } from '../../core/i18n/intl';

/** Status chip per episode status: In library → success, Missing → error, … */
export const CALENDAR_STATUS_VIEW: Record<CalendarStatus, { tone: Tone; icon: string }> = {
  ready: { tone: 'success', icon: 'check_circle' },
  missing: { tone: 'error', icon: 'event_busy' },
  today: { tone: 'info', icon: 'live_tv' },
  upcoming: { tone: 'neutral', icon: 'schedule' },
};

/** The filter chips in the spec's order; '' is "All". */
export const STATUS_FILTERS = [
  '',
  'ready',
  'missing',
  'today',
  'upcoming',
] as const satisfies readonly ('' | CalendarStatus)[];

/** `?status=` as a filter; anything unknown is "All". */
export function parseStatus(value: string | null | undefined): CalendarStatus | '' {
  return value && (CALENDAR_STATUSES as readonly string[]).includes(value)
    ? (value as CalendarStatus)
    : '';
}

/** `S02E05`. */
export function episodeCode(item: Pick<CalendarItem, 'season' | 'episode'>): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `S${two(item.season)}E${two(item.episode)}`;
}

/** The day `days` after a `YYYY-MM-DD` day (plain calendar arithmetic, no timezone). */
export function shiftDay(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * A business day as the API sent it, in the UI language. Formatted as a UTC date on purpose: the
 * day is already the business timezone's, and the browser must never shift it (60-web.md §4.2).
 */
export function formatDay(
  day: string,
  lang: string,
  options: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' },
): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return dateFormat(lang, { ...options, timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** "8 – 14 Jun 2026" in the UI language. */
export function formatWeek(start: string, end: string, lang: string): string {
  const [y1, m1, d1] = start.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = end.split('-').map(Number) as [number, number, number];
  const format = dateFormat(lang, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return format.formatRange(new Date(Date.UTC(y1, m1 - 1, d1)), new Date(Date.UTC(y2, m2 - 1, d2)));
}

/** Progress of a running sync from its run's `summary.progress`: series done of all, or null. */
export function syncProgress(
  run: Pick<JobRun, 'summary'> | null,
): { done: number; total: number; percent: number } | null {
  const p = (run?.summary as { progress?: { series?: unknown; seriesDone?: unknown } } | null)
    ?.progress;
  const total = typeof p?.series === 'number' && p.series > 0 ? p.series : 0;
  if (!p || total === 0) return null;
  const done = typeof p.seriesDone === 'number' ? Math.min(total, Math.max(0, p.seriesDone)) : 0;
  return { done, total, percent: Math.round((done / total) * 100) };
}
