import { wallClock } from '@usher/contracts/time';

/**
 * The instant a calendar day starts in an IANA timezone, e.g. 2026-05-01 in Asia/Shanghai →
 * 2026-04-30T16:00:00Z. Query ranges `from`..`to` are inclusive days (20-api.md §1.1): from the
 * start of `from` to the start of the day after `to`.
 */
export function startOfZonedDay(day: string, timeZone: string): Date {
  const utcGuess = utcMidnight(day);
  // The zone's offset at that moment; applied twice to settle across a DST change.
  let instant = utcGuess - offsetMs(new Date(utcGuess), timeZone);
  instant = utcGuess - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

export function nextDay(day: string): string {
  return addDays(day, 1);
}

/** The calendar day `n` days after (or before, when negative) `day`, both `YYYY-MM-DD`. */
export function addDays(day: string, n: number): string {
  return new Date(utcMidnight(day, n)).toISOString().slice(0, 10);
}

/**
 * Milliseconds of 00:00 UTC on `day` (+ `n` days). Not `Date.UTC(y, …)`: it reads years 0–99
 * as 1900–1999, so 0001-01-01 became 1901-01-01; `setUTCFullYear` takes the year as written.
 */
function utcMidnight(day: string, n = 0): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(0).setUTCFullYear(y, m - 1, d + n);
}

/** The date an instant falls on in a zone, `YYYY-MM-DD` (e.g. "today" in SCHEDULE_TIMEZONE). */
export function zonedDay(at: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The Monday of the ISO week `day` belongs to (weeks run Monday–Sunday). */
export function mondayOf(day: string): string {
  const sunday0 = new Date(utcMidnight(day)).getUTCDay();
  return addDays(day, -((sunday0 + 6) % 7));
}

function offsetMs(at: Date, timeZone: string): number {
  const clock = wallClock(at, timeZone);
  // setUTCFullYear, not Date.UTC: years 0–99 stay as written (see utcMidnight).
  const asUtc = new Date(0).setUTCFullYear(clock.year, clock.month - 1, clock.day);
  const time = (clock.hour * 60 + clock.minute) * 60 + clock.second;
  return asUtc + time * 1000 - Math.floor(at.getTime() / 1000) * 1000;
}
