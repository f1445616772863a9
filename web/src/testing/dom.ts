import { MATERIAL_ANIMATIONS } from '@angular/material/core';
import type { ComponentFixture } from '@angular/core/testing';

/** Small DOM helpers for page specs: find by `data-testid`, type, click and settle. */
export function byTestId(root: ParentNode, id: string): HTMLElement | null {
  return root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
}

export function typeInto(root: ParentNode, id: string, value: string): void {
  const input = byTestId(root, id) as HTMLInputElement | null;
  if (!input) throw new Error(`no [data-testid="${id}"]`);
  input.value = value;
  input.dispatchEvent(new Event('input'));
}

export async function clickOn(
  fixture: ComponentFixture<unknown>,
  root: ParentNode,
  id: string,
): Promise<void> {
  const element = byTestId(root, id);
  if (!element) throw new Error(`no [data-testid="${id}"]`);
  element.click();
  await fixture.whenStable();
}

/** Lets promise chains run, then renders: a reply → its effect on the page. */
export async function flushAndRender(fixture: ComponentFixture<unknown>): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  await fixture.whenStable();
}

/**
 * Material without animations: jsdom fires no `transitionend`, so a tab switch or a dialog
 * would otherwise wait forever for its animation to finish.
 */
export const NO_MATERIAL_ANIMATIONS = {
  provide: MATERIAL_ANIMATIONS,
  useValue: { animationsDisabled: true },
};

/** jsdom has no `ResizeObserver`; the chart card observes its width with one. */
export function stubResizeObserver(): void {
  Object.defineProperty(window, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  });
}
