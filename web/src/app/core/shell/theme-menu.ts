import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem, MatMenuTrigger } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';
import { ThemeSwitch, type ThemeMode } from '../theme/theme';

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
      <button
        mat-icon-button
        type="button"
        [matMenuTriggerFor]="menu"
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
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ThemeMenu {
  protected readonly theme = inject(ThemeSwitch);
  protected readonly icons = ICONS;
  protected readonly icon = computed(() => ICONS[this.theme.mode()]);
}
