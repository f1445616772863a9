/**
 * `Intl` formatters, made once per language and options and then reused. Building an
 * `Intl.DateTimeFormat` or `Intl.NumberFormat` loads and resolves locale data — about a
 * millisecond each on a phone, against microseconds for `format()` — and the pipes and helpers
 * that format a date, an amount or a duration run once per row and per change detection (an
 * impure pipe is one instance per row, and each used to build its own formatter). The renderer's
 * very first `Intl` use also sets up ICU (~50 ms on the build box), which no cache avoids. The
 * cache is bounded by the code: the keys are the app's own option sets times its two languages.
 */
const dates = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();
const plurals = new Map<string, Intl.PluralRules>();

function cached<F>(cache: Map<string, F>, lang: string, options: object, make: () => F): F {
  const key = `${lang}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (format === undefined) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

export function dateFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(dates, lang, options, () => new Intl.DateTimeFormat(lang, options));
}

/** Throws (as the constructor does) for options the browser rejects, e.g. an unknown currency. */
export function numberFormat(
  lang: string,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  return cached(numbers, lang, options, () => new Intl.NumberFormat(lang, options));
}

/** The plural rules of `lang` (cardinal): `one`, `other`, … for ICU `plural` messages. */
export function pluralRules(lang: string): Intl.PluralRules {
  return cached(plurals, lang, {}, () => new Intl.PluralRules(lang));
}
