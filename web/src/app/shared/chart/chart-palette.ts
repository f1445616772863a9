import { DOCUMENT } from '@angular/common';
import { DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import { ThemeSwitch } from '../../core/theme/theme';

/** The colours a chart is drawn with, resolved from the M3 tokens of the active scheme. */
export interface ChartColors {
  /** Series colours, in order (a donut's slices take them in turn). */
  readonly series: readonly string[];
  readonly text: string;
  readonly mutedText: string;
  readonly gridLine: string;
  readonly axisLine: string;
  readonly surface: string;
  /** The app's font (the body's, so Chinese falls back like the rest of the page). */
  readonly fontFamily: string;
  /** The M3 body-small size, in px: axis labels, legend and tooltip. */
  readonly fontSize: number;
}

/** Token → the light-scheme value used where the token cannot be resolved (jsdom, old engines). */
const SERIES_TOKENS: readonly [string, string][] = [
  ['--mat-sys-primary', '#005cbb'],
  ['--mat-sys-tertiary', '#8f4c00'],
  ['--mat-sys-secondary', '#565e71'],
  ['--mat-sys-primary-fixed-dim', '#abc7ff'],
  ['--mat-sys-tertiary-fixed-dim', '#ffb783'],
  ['--mat-sys-error', '#ba1a1a'],
  ['--mat-sys-outline', '#74777f'],
];

/**
 * Reads CSS custom properties as colours. The M3 tokens are `light-dark(…)` values, which a
 * custom property keeps unresolved, so each is applied to a probe's `color` and read back.
 */
export function resolveColors(document: Document): ChartColors {
  const probe = document.createElement('span');
  probe.style.display = 'none';
  document.body.appendChild(probe);
  const view = document.defaultView;
  const read = (token: string, fallback: string): string => {
    probe.style.color = '';
    probe.style.color = `var(${token}, ${fallback})`;
    const value = view?.getComputedStyle(probe).color ?? '';
    return /^(rgb|#|hsl|color|oklch)/i.test(value) ? value : fallback;
  };
  const readSize = (): number => {
    probe.style.fontSize = 'var(--mat-sys-body-small-size, 12px)';
    const size = parseFloat(view?.getComputedStyle(probe).fontSize ?? '');
    return size >= 10 && size <= 20 ? size : 12;
  };
  try {
    return {
      series: SERIES_TOKENS.map(([token, fallback]) => read(token, fallback)),
      text: read('--mat-sys-on-surface', '#1a1b20'),
      mutedText: read('--mat-sys-on-surface-variant', '#44474e'),
      gridLine: read('--mat-sys-outline-variant', '#c4c6d0'),
      axisLine: read('--mat-sys-outline', '#74777f'),
      surface: read('--mat-sys-surface-container-high', '#e9e7ef'),
      fontFamily: view?.getComputedStyle(document.body).fontFamily || 'Roboto, sans-serif',
      fontSize: readSize(),
    };
  } finally {
    probe.remove();
  }
}

/**
 * The chart colours of the active theme (60-web.md §6.5): recomputed when the theme menu or,
 * in System mode, the operating system's scheme changes, so charts redraw in the new colours.
 */
@Injectable({ providedIn: 'root' })
export class ChartPalette {
  private readonly document = inject(DOCUMENT);
  private readonly theme = inject(ThemeSwitch);
  private readonly systemDark = signal(false);
  readonly reducedMotion = signal(false);

  readonly colors = computed<ChartColors>(() => {
    // Both only trigger the recomputation; the DOM holds the resolved scheme.
    this.theme.mode();
    this.systemDark();
    return resolveColors(this.document);
  });

  constructor() {
    const view = this.document.defaultView;
    if (!view?.matchMedia) return;
    const dark = view.matchMedia('(prefers-color-scheme: dark)');
    const motion = view.matchMedia('(prefers-reduced-motion: reduce)');
    this.systemDark.set(dark.matches);
    this.reducedMotion.set(motion.matches);
    const onDark = (event: MediaQueryListEvent) => this.systemDark.set(event.matches);
    const onMotion = (event: MediaQueryListEvent) => this.reducedMotion.set(event.matches);
    dark.addEventListener?.('change', onDark);
    motion.addEventListener?.('change', onMotion);
    inject(DestroyRef).onDestroy(() => {
      dark.removeEventListener?.('change', onDark);
      motion.removeEventListener?.('change', onMotion);
    });
  }
}
