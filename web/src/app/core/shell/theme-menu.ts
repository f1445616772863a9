import { ChangeDetectionStrategy, Component, computed, inject, viewChild } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem, MatMenuTrigger } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';
import { ThemeSwitch, type ThemeMode } from '../theme/theme';
import { openOnLoad } from './deferred-menu';

const ICONS: Record<ThemeMode, string> = {
  system: 'brightness_auto',
  light: 'light_mode',
  dark: 'dark_mode',
};

/** System / Light / Dark (60-web.md §6.1). */
@Component({
  selector: 'app-theme-menu',
  imports: [MatIconButton, MatIcon, MatMenu, MatMenuItem, MatMenuTrigger, TranslocoDirective],
  template: `
    <ng-container *transloco="let t">
      <!-- The menu's code loads once the first page is up (see LanguageMenu). -->
      @defer (on idle; on interaction) {
        <button
          mat-icon-button
          type="button"
          [matMenuTriggerFor]="menu"
          #trigger="matMenuTrigger"
          [attr.aria-label]="t('shell.theme')"
          data-testid="theme-menu"
        >
          <mat-icon aria-hidden="true" [svgIcon]="icon()" />
        </button>
        <mat-menu #menu="matMenu">
          @for (mode of theme.modes; track mode) {
            <button
              mat-menu-item
              type="button"
              role="menuitemradio"
              [attr.aria-checked]="theme.mode() === mode"
              [attr.data-testid]="'theme-' + mode"
              (click)="theme.use(mode)"
            >
              <mat-icon aria-hidden="true" [svgIcon]="icons[mode]" />
              <span>{{ t('theme.' + mode) }}</span>
            </button>
          }
        </mat-menu>
      } @placeholder {
        <button
          mat-icon-button
          type="button"
          (click)="openOnLoad.set(true)"
          [attr.aria-label]="t('shell.theme')"
          data-testid="theme-menu"
        >
          <mat-icon aria-hidden="true" [svgIcon]="icon()" />
        </button>
      }
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ThemeMenu {
  /** A click on the stand-in before the menu's code is in opens it once loaded. */
  private readonly trigger = viewChild<MatMenuTrigger>('trigger');
  protected readonly openOnLoad = openOnLoad(this.trigger);
  protected readonly theme = inject(ThemeSwitch);
  protected readonly icons = ICONS;
  protected readonly icon = computed(() => ICONS[this.theme.mode()]);
}
