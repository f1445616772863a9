// Weeks and episode statuses of the watch calendar. Days are `YYYY-MM-DD` calendar days in
// `SCHEDULE_TIMEZONE`; weeks run Monday to Sunday; the status is derived on read, never stored
// (10-data.md §10 "Calendar episode status").
import type { CalendarStatus } from '@usher/contracts';
import { addDays, mondayOf } from '../../time/zoned-day.js';

export interface WeekRange {
  /** Monday. */
  start: string;
  /** Sunday. */
  end: string;
}

/** The week holding `day`, moved by `offset` weeks. */
export function weekOf(day: string, offset = 0): WeekRange {
  const start = addDays(mondayOf(day), offset * 7);
  return { start, end: addDays(start, 6) };
}

/** The seven days of a week, Monday first. */
export function daysOf(week: WeekRange): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(week.start, i));
}

/** `ready` when the library holds the episode, else by air date against `today`. */
export function episodeStatus(
  episode: { mediaItemId: string | null; airDate: string | null },
  today: string,
): CalendarStatus {
  if (episode.mediaItemId !== null) return 'ready';
  if (episode.airDate === null || episode.airDate > today) return 'upcoming';
  return episode.airDate === today ? 'today' : 'missing';
}
