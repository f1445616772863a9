import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { MatIcon } from '@angular/material/icon';

/**
 * A poster in a fixed 2:3 box (60-web.md §1 `PosterImage`): lazy, and a neutral placeholder when
 * there is no poster or it fails to load, so a card never collapses or shows a broken image.
 * `priority` is for the few posters in the first screenful, the page's largest paint: fetched at
 * once and ahead of the rest instead of after layout (Lighthouse's "lcp-lazy-loaded").
 */
@Component({
  selector: 'app-poster-image',
  imports: [MatIcon],
  template: `
    @if (src() && !failed()) {
      @if (priority()) {
        <img [src]="src()" [alt]="alt()" fetchpriority="high" (error)="failed.set(true)" />
      } @else {
        <img
          [src]="src()"
          [alt]="alt()"
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
  /** Eager, high fetch priority: for the posters the first screen shows. */
  readonly priority = input(false);
  protected readonly failed = signal(false);
}
