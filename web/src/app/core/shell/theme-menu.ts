import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { MatMenu, MatMenuItem } from '@angular/material/menu';
import { TranslocoDirective } from '@jsverse/transloco';
import { ThemeSwitch, type ThemeMode } from '../theme/theme';
import { DeferredMenuHost, MenuStandIn } from './deferred-menu';
import { DeferredMenuTrigger } from './deferred-menu-trigger';

const ICONS: Record<ThemeMode, string> = {
  system: 'brightness_auto',
  light: 'light_mode',
  dark: 'dark_mode',
};

/** System / Light / Dark (60-web.md §6.1). */
@Component({
  selector: 'app-theme-menu',
  imports: [MatIcon, MatMenu, MatMenuItem, TranslocoDirective, MenuStandIn, DeferredMenuTrigger],
  template: `
    <ng-container *transloco="let t">
      <!-- The menu's code loads when the pointer or focus comes to it or on a click; the host
           keeps a click across the swap (deferred-menu.ts). -->
      @let button = { label: t('shell.theme'), icon: icon(), testId: 'theme-menu' };
      @defer (on hover; on interaction) {
        <app-deferred-menu-trigger [button]="button" [menu]="menu" [(openOnLoad)]="openOnLoad" />
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
        <app-menu-stand-in [button]="button" [(openOnLoad)]="openOnLoad" />
      }
    </ng-container>
  `,
  hostDirectives: [DeferredMenuHost],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ThemeMenu {
  /** A click before the menu's code is in, or during the swap, opens it once loaded. */
  protected readonly openOnLoad = inject(DeferredMenuHost).openOnLoad;
  protected readonly theme = inject(ThemeSwitch);
  protected readonly icons = ICONS;
  protected readonly icon = computed(() => ICONS[this.theme.mode()]);
}
