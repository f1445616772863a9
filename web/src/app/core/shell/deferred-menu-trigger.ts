import {
  ChangeDetectionStrategy,
  Component,
  afterNextRender,
  input,
  model,
  viewChild,
} from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { type MatMenu, MatMenuTrigger } from '@angular/material/menu';
import type { MenuButton } from './deferred-menu';

/**
 * The real trigger of a top-bar menu, the same button as its stand-in (`MenuStandIn`, see
 * deferred-menu.ts for the pattern). Use it only inside the `@defer` block: this file brings the
 * menu code along. When the stand-in was clicked it opens the menu on its first render.
 */
@Component({
  selector: 'app-deferred-menu-trigger',
  imports: [MatIconButton, MatIcon, MatMenuTrigger],
  host: { style: 'display: contents' },
  template: `
    <button
      mat-icon-button
      type="button"
      [matMenuTriggerFor]="menu()"
      [attr.aria-label]="button().label"
      [attr.data-testid]="button().testId"
    >
      <mat-icon aria-hidden="true" [svgIcon]="button().icon" />
    </button>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DeferredMenuTrigger {
  readonly button = input.required<MenuButton>();
  readonly menu = input.required<MatMenu>();
  /** Set when the stand-in was clicked before this loaded; cleared once the menu opened. */
  readonly openOnLoad = model(false);
  private readonly trigger = viewChild.required(MatMenuTrigger);

  constructor() {
    // After the first render: the `matMenuTriggerFor` binding is set by then.
    afterNextRender(() => {
      if (!this.openOnLoad()) return;
      this.openOnLoad.set(false);
      this.trigger().openMenu();
    });
  }
}
