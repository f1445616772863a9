import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem, MatMenuTrigger } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Language } from '../i18n/languages';
import { LanguageSwitch } from '../i18n/language';
import { SessionStore } from '../session/session-store';

/** "English / 简体中文" switch, on public pages and in the console top bar (60-web.md §6.4). */
@Component({
  selector: 'app-language-menu',
  imports: [MatIconButton, MatIcon, MatMenu, MatMenuItem, MatMenuTrigger, TranslocoDirective],
  template: `
    <ng-container *transloco="let t">
      <button
        mat-icon-button
        type="button"
        [matMenuTriggerFor]="menu"
        [attr.aria-label]="t('shell.language')"
        data-testid="language-menu"
      >
        <mat-icon aria-hidden="true" svgIcon="translate" />
      </button>
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
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class LanguageMenu {
  protected readonly language = inject(LanguageSwitch);
  private readonly session = inject(SessionStore);

  /** Switches now; signed in, the account's locale follows (bot messages, mails). */
  protected async choose(lang: Language): Promise<void> {
    await this.language.use(lang);
    await this.session.saveLocale(lang);
  }
}
