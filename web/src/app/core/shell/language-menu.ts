import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Language } from '../i18n/languages';
import { LanguageSwitch } from '../i18n/language';
import { SessionStore } from '../session/session-store';
import { DeferredMenuHost, MenuStandIn } from './deferred-menu';
import { DeferredMenuTrigger } from './deferred-menu-trigger';

/** "English / 简体中文" switch, on public pages and in the console top bar (60-web.md §6.4). */
@Component({
  selector: 'app-language-menu',
  imports: [MatIcon, MatMenu, MatMenuItem, TranslocoDirective, MenuStandIn, DeferredMenuTrigger],
  template: `
    <ng-container *transloco="let t">
      <!-- The menu's code (Material menu, CDK overlay) loads when the pointer or focus comes to
           it or on a click, not with the page (issues 14 and 36: a first visit to /login);
           until then the same button stands in, and the host keeps a click across the swap
           (deferred-menu.ts). -->
      @let button = { label: t('shell.language'), icon: 'translate', testId: 'language-menu' };
      @defer (on hover; on interaction) {
        <app-deferred-menu-trigger [button]="button" [menu]="menu" [(openOnLoad)]="openOnLoad" />
        <mat-menu #menu="matMenu">
          @for (lang of language.languages; track lang) {
            <button
              mat-menu-item
              type="button"
              role="menuitemradio"
              [attr.aria-checked]="language.active() === lang"
              [attr.lang]="lang"
              [attr.data-testid]="'language-' + lang"
              (click)="choose(lang)"
            >
              <mat-icon aria-hidden="true" [svgIcon]="language.active() === lang ? 'check' : ''" />
              <span>{{ t('languages.' + lang) }}</span>
            </button>
          }
        </mat-menu>
      } @placeholder {
        <app-menu-stand-in [button]="button" [(openOnLoad)]="openOnLoad" />
      }
    </ng-container>
  `,
  hostDirectives: [DeferredMenuHost],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class LanguageMenu {
  /** A click before the menu's code is in, or during the swap, opens it once loaded. */
  protected readonly openOnLoad = inject(DeferredMenuHost).openOnLoad;
  protected readonly language = inject(LanguageSwitch);
  private readonly session = inject(SessionStore);

  /** Switches now; signed in, the account's locale follows (bot messages, mails). */
  protected async choose(lang: Language): Promise<void> {
    await this.language.use(lang);
    await this.session.saveLocale(lang);
  }
}
