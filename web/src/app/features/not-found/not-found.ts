import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { SessionStore } from '../../core/session/session-store';
import { PublicHeader } from '../../core/shell/public-header';

/** Any unknown path: links back to Home, or to the overview when signed in (60-web.md §3). */
@Component({
  selector: 'app-not-found',
  imports: [MatButton, MatIcon, RouterLink, TranslocoDirective, PublicHeader],
  template: `
    <app-public-header [showSignIn]="!signedIn()" />
    <main id="main" class="not-found" *transloco="let t">
      <mat-icon aria-hidden="true" svgIcon="explore_off" />
      <h1>{{ t('notFound.heading') }}</h1>
      <p>{{ t('notFound.body') }}</p>
      <div class="links">
        @if (signedIn()) {
          <a mat-flat-button routerLink="/console/overview">{{ t('notFound.toOverview') }}</a>
        }
        <a mat-stroked-button routerLink="/">{{ t('notFound.toHome') }}</a>
      </div>
    </main>
  `,
  styles: `
    .not-found {
      display: grid;
      justify-items: center;
      gap: 8px;
      padding: 48px 24px;
      text-align: center;
    }
    mat-icon {
      font-size: 56px;
      width: 56px;
      height: 56px;
      color: var(--mat-sys-primary);
    }
    h1 {
      margin: 8px 0 0;
      font: var(--mat-sys-headline-medium);
    }
    p {
      margin: 0 0 16px;
      color: var(--mat-sys-on-surface-variant);
    }
    .links {
      display: flex;
      flex-wrap: wrap;
      gap: 12px;
      justify-content: center;
    }
    .links a {
      min-height: 48px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class NotFound {
  protected readonly signedIn = inject(SessionStore).signedIn;
}
