import { provideHttpClient, withFetch, withInterceptors } from '@angular/common/http';
import {
  type ApplicationConfig,
  ErrorHandler,
  inject,
  provideAppInitializer,
  provideBrowserGlobalErrorListeners,
  provideZonelessChangeDetection,
} from '@angular/core';
import {
  TitleStrategy,
  provideRouter,
  withComponentInputBinding,
  withInMemoryScrolling,
} from '@angular/router';
import { MatIconRegistry } from '@angular/material/icon';
import { DomSanitizer } from '@angular/platform-browser';
import { routes } from './app.routes';
import { APP_INTERCEPTORS } from './core/api/interceptors';
import { AppErrorHandler } from './core/error-handler';
import { provideI18n } from './core/i18n/i18n';
import { LanguageSwitch } from './core/i18n/language';
import { SessionStore } from './core/session/session-store';
import { TranslatedTitleStrategy } from './core/shell/title-strategy';
import { SiteStore } from './core/site/site-store';
import { ThemeSwitch } from './core/theme/theme';

/**
 * Before the first render: the language file (so nothing flashes untranslated), the site
 * branding and, with a stored token, `GET /me` (60-web.md §2.1). They run in parallel, and
 * public/boot.js has usually started them already (earlyReadInterceptor), together with the
 * landing page's code.
 */
async function bootstrapState(): Promise<void> {
  inject(ThemeSwitch);
  const registry = inject(MatIconRegistry);
  const sanitizer = inject(DomSanitizer);
  const language = inject(LanguageSwitch);
  const site = inject(SiteStore);
  const session = inject(SessionStore);
  // Material Symbols as SVG, only those the app names (issue 14; 60-web.md §1). Their own
  // chunk, fetched alongside the calls below rather than parsed with the first bundle.
  const icons = import('./core/icons/icons')
    .then((m) => m.registerIcons(registry, sanitizer))
    .catch(() => undefined);
  // A language file that fails to load must not stop the app: it then shows keys, not nothing.
  const translated = language.init().catch(() => undefined);
  await Promise.all([translated, site.load(), session.bootstrap(), icons]);
}

export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    provideHttpClient(withFetch(), withInterceptors(APP_INTERCEPTORS)),
    provideRouter(
      routes,
      withComponentInputBinding(),
      withInMemoryScrolling({ scrollPositionRestoration: 'enabled', anchorScrolling: 'enabled' }),
    ),
    { provide: TitleStrategy, useClass: TranslatedTitleStrategy },
    { provide: ErrorHandler, useClass: AppErrorHandler },
    ...provideI18n(),
    provideAppInitializer(bootstrapState),
  ],
};
