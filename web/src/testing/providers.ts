import { provideHttpClient, withInterceptors } from '@angular/common/http';
import { provideHttpClientTesting } from '@angular/common/http/testing';
import {
  type EnvironmentProviders,
  PendingTasks,
  type Provider,
  importProvidersFrom,
} from '@angular/core';
import { provideRouter, type Routes } from '@angular/router';
import { TranslocoTestingModule, provideTranslocoTranspiler } from '@jsverse/transloco';
import { APP_INTERCEPTORS } from '../app/core/api/interceptors';
import { IcuTranspiler } from '../app/core/i18n/icu-transpiler';
import { ECHARTS_LOADER } from '../app/shared/chart/echarts-loader';
import en from '../assets/i18n/en.json';
import zhCN from '../assets/i18n/zh-CN.json';

/** The real translation files, preloaded, with the app's ICU transpiler. */
export function provideTestI18n(): (Provider | EnvironmentProviders)[] {
  return [
    importProvidersFrom(
      TranslocoTestingModule.forRoot({
        langs: { en, 'zh-CN': zhCN },
        translocoConfig: { availableLangs: ['en', 'zh-CN'], defaultLang: 'en' },
        preloadLangs: true,
      }),
    ),
    provideTranslocoTranspiler(IcuTranspiler),
  ];
}

/**
 * Pending work that does not hold `whenStable()`. Under provideHttpClientTesting a request does
 * not keep the app unstable (so a spec can render, then answer it); a `resource` load would,
 * and `whenStable()` would wait for an answer the spec has not sent yet. Specs let promise
 * chains run with `settle()` / `flushAndRender()` instead.
 */
class UntrackedPendingTasks {
  add(): () => void {
    return () => undefined;
  }

  run(fn: () => Promise<unknown>): void {
    void fn();
  }
}

/** HTTP with the app's interceptors in the app's order, answered by HttpTestingController. */
export function provideTestHttp(): (Provider | EnvironmentProviders)[] {
  return [
    provideHttpClient(withInterceptors(APP_INTERCEPTORS)),
    provideHttpClientTesting(),
    { provide: PendingTasks, useClass: UntrackedPendingTasks },
  ];
}

export function provideTestApp(routes: Routes = []): (Provider | EnvironmentProviders)[] {
  return [...provideTestHttp(), ...provideTestI18n(), provideRouter(routes)];
}

/** ECharts replaced by an inert chart instance, for pages whose charts are not under test. */
export function provideFakeCharts(): Provider {
  const chart = {
    setOption: () => undefined,
    isDisposed: () => false,
    dispose: () => undefined,
    resize: () => undefined,
    on: () => undefined,
    off: () => undefined,
  };
  return { provide: ECHARTS_LOADER, useValue: () => Promise.resolve({ init: () => chart }) };
}
