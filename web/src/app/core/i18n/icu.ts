import { IntlMessageFormat } from 'intl-messageformat';

/**
 * ICU MessageFormat through `intl-messageformat` (formatjs), which interprets the parsed message
 * and never compiles it with `new Function`, so the CSP (`script-src 'self'`, no
 * 'unsafe-eval') stands — the reason @messageformat/core, which transloco-messageformat uses, was
 * left out (issue 34 replaced the home-made interpreter that stood here).
 *
 * Usher's files use `{name}`, `{n, plural, =0 {…} one {# …} other {…}}`,
 * `{x, select, a {…} other {…}}` and ICU apostrophe quoting; `<b>` is text, not a tag.
 */
const formats = new Map<string, IntlMessageFormat>();

/**
 * Formats `message` with `params` in `locale`; parsed messages are cached per language. An
 * argument the caller did not pass renders empty (a plural picks "other") instead of
 * throwing, as a missing param never broke a page before.
 */
export function formatIcu(
  message: string,
  params: Record<string, unknown>,
  locale: string,
): string {
  const key = `${locale}\u0000${message}`;
  let format = formats.get(key);
  if (!format) {
    format = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
    formats.set(key, format);
  }
  // intl-messageformat throws on an argument missing from `values`: every name is "there".
  const values = new Proxy(params, { has: () => true });
  return String(format.format(values as Record<string, string | number>));
}
