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
import {
  apiErrorInterceptor,
  bearerTokenInterceptor,
  requestIdInterceptor,
} from './core/api/interceptors';
import { AppErrorHandler } from './core/error-handler';
import { provideI18n } from './core/i18n/i18n';
import { LanguageSwitch } from './core/i18n/language';
import { SessionStore } from './core/session/session-store';
import { TranslatedTitleStrategy } from './core/shell/title-strategy';
import { SiteStore } from './core/site/site-store';
import { ThemeSwitch } from './core/theme/theme';
import { MediaHomeApi } from './features/overview/media-home-api';

/**
 * Before the first render: the language file (so nothing flashes untranslated), the site
 * branding and, with a stored token, `GET /me` (60-web.md §2.1). They run in parallel.
 */
/**
 * The code of the page being opened, fetched while the initializer waits for the language file,
 * /public/site and /me instead of after them: the router only asks for a lazy route once they
 * are in, and each level of chunks costs a round trip (issue 14: Lighthouse's largest paint on
 * /login waited for four in a row). The router later imports the same chunks from the cache.
 * The public routes are fetched for every path: they are the first `''` route, which the router
 * loads to match any URL (the member overview's largest paint waited for them after the
 * startup calls, one more round trip).
 */
const FIRST_PAGE: Record<string, () => Promise<unknown>[]> = {
  '/': () => [import('./features/public/home')],
  '/login': () => [import('./features/public/login')],
  '/console/overview': () => [
    import('./core/shell/console-shell'),
    import('./features/overview/routes'),
    import('./features/overview/overview'),
  ],
};

/** Starts fetching the code of `path`'s page; returns how many chunks it asked for. */
export function prefetchFirstPage(path: string): number {
  const chunks = [import('./features/public/routes'), ...(FIRST_PAGE[path]?.() ?? [])];
  // A failed prefetch is retried by the router, which reports it properly.
  for (const chunk of chunks) chunk.catch(() => undefined);
  return chunks.length;
}

/**
 * The first page's own reads that can start before its code is in: on the member overview the
 * "recently added" rails, whose posters are its largest paint. Only with a session `/me`
 * accepted (a refused token must not fire more refused reads). Returns whether it started any.
 */
export function startFirstReads(
  path: string,
  session: Pick<SessionStore, 'me'>,
  media: Pick<MediaHomeApi, 'prefetchLatest'>,
): boolean {
  const me = session.me();
  if (path !== '/console/overview' || !me || me.mustChangePassword) return false;
  media.prefetchLatest();
  return true;
}

async function bootstrapState(): Promise<void> {
  inject(ThemeSwitch);
  const registry = inject(MatIconRegistry);
  const sanitizer = inject(DomSanitizer);
  const language = inject(LanguageSwitch);
  const site = inject(SiteStore);
  const session = inject(SessionStore);
  const media = inject(MediaHomeApi);
  const path = location.pathname;
  prefetchFirstPage(path);
  // Material Symbols as SVG, only those the app names (issue 14; 60-web.md §1). Their own
  // chunk, fetched alongside the calls below rather than parsed with the first bundle.
  const icons = import('./core/icons/icons')
    .then((m) => m.registerIcons(registry, sanitizer))
    .catch(() => undefined);
  // A language file that fails to load must not stop the app: it then shows keys, not nothing.
  const translated = language.init().catch(() => undefined);
  await Promise.all([
    translated,
    site.load(),
    session.bootstrap().then(() => startFirstReads(path, session, media)),
    icons,
  ]);
}

export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    provideHttpClient(
      withFetch(),
      // Order matters (60-web.md §1): token, then request id, then error mapping.
      withInterceptors([bearerTokenInterceptor, requestIdInterceptor, apiErrorInterceptor]),
    ),
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
