import { Pipe, type PipeTransform, inject } from '@angular/core';
import { LanguageSwitch } from '../core/i18n/language';
import { dateFormat } from '../core/i18n/intl';

const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
const TIME: Intl.DateTimeFormatOptions = { timeStyle: 'short' };
const STYLES = { date: DATE, dateTime: DATE_TIME, time: TIME } as const;

/**
 * Dates in the active UI language through `Intl` (60-web.md §6.4). Impure so a language switch
 * re-renders; the formatters are shared by every instance (core/i18n/intl.ts), so that stays cheap.
 */
@Pipe({ name: 'localDate', pure: false })
export class LocalDatePipe implements PipeTransform {
  private readonly language = inject(LanguageSwitch);

  transform(value: string | Date | null | undefined, style: keyof typeof STYLES = 'date'): string {
    if (value === null || value === undefined) return '';
    const format = dateFormat(this.language.active(), STYLES[style]);
    return format.format(typeof value === 'string' ? new Date(value) : value);
  }
}
