import { DOCUMENT } from '@angular/common';
import { Injectable, inject, signal } from '@angular/core';

export const THEME_KEY = 'usher.theme';
export const THEME_MODES = ['system', 'light', 'dark'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];

const isMode = (value: unknown): value is ThemeMode =>
  (THEME_MODES as readonly unknown[]).includes(value);

/**
 * System / Light / Dark (60-web.md §6.1). The M3 theme is built with `color-scheme`, so switching
 * only sets `color-scheme` on `<html>`; `public/boot.js` does the same before first paint.
 * Keep the two in step: same key, same attribute.
 */
@Injectable({ providedIn: 'root' })
export class ThemeSwitch {
  private readonly root = inject(DOCUMENT).documentElement;
  readonly modes = THEME_MODES;
  readonly mode = signal<ThemeMode>(this.readStored());

  constructor() {
    this.apply(this.mode());
  }

  use(mode: ThemeMode): void {
    localStorage.setItem(THEME_KEY, mode);
    this.mode.set(mode);
    this.apply(mode);
  }

  private readStored(): ThemeMode {
    const stored = localStorage.getItem(THEME_KEY);
    return isMode(stored) ? stored : 'system';
  }

  /**
   * Writes only what changed: at startup boot.js has already set both, and writing the
   * root's `color-scheme` again restyles the whole page during the first render (issue 14).
   */
  private apply(mode: ThemeMode): void {
    const scheme = mode === 'system' ? 'light dark' : mode;
    if (this.root.dataset['theme'] !== mode) this.root.dataset['theme'] = mode;
    if (this.root.style.colorScheme !== scheme) this.root.style.colorScheme = scheme;
  }
}
