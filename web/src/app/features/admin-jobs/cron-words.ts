import { dateFormat } from '../../core/i18n/intl';

/**
 * A cron expression in plain words (60-web.md §4 "Scheduled jobs"): the translation key and its
 * params for the shapes schedules usually take — every N seconds or minutes, hourly, every N
 * hours, daily, weekly, monthly. Anything else is null and the page shows the expression alone.
 */
export interface CronWords {
  key: string;
  params: Record<string, string | number>;
}

const NUMBER = /^\d+$/;
const STEP = /^\*\/(\d+)$/;

const pad = (n: string) => n.padStart(2, '0');

/** The weekday of cron's `0`–`7` (0 and 7 are Sunday) in `lang`. */
export function weekdayName(day: number, lang: string): string {
  // 2024-01-07 was a Sunday.
  return dateFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, 7 + (day % 7))),
  );
}

export function cronWords(expression: string, lang: string): CronWords | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length === 6) {
    const [sec, ...rest] = fields;
    const step = STEP.exec(sec!);
    if (step && rest.every((f) => f === '*')) {
      return { key: 'jobs.cron.everySeconds', params: { n: Number(step[1]) } };
    }
    if (sec !== '0') return null;
    fields.shift();
  }
  if (fields.length !== 5) return null;
  const [min, hour, dom, month, dow] = fields as [string, string, string, string, string];
  if (month !== '*') return null;
  const minuteStep = STEP.exec(min);
  if (minuteStep && hour === '*' && dom === '*' && dow === '*') {
    return { key: 'jobs.cron.everyMinutes', params: { n: Number(minuteStep[1]) } };
  }
  if (min === '*' && hour === '*' && dom === '*' && dow === '*') {
    return { key: 'jobs.cron.everyMinute', params: {} };
  }
  if (!NUMBER.test(min)) return null;
  const minute = pad(min);
  if (hour === '*' && dom === '*' && dow === '*') {
    return { key: 'jobs.cron.hourly', params: { minute } };
  }
  const hourStep = STEP.exec(hour);
  if (hourStep && dom === '*' && dow === '*') {
    return { key: 'jobs.cron.everyHours', params: { n: Number(hourStep[1]), minute } };
  }
  if (!NUMBER.test(hour)) return null;
  const time = `${pad(hour)}:${minute}`;
  if (dom === '*' && dow === '*') return { key: 'jobs.cron.daily', params: { time } };
  if (dom === '*' && NUMBER.test(dow) && Number(dow) <= 7) {
    return { key: 'jobs.cron.weekly', params: { day: weekdayName(Number(dow), lang), time } };
  }
  if (dow === '*' && NUMBER.test(dom)) {
    return { key: 'jobs.cron.monthly', params: { day: Number(dom), time } };
  }
  return null;
}

/** A run's summary as one readable line: `checked 120 · disabled 3`, nested counts flattened. */
export function summaryText(summary: Record<string, unknown> | null): string {
  if (!summary) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(summary)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, count] of Object.entries(value as Record<string, unknown>)) {
        // Zero counts of a breakdown (cleanup's tables) say nothing.
        if (count !== 0) parts.push(`${inner} ${String(count)}`);
      }
    } else if (key !== 'cutoffAt') {
      parts.push(`${key} ${String(value)}`);
    }
  }
  return parts.join(' · ');
}
