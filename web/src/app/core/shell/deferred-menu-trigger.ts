import {
  ChangeDetectionStrategy,
  Component,
  afterRenderEffect,
  input,
  model,
  untracked,
  viewChild,
} from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { type MatMenu, MatMenuTrigger } from '@angular/material/menu';
import type { MenuButton } from './deferred-menu';

/**
 * The real trigger of a top-bar menu, the same button as its stand-in (`MenuStandIn`, see
 * deferred-menu.ts for the pattern). Use it only inside the `@defer` block: this file brings the
 * menu code along. When the stand-in was clicked it opens the menu on its first render, and so
 * later whenever a click it did not take itself sets `openOnLoad` (`DeferredMenuHost`).
 */
@Component({
  selector: 'app-deferred-menu-trigger',
  imports: [MatIconButton, MatIcon, MatMenuTrigger],
  host: { style: 'display: contents' },
  // Angular adds a loaded @defer block's elements at once but binds them on the next change
  // detection: until then this button would have no name. Hidden (layout kept) until bound, so
  // neither a screen reader nor axe meets an unnamed button (a CI run caught that window).
  template: `
    <button
      mat-icon-button
      type="button"
      style="visibility: hidden"
      [style.visibility]="'visible'"
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
  /** Set by a click this button did not take (the stand-in's, say); cleared once the menu opened. */
  readonly openOnLoad = model(false);
  private readonly trigger = viewChild.required(MatMenuTrigger);

  constructor() {
    // After a render: the `matMenuTriggerFor` binding is set by then.
    afterRenderEffect(() => {
      if (!this.openOnLoad()) return;
      untracked(() => {
        this.openOnLoad.set(false);
        this.trigger().openMenu();
      });
    });
  }
}
