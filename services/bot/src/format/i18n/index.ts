import { localeOf } from '@usher/contracts/values';
import type { Lang } from '../../config.js';
import { escapeHtml } from '../html.js';
import { en, type CatalogKey } from './en.js';
import { zhCN } from './zh-CN.js';

export type { CatalogKey } from './en.js';

export const CATALOGS: Record<Lang, Record<CatalogKey, string>> = { en, 'zh-CN': zhCN };

/** A value that is already HTML (built from catalog templates) and must not be escaped again. */
export class Html {
  constructor(readonly html: string) {}
}
export const html = (value: string) => new Html(value);

export type Vars = Record<string, string | number | Html>;

/** Fills a catalog template; plain values are escaped (callers cut them first). */
export function t(lang: Lang, key: CatalogKey, vars: Vars = {}): string {
  const template = CATALOGS[lang][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return value instanceof Html ? value.html : escapeHtml(String(value));
  });
}

/** The language for a reply to an update (40-bot.md §10.1). */
export function languageOf(code: string | undefined | null, fallback: Lang): Lang {
  return localeOf(code) ?? fallback;
}
