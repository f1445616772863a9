import {
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  afterRenderEffect,
  input,
  signal,
  viewChild,
} from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { PosterCard } from './poster-card';

/**
 * A rail card's displayed width as `<img sizes>`, for `PosterCard`'s `sizes`: keep in step with
 * poster-rail.scss (`--poster-rail-card`) and public/boot.js (the overview's first poster).
 */
export const RAIL_POSTER_SIZES = '(min-width: 600px) 160px, 140px';

/**
 * A horizontal, scrollable row of poster cards (60-web.md §4.2 "Recent additions"): the cards are
 * projected; `loading` shows skeleton cards of the same size instead. The track is a labelled,
 * focusable region, so the keyboard scrolls it (arrows natively, Home/End here), and the arrow
 * buttons page it by most of its width; each is disabled at its end.
 */
@Component({
  selector: 'app-poster-rail',
  imports: [MatIconButton, MatIcon, TranslocoDirective, PosterCard],
  template: `
    <ng-container *transloco="let t">
      <div
        #track
        class="track"
        role="region"
        tabindex="0"
        [attr.aria-label]="label()"
        [attr.aria-busy]="loading() || null"
        (scroll)="measure()"
        (keydown)="onKey($event)"
      >
        @if (loading()) {
          @for (i of skeletons(); track i) {
            <app-poster-card [loading]="true" />
          }
        } @else {
          <ng-content />
        }
      </div>
      @if (!loading()) {
        <button
          mat-icon-button
          class="arrow start"
          type="button"
          data-testid="rail-back"
          [attr.aria-label]="t('posterRail.back')"
          [disabled]="atStart()"
          (click)="page(-1)"
        >
          <mat-icon svgIcon="chevron_left" />
        </button>
        <button
          mat-icon-button
          class="arrow end"
          type="button"
          data-testid="rail-forward"
          [attr.aria-label]="t('posterRail.forward')"
          [disabled]="atEnd()"
          (click)="page(1)"
        >
          <mat-icon svgIcon="chevron_right" />
        </button>
      }
    </ng-container>
  `,
  styleUrl: './poster-rail.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PosterRail {
  /** The region's accessible name (already translated), e.g. "Recently added movies". */
  readonly label = input.required<string>();
  readonly loading = input(false);
  /** How many skeleton cards to draw while loading. */
  readonly skeletonCount = input(8);

  protected readonly atStart = signal(true);
  protected readonly atEnd = signal(true);
  private readonly track = viewChild.required<ElementRef<HTMLElement>>('track');

  constructor() {
    // Re-measure whenever the content may have changed size (new items, a resize re-render).
    afterRenderEffect(() => {
      this.loading();
      this.measure();
    });
  }

  protected skeletons(): number[] {
    return Array.from({ length: this.skeletonCount() }, (_, i) => i);
  }

  protected measure(): void {
    const el = this.track().nativeElement;
    // Logical start/end: in a right-to-left page scrollLeft runs negative.
    const position = Math.abs(el.scrollLeft);
    this.atStart.set(position <= 1);
    this.atEnd.set(position + el.clientWidth >= el.scrollWidth - 1);
  }

  /** Scrolls one "page" (most of the visible width) back or forward. */
  page(direction: -1 | 1): void {
    const el = this.track().nativeElement;
    const rtl = getComputedStyle(el).direction === 'rtl';
    el.scrollBy({ left: direction * (rtl ? -1 : 1) * el.clientWidth * 0.85, behavior: 'smooth' });
  }

  protected onKey(event: KeyboardEvent): void {
    if (event.target !== event.currentTarget) return;
    const el = this.track().nativeElement;
    if (event.key === 'Home') el.scrollTo({ left: 0 });
    else if (event.key === 'End') el.scrollTo({ left: el.scrollWidth });
    else return;
    event.preventDefault();
  }
}
