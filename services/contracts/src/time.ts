/**
 * `@usher/contracts/time`: the wall clock of an instant in an IANA time zone, the one place the
 * API and the bot read `Intl.DateTimeFormat#formatToParts` (issue 34: six files each rebuilt it).
 * No import at all, so it is as browser-safe as the rest of the package.
 *
 * Why not a library: the zone arithmetic both services need is "what does the clock on the wall
 * say there" — `Intl` answers it from the runtime's own tz database; `date-fns-tz`/`luxon` would
 * wrap the same call and add a dependency to two bundles.
 */

export interface WallClock {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  /** 0–23. */
  hour: number;
  minute: number;
  second: number;
  /** English short name: `Mon` … `Sun`. */
  weekday: string;
}

// One formatter per zone: building one costs far more than formatting with it.
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for an unknown zone, before anything is cached.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** What a clock in `timeZone` shows at `at`. Throws RangeError for an unknown zone name. */
export function wallClock(at: Date, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(at);
  const text = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const num = (type: Intl.DateTimeFormatPartTypes) => Number(text(type));
  return {
    year: num('year'),
    month: num('month'),
    day: num('day'),
    hour: num('hour'),
    minute: num('minute'),
    second: num('second'),
    weekday: text('weekday'),
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `2026-12-14 08:00`: a wall clock as the API's messages and the bot write it. */
export function formatWallClock(clock: WallClock): string {
  return `${clock.year}-${two(clock.month)}-${two(clock.day)} ${two(clock.hour)}:${two(clock.minute)}`;
}
