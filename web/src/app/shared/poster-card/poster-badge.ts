import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import type { Tone } from '../status-chip';

/** The availability or status badge over a poster: always icon + text + tone (60-web.md §6.6). */
export interface PosterBadge {
  tone: Tone;
  icon: string;
  /** Already translated. */
  label: string;
}

/**
 * The one badge drawn over a poster's corner (issue 14): the poster card, the search results and
 * the request cards all use it, so availability looks the same everywhere. The parent gives the
 * poster `position: relative`; the badge never relies on colour alone (icon + text).
 */
@Component({
  selector: 'app-poster-badge',
  imports: [MatIcon],
  template: `<mat-icon aria-hidden="true" [svgIcon]="badge().icon" />{{ badge().label }}`,
  styles: `
    :host {
      position: absolute;
      z-index: 1;
      inset-block-start: 6px;
      inset-inline-start: 6px;
      display: inline-flex;
      align-items: center;
      gap: 4px;
      max-width: calc(100% - 12px);
      box-sizing: border-box;
      padding: 2px 8px 2px 4px;
      border-radius: 999px;
      font: var(--mat-sys-label-small);
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
      background: var(--badge-bg, var(--mat-sys-surface-container-highest));
      color: var(--badge-fg, var(--mat-sys-on-surface));
      box-shadow: var(--mat-sys-level1);
      pointer-events: none;
    }
    mat-icon {
      flex: none;
      width: 14px;
      height: 14px;
      font-size: 14px;
    }
    :host(.tone-success) {
      --badge-bg: var(--usher-success-container);
      --badge-fg: var(--usher-on-success-container);
    }
    :host(.tone-error) {
      --badge-bg: var(--mat-sys-error-container);
      --badge-fg: var(--mat-sys-on-error-container);
    }
    :host(.tone-warning) {
      --badge-bg: var(--usher-warning-container);
      --badge-fg: var(--usher-on-warning-container);
    }
    :host(.tone-info) {
      --badge-bg: var(--usher-info-container);
      --badge-fg: var(--usher-on-info-container);
    }
  `,
  host: { '[class]': "'tone-' + badge().tone", 'data-testid': 'poster-badge' },
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PosterBadgeView {
  readonly badge = input.required<PosterBadge>();
}
