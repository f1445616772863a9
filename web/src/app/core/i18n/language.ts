import { DOCUMENT } from '@angular/common';
import { Injectable, inject, signal } from '@angular/core';
import { TranslocoService } from '@jsverse/transloco';
import { localeOf } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages';

export const LANGUAGE_KEY = 'usher.lang';

const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value);

/** First visit: the stored choice, else the browser's languages (any `zh*` → zh-CN), else en. */
export function initialLanguage(stored: string | null, browser: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browser) {
    const locale = localeOf(tag);
    if (locale) return locale;
  }
  return DEFAULT_LANGUAGE;
}

/** The active UI language: remembered in localStorage and mirrored to `<html lang>`. */
@Injectable({ providedIn: 'root' })
export class LanguageSwitch {
  private readonly transloco = inject(TranslocoService);
  private readonly document = inject(DOCUMENT);
  readonly languages = LANGUAGES;
  readonly active = signal<Language>(DEFAULT_LANGUAGE);

  /** Picks the first language and waits for its file, so the first paint is already translated. */
  async init(): Promise<void> {
    const lang = initialLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages ?? []);
    await this.apply(lang);
  }

  async use(lang: Language): Promise<void> {
    localStorage.setItem(LANGUAGE_KEY, lang);
    await this.apply(lang);
  }

  private async apply(lang: Language): Promise<void> {
    await firstValueFrom(this.transloco.load(lang));
    this.transloco.setActiveLang(lang);
    this.active.set(lang);
    this.document.documentElement.lang = lang;
  }
}
