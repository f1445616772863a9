import { HttpClient } from '@angular/common/http';
import { Injectable, type EnvironmentProviders, inject, isDevMode } from '@angular/core';
import {
  type Translation,
  type TranslocoLoader,
  provideTransloco,
  provideTranslocoTranspiler,
} from '@jsverse/transloco';
import { BUILD_INFO } from '../../../build-info';
import { IcuTranspiler } from './icu-transpiler';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages';

/**
 * Loads `/i18n/<lang>.json?v=<build>`: the files are served `no-cache`, and the version query
 * makes a new deploy fetch fresh keys even through caches that ignore revalidation.
 */
@Injectable({ providedIn: 'root' })
export class HttpTranslationLoader implements TranslocoLoader {
  private readonly http = inject(HttpClient);

  getTranslation(lang: string) {
    const version = encodeURIComponent(`${BUILD_INFO.version}-${BUILD_INFO.commit}`);
    return this.http.get<Translation>(`/i18n/${lang}.json?v=${version}`);
  }
}

export function provideI18n(): EnvironmentProviders[] {
  return [
    ...provideTransloco({
      config: {
        availableLangs: [...LANGUAGES],
        defaultLang: DEFAULT_LANGUAGE,
        fallbackLang: DEFAULT_LANGUAGE,
        // No runtime fallback: a spec keeps en and zh-CN key sets identical, so it would only cost a
        // second download for Chinese users.
        missingHandler: { logMissingKey: isDevMode() },
        reRenderOnLangChange: true,
        prodMode: !isDevMode(),
      },
      loader: HttpTranslationLoader,
    }),
    provideTranslocoTranspiler(IcuTranspiler),
  ];
}
