import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ElementRef,
  afterNextRender,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { MatIcon } from '@angular/material/icon';

/**
 * The widths (px) the API's poster proxy is asked for when the displayed size is known (issue 36):
 * the browser picks from them by `sizes` and the screen's density. Up to 320: a 140–160 px card
 * at 2x; denser phones get 320 too (a 400 px poster at quality 90 was ~28 KB, 320 is ~18 KB).
 * Keep in step with public/boot.js (its preload must name the same candidates).
 */
export const POSTER_WIDTHS = [160, 240, 320] as const;
const PROXY = /^\/api\/v1\/media\/posters\/[^?]+\?(?![^#]*\bwidth=)/;

/** `srcset` for one of the API's signed poster URLs; null for any other URL (TMDB, …). */
export function posterSrcset(src: string): string | null {
  if (!PROXY.test(src)) return null;
  return POSTER_WIDTHS.map((w) => `${src}&width=${w} ${w}w`).join(', ');
}

/**
 * Native `loading="lazy"` counts a horizontal rail's hidden posters as near (Chromium's margin is
 * 1 250 px or more, in every direction): a phone showing two posters fetched all 26 of the
 * overview. `deferUntilNear` posters are only put in the page once they are within this of the
 * screen vertically and, with `scrollMargin` where supported, a card or two of their rail's
 * visible part.
 */
const NEAR = { rootMargin: '400px 0px', scrollMargin: '0px 200px', threshold: 0 };

/**
 * A poster in a fixed 2:3 box (60-web.md §1 `PosterImage`): lazy, and a neutral placeholder when
 * there is no poster or it fails to load, so a card never collapses or shows a broken image.
 * `priority` is for the page's largest paint: fetched at once and ahead of the rest instead of
 * after layout (Lighthouse's "lcp-lazy-loaded"). `sizes` (the displayed width, as the attribute)
 * lets the browser ask the API's poster proxy for the width it shows (`srcset`).
 */
@Component({
  selector: 'app-poster-image',
  imports: [MatIcon],
  template: `
    @if (src() && !failed()) {
      @if (priority()) {
        <img
          [src]="shownSrc()"
          [attr.srcset]="srcset()"
          [attr.sizes]="srcset() ? sizes() : null"
          [alt]="alt()"
          width="160"
          height="240"
          fetchpriority="high"
          (error)="failed.set(true)"
        />
      } @else if (near()) {
        <img
          [src]="shownSrc()"
          [attr.srcset]="srcset()"
          [attr.sizes]="srcset() ? sizes() : null"
          [alt]="alt()"
          width="160"
          height="240"
          loading="lazy"
          decoding="async"
          (error)="failed.set(true)"
        />
      }
    } @else {
      <mat-icon aria-hidden="true" [svgIcon]="fallbackIcon()" />
    }
  `,
  styles: `
    :host {
      display: flex;
      align-items: center;
      justify-content: center;
      aspect-ratio: 2 / 3;
      width: 100%;
      overflow: hidden;
      border-radius: 8px;
      background: var(--mat-sys-surface-container-highest);
      color: var(--mat-sys-on-surface-variant);
    }
    img {
      width: 100%;
      height: 100%;
      object-fit: cover;
    }
    mat-icon {
      font-size: 40px;
      width: 40px;
      height: 40px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PosterImage {
  readonly src = input<string | null>(null);
  /** Already translated; empty when the title is printed next to the poster anyway. */
  readonly alt = input('');
  readonly fallbackIcon = input('movie');
  /** Eager, high fetch priority: for the page's largest paint (one poster, not a screenful). */
  readonly priority = input(false);
  /** The displayed width, as `<img sizes>` (e.g. `(min-width: 600px) 160px, 140px`). */
  readonly sizes = input<string | null>(null);
  /** Put the image in the page only once it is near the screen (for posters in rails). */
  readonly deferUntilNear = input(false);
  protected readonly failed = signal(false);
  private readonly seen = signal(false);
  protected readonly near = computed(() => !this.deferUntilNear() || this.seen());
  protected readonly srcset = computed(() => {
    const src = this.src();
    return src && this.sizes() ? posterSrcset(src) : null;
  });
  /** With a `srcset`, `src` is the largest candidate (what a browser without `sizes` shows). */
  protected readonly shownSrc = computed(() =>
    this.srcset() ? `${this.src()}&width=${POSTER_WIDTHS.at(-1)}` : this.src(),
  );

  constructor() {
    const host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    const destroyRef = inject(DestroyRef);
    afterNextRender(() => {
      if (!this.deferUntilNear() || this.seen()) return;
      if (typeof IntersectionObserver !== 'function') {
        this.seen.set(true);
        return;
      }
      const observer = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        this.seen.set(true);
      }, NEAR as IntersectionObserverInit);
      observer.observe(host);
      destroyRef.onDestroy(() => observer.disconnect());
    });
  }
}
