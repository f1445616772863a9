import { DOCUMENT } from '@angular/common';
import { DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import { ThemeSwitch } from '../../core/theme/theme';

/** The colours a chart is drawn with, resolved from the M3 tokens of the active scheme. */
export interface ChartColors {
  /** Series colours, in order (a donut's slices take them in turn). */
  readonly series: readonly string[];
  /** The colour of each semantic tone (an item's `tone` wins over its place in `series`). */
  readonly tones: Readonly<Record<ChartTone, string>>;
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

/**
 * The categorical palette (issue 36: in dark mode the M3 tokens gave primary and primary-fixed-dim
 * the same blue, so 4K and SD were one colour): seven hues, each scheme's set at least 20 ΔE
 * (CIE76) apart pairwise and 3:1 against the page surface (WCAG 1.4.11), checked in chart.spec.
 */
export const CATEGORICAL = {
  light: ['#1f66c2', '#c25400', '#00806a', '#8e44ad', '#b8327a', '#5f7a00', '#8a5a2b'],
  dark: ['#8ab4ff', '#ffa155', '#3fd0b0', '#d39bf0', '#ff7ab8', '#b8d25a', '#d9a873'],
} as const;

/** Semantic tones of an item (quality tiers): best to poor, and unknown. */
export const CHART_TONES = ['best', 'good', 'fair', 'poor', 'unknown'] as const;
export type ChartTone = (typeof CHART_TONES)[number];

/** Green, blue, amber, red and grey: the same meaning in both schemes. */
export const TONES: Record<'light' | 'dark', Record<ChartTone, string>> = {
  light: { best: '#1a7f37', good: '#1f66c2', fair: '#b26b00', poor: '#c0392b', unknown: '#74777f' },
  dark: { best: '#6fd08a', good: '#8ab4ff', fair: '#ffc247', poor: '#ff8a80', unknown: '#9a9da3' },
};

/** Relative luminance (WCAG) of a colour the browser wrote as `rgb(…)` or `#rrggbb`. */
export function luminanceOf(color: string): number | null {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  const parts = hex
    ? [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16))
    : (/^rgba?\(([^)]+)\)/i
        .exec(color)?.[1]
        ?.split(/[ ,/]+/)
        .slice(0, 3)
        .map(Number) ?? []);
  if (parts.length !== 3 || parts.some((n) => Number.isNaN(n))) return null;
  const [r, g, b] = parts.map((n) => {
    const c = n / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

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
    const surface = read('--mat-sys-surface-container-high', '#e9e7ef');
    const scheme = (luminanceOf(surface) ?? 1) < 0.4 ? 'dark' : 'light';
    return {
      series: CATEGORICAL[scheme],
      tones: TONES[scheme],
      text: read('--mat-sys-on-surface', '#1a1b20'),
      mutedText: read('--mat-sys-on-surface-variant', '#44474e'),
      gridLine: read('--mat-sys-outline-variant', '#c4c6d0'),
      axisLine: read('--mat-sys-outline', '#74777f'),
      surface,
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
