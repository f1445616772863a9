import { ApiError } from '../../core/api/api-error';
import { dateFormat, numberFormat } from '../../core/i18n/intl';

/** Days a custom portrait range may cover (20-api.md `/me/playback`). */
export const PORTRAIT_MAX_DAYS = 92;
/** Days the admin history may cover. */
export const HISTORY_MAX_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Inclusive days between two `YYYY-MM-DD` days; NaN when either is not a day. */
export function daysBetween(from: string, to: string): number {
  if (!DAY.test(from) || !DAY.test(to)) return NaN;
  return (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
}

/** Whether a custom range is usable: both days, in order, at most `max` days. */
export function rangeProblem(from: string, to: string, max: number): 'order' | 'long' | null {
  const days = daysBetween(from, to);
  if (Number.isNaN(days)) return null;
  if (days < 1) return 'order';
  return days > max ? 'long' : null;
}

/**
 * A duration for people: "2 hr 5 min", "45 min", "2小时 5分钟", from Intl units in the UI
 * language; under a minute reads "0 min".
 */
export function formatDuration(seconds: number, lang: string): string {
  const unit = (value: number, u: 'hour' | 'minute') =>
    numberFormat(lang, { style: 'unit', unit: u, unitDisplay: 'short' }).format(value);
  const total = Math.round(seconds / 60);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (!hours) return unit(minutes, 'minute');
  return minutes ? `${unit(hours, 'hour')} ${unit(minutes, 'minute')}` : unit(hours, 'hour');
}

/** Seconds as hours with one decimal, for chart values ("12.5 hr"). */
export function hoursOf(seconds: number): number {
  return Math.round(seconds / 360) / 10;
}

export function formatHours(hours: number, lang: string): string {
  return numberFormat(lang, {
    style: 'unit',
    unit: 'hour',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(hours);
}

/** Short weekday names, Monday first (the API's `byWeekday` order). */
export function weekdayNames(lang: string): string[] {
  const format = dateFormat(lang, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

/** Hour labels "00"–"23". */
export const HOUR_LABELS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));

/** How a playback read failed, when the page says something specific about it. */
export type PlaybackProblem = 'plugin' | 'unlinked' | 'server' | null;

export function playbackProblem(error: unknown): PlaybackProblem {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'MEDIA_ACCOUNT_UNLINKED') return 'unlinked';
  if (error.code === 'NOT_CONFIGURED') {
    const system = (error.details as { system?: unknown } | undefined)?.system;
    if (system === 'playback_reporting') return 'plugin';
    if (system === 'media_server') return 'server';
  }
  return null;
}
