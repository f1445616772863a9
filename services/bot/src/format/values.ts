/** Dates, money, durations and media labels (40-bot.md §10.2). */
import { formatWallClock, wallClock, type WallClock } from '@usher/contracts/time';
import type { Lang } from '../config.js';
import { t } from './i18n/index.js';

function clockIn(date: Date, timeZone: string): WallClock {
  try {
    return wallClock(date, timeZone);
  } catch (_error) {
    // An unknown zone name from the settings must not break every message: fall back to UTC.
    return wallClock(date, 'UTC');
  }
}

/** `YYYY-MM-DD HH:mm` in the settings' time zone. */
export function formatTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatWallClock(clockIn(date, timeZone));
}

/** `HH:mm` in the settings' time zone. */
export function formatClock(iso: string, timeZone: string): string {
  return formatTime(iso, timeZone).slice(11);
}

/** An expiry: the time, or "no expiry" for null. */
export function formatExpiry(iso: string | null, timeZone: string, lang: Lang): string {
  return iso === null ? t(lang, 'time.noExpiry') : formatTime(iso, timeZone);
}

/** Minor units → localised currency text, with the currency's own number of decimals. */
export function formatMoney(amount: number, currency: string, lang: Lang): string {
  const code = currency.toUpperCase();
  try {
    const format = new Intl.NumberFormat(lang, { style: 'currency', currency: code });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch (_error) {
    // An unknown ISO code: show the raw amount rather than failing the notify.
    return `${(amount / 100).toFixed(2)} ${code}`;
  }
}

/** `2d 3h 5m` / `2天3小时5分钟`: minutes rounded up, leading zero units left out. */
export function formatDuration(seconds: number, lang: Lang): string {
  const totalMinutes = Math.ceil(Math.max(0, seconds) / 60);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  const out: string[] = [];
  if (days > 0) out.push(t(lang, 'duration.d', { n: days }));
  if (days > 0 || hours > 0) out.push(t(lang, 'duration.h', { n: hours }));
  out.push(t(lang, 'duration.m', { n: minutes }));
  return out.join(t(lang, 'duration.sep'));
}

export type MediaType = 'movie' | 'tv';

export function tmdbUrl(mediaType: MediaType, tmdbId: number): string {
  return `https://www.themoviedb.org/${mediaType}/${tmdbId}`;
}

export function typeLabel(mediaType: MediaType, lang: Lang): string {
  return t(lang, mediaType === 'movie' ? 'type.movie' : 'type.tv');
}

/** ` · S2` / ` · all seasons` for series; nothing for movies. */
export function seasonSuffix(mediaType: MediaType, season: number, lang: Lang): string {
  if (mediaType !== 'tv') return '';
  return season === 0 ? t(lang, 'season.all') : t(lang, 'season.one', { n: season });
}
