import { ChangeDetectionStrategy, Component, Directive, input, model, signal } from '@angular/core';
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
 * menu, CDK overlay) is in, not before the first render (issue 14: the first page's bytes). The
 * user menu's loads once the console is idle; the language and theme menus', which the
 * signed-out pages show too, only when the pointer or focus comes to them or on a click (issue
 * 36: ~31 KB a first visit to /login no longer downloads). Each call site writes
 *
 * ```html
 * @let button = { label: …, icon: …, testId: … };
 * @defer (on hover; on interaction) {
 *   <app-deferred-menu-trigger [button]="button" [menu]="menu" [(openOnLoad)]="openOnLoad" />
 *   <mat-menu #menu="matMenu">…</mat-menu>
 * } @placeholder {
 *   <app-menu-stand-in [button]="button" [(openOnLoad)]="openOnLoad" />
 * }
 * ```
 *
 * with `openOnLoad = signal(false)` in its class (or `DeferredMenuHost`'s, below). A click on the
 * stand-in loads the block at once (`on interaction`) and sets `openOnLoad`; the real trigger
 * (deferred-menu-trigger.ts) opens the menu whenever `openOnLoad` is set while it is there, so
 * that click is not lost. This file imports no menu code: it is part of the first page.
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

/**
 * The host of a menu that loads on hover (language, theme): keeps a click across the swap of the
 * stand-in for the real trigger (issue 36). Hover starts the load, so a click can land while
 * Angular replaces the one button with the other: pressed on the stand-in and released on the
 * trigger (the browser then clicks their common ancestor, this host, or nothing at all once the
 * pressed button is gone), or on the trigger while it is still hidden, unbound (the click goes to
 * what is behind it, this host). So a press that began on the stand-in opens the menu when it is
 * released anywhere in the host, and any click in the host that the bound trigger
 * (`aria-haspopup`) did not take itself does too: both set `openOnLoad`, a pending open the
 * trigger honours as soon as it is there. The host is a box of the button's size (`inline-flex`),
 * so such a release or click lands in it.
 */
@Directive({
  host: {
    style: 'display: inline-flex',
    '(pointerdown)': 'onPress($event)',
    '(pointerup)': 'onRelease()',
    '(click)': 'onClick($event)',
  },
})
export class DeferredMenuHost {
  /** Bind to the stand-in's and the trigger's `openOnLoad`. */
  readonly openOnLoad = signal(false);
  private pressedStandIn = false;

  onPress(event: Event): void {
    this.pressedStandIn = !DeferredMenuHost.onTrigger(event);
  }

  onRelease(): void {
    if (this.pressedStandIn) this.openOnLoad.set(true);
    this.pressedStandIn = false;
  }

  onClick(event: Event): void {
    // The bound trigger opens and closes its menu itself: a second open would undo a close.
    if (DeferredMenuHost.onTrigger(event)) return;
    this.openOnLoad.set(true);
  }

  /** Whether the event's target is the bound trigger (or inside it). */
  private static onTrigger(event: Event): boolean {
    const target = event.target instanceof Element ? event.target : null;
    return target?.closest('[aria-haspopup]') != null;
  }
}
