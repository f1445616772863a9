import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Language } from '../i18n/languages';
import { LanguageSwitch } from '../i18n/language';
import { SessionStore } from '../session/session-store';
import { MenuStandIn } from './deferred-menu';
import { DeferredMenuTrigger } from './deferred-menu-trigger';

/** "English / 简体中文" switch, on public pages and in the console top bar (60-web.md §6.4). */
@Component({
  selector: 'app-language-menu',
  imports: [MatIcon, MatMenu, MatMenuItem, TranslocoDirective, MenuStandIn, DeferredMenuTrigger],
  template: `
    <ng-container *transloco="let t">
      <!-- The menu's code (Material menu, CDK overlay) loads once the first page is up, not
           before it (issue 14: Lighthouse); until then the same button stands in
           (deferred-menu.ts). -->
      @let button = { label: t('shell.language'), icon: 'translate', testId: 'language-menu' };
      @defer (on idle; on interaction) {
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
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class LanguageMenu {
  /** A click on the stand-in before the menu's code is in opens it once loaded. */
  protected readonly openOnLoad = signal(false);
  protected readonly language = inject(LanguageSwitch);
  private readonly session = inject(SessionStore);

  /** Switches now; signed in, the account's locale follows (bot messages, mails). */
  protected async choose(lang: Language): Promise<void> {
    await this.language.use(lang);
    await this.session.saveLocale(lang);
  }
}
