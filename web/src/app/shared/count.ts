import { Pipe, type PipeTransform, inject } from '@angular/core';
import { LanguageSwitch } from '../core/i18n/language';
import { numberFormat } from '../core/i18n/intl';

/**
 * `{{ n | count }}`: a count with the active language's separators ("1,480", issue 36 — "Plays
 * 1480" read as a year). Impure so a language switch re-renders, like `localDate`.
 */
@Pipe({ name: 'count', pure: false })
export class CountPipe implements PipeTransform {
  private readonly language = inject(LanguageSwitch);

  transform(value: number | null | undefined): string {
    if (value === null || value === undefined) return '';
    return numberFormat(this.language.active()).format(value);
  }
}
