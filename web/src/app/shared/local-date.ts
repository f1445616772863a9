import { Pipe, type PipeTransform, inject } from '@angular/core';
import { LanguageSwitch } from '../core/i18n/language';

/**
 * Dates in the active UI language through `Intl` (60-web.md §6.4). Impure so a language switch
 * re-renders; the formatter is cached per language and style, so that stays cheap.
 */
@Pipe({ name: 'localDate', pure: false })
export class LocalDatePipe implements PipeTransform {
  private readonly language = inject(LanguageSwitch);
  private readonly cache = new Map<string, Intl.DateTimeFormat>();

  transform(value: string | Date | null | undefined, style: 'date' | 'dateTime' = 'date'): string {
    if (value === null || value === undefined) return '';
    const lang = this.language.active();
    const cacheKey = `${lang}|${style}`;
    let format = this.cache.get(cacheKey);
    if (!format) {
      format = new Intl.DateTimeFormat(
        lang,
        style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' },
      );
      this.cache.set(cacheKey, format);
    }
    return format.format(typeof value === 'string' ? new Date(value) : value);
  }
}
