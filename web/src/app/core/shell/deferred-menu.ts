import {
  Injector,
  type Signal,
  type WritableSignal,
  afterNextRender,
  effect,
  inject,
  signal,
} from '@angular/core';
import type { MatMenuTrigger } from '@angular/material/menu';

/**
 * The top-bar menus (language, theme, user) render a stand-in button until their code (Material
 * menu, CDK overlay) is in: it loads once the page is idle, not before the first render (issue
 * 14: the first page's bytes). A click on the stand-in loads it at once and sets the returned
 * flag; the menu then opens as soon as its trigger exists, so that click is not lost.
 */
export function openOnLoad(trigger: Signal<MatMenuTrigger | undefined>): WritableSignal<boolean> {
  const pending = signal(false);
  const injector = inject(Injector);
  effect(() => {
    const ready = trigger();
    if (ready && pending()) {
      pending.set(false);
      // After the block's first render: its `matMenuTriggerFor` binding is set by then.
      afterNextRender(() => ready.openMenu(), { injector });
    }
  });
  return pending;
}
