import { toString as describeCron } from 'cronstrue';
// Registers the Chinese wording with cronstrue (English is built in).
import 'cronstrue/locales/zh_CN';

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
