import { Injector, afterNextRender, inject } from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { NavigationEnd, Router } from '@angular/router';
import { filter } from 'rxjs';

/**
 * After each in-app navigation (not the first load), focus the page's `h1` so keyboard and
 * screen-reader users start at the new content (60-web.md §6.3). Call from an injection context.
 */
export function focusHeadingOnNavigation(): void {
  const injector = inject(Injector);
  let first = true;
  inject(Router)
    .events.pipe(
      filter((event) => event instanceof NavigationEnd),
      takeUntilDestroyed(),
    )
    .subscribe(() => {
      if (first) {
        first = false;
        return;
      }
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
