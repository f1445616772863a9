import { ChangeDetectionStrategy, Component, booleanAttribute, input } from '@angular/core';
import { MatCard, MatCardContent } from '@angular/material/card';
import { PublicHeader } from '../../core/shell/public-header';
import { PosterWall } from './poster-wall';

/**
 * The frame of the public account pages (60-web.md §4.1: sign in, register, forgot and reset
 * password): the public header, then one centred card with the page's `h1` and its content.
 * Links under the form go in `[links]`; `wall` puts the library's dimmed posters behind it.
 */
@Component({
  selector: 'app-auth-page',
  imports: [MatCard, MatCardContent, PosterWall, PublicHeader],
  template: `
    @if (wall()) {
      <app-poster-wall />
    }
    <app-public-header [showSignIn]="showSignIn()" />
    <main id="main">
      <mat-card appearance="outlined" class="card" [class.narrow]="narrow()">
        <mat-card-content>
          @if (heading(); as heading) {
            <h1 class="title">{{ heading }}</h1>
          }
          <ng-content />
          <p class="links"><ng-content select="[links]" /></p>
        </mat-card-content>
      </mat-card>
    </main>
  `,
  styles: `
    :host {
      display: block;
    }
    app-public-header,
    main {
      position: relative;
      z-index: 1;
    }
    main {
      display: flex;
      justify-content: center;
      padding: 24px 16px 48px;
    }
    .card {
      width: 100%;
      max-width: 480px;
      padding: 8px;
      &.narrow {
        max-width: 420px;
      }
    }
    .title {
      margin: 0 0 8px;
      font: var(--mat-sys-headline-small);
    }
    .links {
      margin: 16px 0 0;
      &:empty {
        display: none;
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AuthPage {
  /** Already translated; none when the content brings its own (the sign-in form). */
  readonly heading = input<string>();
  readonly showSignIn = input(true);
  /** The narrower card of the sign-in page. */
  readonly narrow = input(false, { transform: booleanAttribute });
  /** The library's dimmed poster wall behind the page (sign-in and sign-up). */
  readonly wall = input(false, { transform: booleanAttribute });
}
