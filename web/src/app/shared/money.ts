import { Pipe, type PipeTransform, inject } from '@angular/core';
import { CURRENCY_EXPONENTS, type PlanCurrency } from '@usher/contracts/values';
import { LanguageSwitch } from '../core/i18n/language';
import { numberFormat } from '../core/i18n/intl';

/**
 * An amount in minor units (as Stripe counts them: cents, whole yen, fils) as localised currency
 * text: `1999 usd` → "$19.99", `500 jpy` → "¥500", `12340 kwd` → "KWD 12.340". The currency's
 * own number of decimals comes from the contract, not from the browser's tables.
 */
export function formatMoney(amount: number, currency: string, lang: string): string {
  const code = currency.toLowerCase();
  const digits = CURRENCY_EXPONENTS[code as PlanCurrency] ?? 2;
  try {
    return numberFormat(lang, {
      style: 'currency',
      currency: code.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount / 10 ** digits);
  } catch (_error) {
    // A code this browser's Intl does not know: the plain number and the code.
    return `${(amount / 10 ** digits).toFixed(digits)} ${code.toUpperCase()}`;
  }
}

/** `{{ plan.price | money: plan.currency }}` in the active language (impure: follows a switch). */
@Pipe({ name: 'money', pure: false })
export class MoneyPipe implements PipeTransform {
  private readonly language = inject(LanguageSwitch);

  transform(amount: number | null | undefined, currency: string): string {
    if (amount === null || amount === undefined) return '';
    return formatMoney(amount, currency, this.language.active());
  }
}
