import { ChangeDetectionStrategy, Component, input, model } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';

/** The top-bar button of a menu: the same in its stand-in and in the real trigger. */
export interface MenuButton {
  /** The accessible name (`aria-label`). */
  label: string;
  /** An SVG icon name (core/icons). */
  icon: string;
  /** The `data-testid` the e2e tests click. */
  testId: string;
}

/**
 * The top-bar menus (language, theme, user) render this stand-in until their code (Material
 * menu, CDK overlay) is in: it loads once the page is idle, not before the first render (issue
 * 14: the first page's bytes). Each call site writes
 *
 * ```html
 * @let button = { label: …, icon: …, testId: … };
 * @defer (on idle; on interaction) {
 *   <app-deferred-menu-trigger [button]="button" [menu]="menu" [(openOnLoad)]="openOnLoad" />
 *   <mat-menu #menu="matMenu">…</mat-menu>
 * } @placeholder {
 *   <app-menu-stand-in [button]="button" [(openOnLoad)]="openOnLoad" />
 * }
 * ```
 *
 * with `openOnLoad = signal(false)` in its class. A click on the stand-in loads the block at once
 * (`on interaction`) and sets `openOnLoad`; the real trigger (deferred-menu-trigger.ts) then
 * opens the menu as soon as it is rendered, so that click is not lost. This file imports no menu
 * code: it is part of the first page.
 */
@Component({
  selector: 'app-menu-stand-in',
  imports: [MatIconButton, MatIcon],
  // The button lays out as if it stood where this element is: no shift when the trigger replaces it.
  host: { style: 'display: contents' },
  template: `
    <button
      mat-icon-button
      type="button"
      (click)="openOnLoad.set(true)"
      [attr.aria-label]="button().label"
      [attr.data-testid]="button().testId"
    >
      <mat-icon aria-hidden="true" [svgIcon]="button().icon" />
    </button>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MenuStandIn {
  readonly button = input.required<MenuButton>();
  /** Set by a click: the menu opens once its code is in. */
  readonly openOnLoad = model(false);
}
