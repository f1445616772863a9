/** The languages of the UI, in menu order (60-web.md §6.4). `en` is default and fallback. */
export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
