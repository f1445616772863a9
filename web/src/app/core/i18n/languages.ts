import { LOCALES, type Locale } from '@usher/contracts/values';

/** The languages of the UI, in menu order (60-web.md §6.4): the contract's locales. */
export const LANGUAGES = LOCALES;
export type Language = Locale;
/** `en` is the default and the fallback. */
export const DEFAULT_LANGUAGE: Language = 'en';
