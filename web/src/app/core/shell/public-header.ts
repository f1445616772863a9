import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatToolbar } from '@angular/material/toolbar';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { SiteStore } from '../site/site-store';
import { LanguageMenu } from './language-menu';
import { ThemeMenu } from './theme-menu';

/** Header of the public pages: brand, language, theme and (optionally) a sign-in link. */
@Component({
  selector: 'app-public-header',
  imports: [MatButton, MatToolbar, RouterLink, TranslocoDirective, LanguageMenu, ThemeMenu],
  template: `
    <mat-toolbar class="public-header" *transloco="let t">
      <a class="brand" routerLink="/">
        <img src="favicon.svg" alt="" width="28" height="28" />
        <span>{{ site.site().siteName }}</span>
      </a>
      <span class="spacer"></span>
      <app-language-menu />
      <app-theme-menu />
      @if (showSignIn()) {
        <a mat-button routerLink="/login">{{ t('public.signIn') }}</a>
      }
    </mat-toolbar>
  `,
  styles: `
    .public-header {
      gap: 4px;
      background: transparent;
    }
    .brand {
      display: inline-flex;
      align-items: center;
      gap: 8px;
      color: inherit;
      text-decoration: none;
      font: var(--mat-sys-title-large);
      min-width: 0;
    }
    .brand span {
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .spacer {
      flex: 1;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PublicHeader {
  protected readonly site = inject(SiteStore);
  /** Whether to offer "Sign in" (not on the sign-in page itself). */
  readonly showSignIn = input(true);
}
