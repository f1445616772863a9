import { inject } from '@angular/core';
import { TranslocoService } from '@jsverse/transloco';
import { toString as describeCron } from 'cronstrue';
// Registers the Chinese wording with cronstrue (English is built in).
import 'cronstrue/locales/zh_CN';
import { LanguageSwitch } from '../../core/i18n/language';
import { numberFormat } from '../../core/i18n/intl';

/** cronstrue's name for each UI language. */
const CRON_LOCALES: Record<string, string> = { en: 'en', 'zh-CN': 'zh_CN' };

/**
 * A cron expression in plain words in `lang` (60-web.md §4 "Scheduled jobs"), by `cronstrue`
 * (issue 34 replaced the home-made reader, which knew only the usual shapes): five fields, or
 * six with seconds first, on a 24-hour clock. Null when it is not cron: the page shows the
 * expression alone.
 */
export function cronWords(expression: string, lang: string): string | null {
  try {
    return describeCron(expression, {
      locale: CRON_LOCALES[lang] ?? 'en',
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
    });
  } catch {
    // cronstrue throws on what it cannot parse; the expression itself is on screen anyway.
    return null;
  }
}

/** Counters of the jobs' summaries with a wording in both languages (`jobs.counter.*`). */
export const SUMMARY_COUNTERS = new Set([
  'actioned',
  'alreadyDone',
  'announcements',
  'applied',
  'bytes',
  'checked',
  'deleted',
  'devices',
  'disabled',
  'done',
  'due',
  'ended',
  'entries',
  'events',
  'expired',
  'failed',
  'gaveUp',
  'judged',
  'loggedOut',
  'movies',
  'observed',
  'pruned',
  'queued',
  'reminded',
  'removed',
  'reset',
  'retry',
  'rows',
  'scanned',
  'sent',
  'series',
  'sessions',
  'sessionsExpired',
  'sessionsFailed',
  'skipped',
  'started',
  'statements',
  'suspensionsEnded',
  'tables',
  'total',
  'tracked',
  'unchanged',
  'unconfigured',
  'waiting',
  'warned',
]);

/** Summary fields that are not counts worth a line: ids, dates, windows, progress. */
const NOT_COUNTS = new Set([
  'cutoffAt',
  'progress',
  'batchId',
  'periodStart',
  'periodEnd',
  'weekOffsets',
  'from',
  'to',
  'file',
  'schema',
  'pushOutcome',
  'totalDurationSeconds',
  'reconcile',
]);

/** How a summary line names and writes its counts (the page passes its language's). */
export interface SummaryWords {
  /** A counter's name, e.g. `gaveUp` → "gave up". */
  label: (key: string) => string;
  /** A count with the language's separators, e.g. 1480 → "1,480". */
  count: (n: number) => string;
}

/** `sessionsFailed` → "sessions failed": the words of a counter without a translation. */
export function counterWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

const PLAIN: SummaryWords = { label: counterWords, count: (n) => String(n) };

/**
 * A run's summary as one readable line (issue 36: no raw keys, separators in counts):
 * `checked 1,480 · disabled 3`; a breakdown (cleanup's tables) flattened without its zero
 * counts, a list counted, the reason of a skip as written, ids and dates left out.
 */
export function summaryText(
  summary: Record<string, unknown> | null,
  words: SummaryWords = PLAIN,
): string {
  if (!summary) return '';
  const parts: string[] = [];
  const count = (n: unknown) => (typeof n === 'number' ? words.count(n) : String(n));
  for (const [key, value] of Object.entries(summary)) {
    if (NOT_COUNTS.has(key) || value === null || value === undefined) continue;
    if (key === 'reason' && typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) parts.push(`${words.label(key)} ${count(value.length)}`);
    else if (typeof value === 'object') {
      for (const [inner, n] of Object.entries(value as Record<string, unknown>)) {
        // Zero counts of a breakdown (cleanup's tables) say nothing; table names stay as named.
        if (n !== 0) parts.push(`${inner} ${count(n)}`);
      }
    } else parts.push(`${words.label(key)} ${count(value)}`);
  }
  return parts.join(' · ');
}

/** `summaryText` in the active language; call it in a field initialiser (it injects). */
export function summaryInLanguage(): (summary: Record<string, unknown> | null) => string {
  const transloco = inject(TranslocoService);
  const language = inject(LanguageSwitch);
  return (summary) => {
    const lang = language.active();
    const numbers = numberFormat(lang);
    return summaryText(summary, {
      label: (key) =>
        SUMMARY_COUNTERS.has(key)
          ? transloco.translate(`jobs.counter.${key}`, {}, lang)
          : counterWords(key),
      count: (n) => numbers.format(n),
    });
  };
}
