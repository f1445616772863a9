import { Injector, afterNextRender, inject } from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { NavigationEnd, Router } from '@angular/router';
import { filter } from 'rxjs';

/** The path of a router URL, without its query string or fragment. */
export function pathOf(url: string): string {
  return url.split(/[?#]/, 1)[0]!;
}

/**
 * After each in-app navigation to another page (not the first load), focus the page's `h1` so
 * keyboard and screen-reader users start at the new content (60-web.md §6.3). A navigation that
 * only changes the query string or fragment (a search box or filter writing the URL as the user
 * types) stays on the same page and must not take the focus: it would swallow the keystrokes
 * typed after a pause (issue 14). Call from an injection context.
 */
export function focusHeadingOnNavigation(): void {
  const injector = inject(Injector);
  let previous: string | null = null;
  inject(Router)
    .events.pipe(
      filter((event) => event instanceof NavigationEnd),
      takeUntilDestroyed(),
    )
    .subscribe((event) => {
      const path = pathOf(event.urlAfterRedirects);
      const samePage = previous === null || previous === path;
      previous = path;
      if (samePage) return;
      afterNextRender(
        () => {
          const heading = document.querySelector<HTMLElement>('main h1');
          if (!heading) return;
          heading.tabIndex = -1;
          heading.focus({ preventScroll: true });
        },
        { injector },
      );
    });
}
