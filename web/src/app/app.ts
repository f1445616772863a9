import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { RouterOutlet } from '@angular/router';
import { SessionStore } from './core/session/session-store';
import { focusHeadingOnNavigation } from './core/shell/focus-on-navigation';
import { Unreachable } from './core/shell/unreachable';

/** Root: the routed page, or the full-page "can't reach Usher" state (60-web.md §2.1). */
@Component({
  selector: 'app-root',
  imports: [RouterOutlet, Unreachable],
  template: `
    @if (session.unreachable()) {
      <!-- Its own chunk: most visits never need it (issue 14, initial JavaScript). -->
      @defer (on immediate) {
        <app-unreachable />
      }
    } @else {
      <router-outlet />
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class App {
  protected readonly session = inject(SessionStore);

  constructor() {
    focusHeadingOnNavigation();
  }
}
