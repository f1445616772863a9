// Ranking periods in the business timezone (10-data.md §7): a daily period is one calendar day
// in SCHEDULE_TIMEZONE (23 or 25 hours on a DST change), a weekly one runs Monday to Sunday.
// The counted window starts at the first day's midnight and ends at the day after the last, or
// at `now` while the period is still running (the cutoff).
import type { RankingPeriod } from '@usher/contracts';
import { AppError } from '../../errors/app-error.js';
import { addDays, mondayOf, nextDay, startOfZonedDay, zonedDay } from '../../time/zoned-day.js';

export interface PeriodWindow {
  period: RankingPeriod;
  /** First day, `YYYY-MM-DD`. */
  start: string;
  /** Last day, `YYYY-MM-DD`. */
  end: string;
  timezone: string;
  /** Midnight of `start` in `timezone`. */
  from: Date;
  /** The end of the counted window: midnight after `end`, or `now` if that is earlier. */
  cutoff: Date;
}

/** The days of the period that contains `day`. */
export function periodDays(period: RankingPeriod, day: string): { start: string; end: string } {
  if (period === 'daily') return { start: day, end: day };
  const start = mondayOf(day);
  return { start, end: addDays(start, 6) };
}

/**
 * The window of the period containing `day` (default: today in `timezone`). A day after today
 * is refused: its period has not begun, or would be counted before it ends.
 */
export function periodWindow(
  period: RankingPeriod,
  timezone: string,
  now: Date,
  day?: string,
): PeriodWindow {
  const today = zonedDay(now, timezone);
  const wanted = day ?? today;
  if (wanted > today) {
    const message = `The date is after today (${today} in ${timezone})`;
    throw new AppError('VALIDATION_FAILED', message, { details: [{ path: 'date', message }] });
  }
  const { start, end } = periodDays(period, wanted);
  const from = startOfZonedDay(start, timezone);
  const endsAt = startOfZonedDay(nextDay(end), timezone);
  const cutoff = endsAt.getTime() < now.getTime() ? endsAt : now;
  return { period, start, end, timezone, from, cutoff };
}
