import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { MatIcon } from '@angular/material/icon';

export type Tone = 'success' | 'error' | 'warning' | 'info' | 'neutral';

/**
 * A status as icon + text + tone (60-web.md §6.6): never colour alone. `label` is already
 * translated by the caller, which owns the domain's wording.
 */
@Component({
  selector: 'app-status-chip',
  imports: [MatIcon],
  template: `
    <mat-icon aria-hidden="true" [svgIcon]="icon()" />
    <span>{{ label() }}</span>
  `,
  styles: `
    :host {
      display: inline-flex;
      align-items: center;
      gap: 6px;
      padding: 4px 12px 4px 8px;
      border-radius: 8px;
      font: var(--mat-sys-label-large);
      // One line always: Chinese may break between any two characters, which split a
      // two-character status over two lines in narrow table cells (issue 14).
      white-space: nowrap;
      background: var(--chip-bg);
      color: var(--chip-fg);
    }
    mat-icon {
      font-size: 18px;
      width: 18px;
      height: 18px;
    }
    // In a list's table a status is a dot and a word (issue 36, "calm tables"): no filled
    // chip to overprint the next column, the word cut with an ellipsis when the cell is narrow.
    :host-context(table.list) {
      gap: 8px;
      max-width: 100%;
      padding: 0;
      background: none;
      color: inherit;
      font: inherit;
    }
    :host-context(table.list)::before {
      content: '';
      flex-shrink: 0;
      width: 8px;
      height: 8px;
      border-radius: 50%;
      background: var(--chip-dot);
    }
    :host-context(table.list) mat-icon {
      display: none;
    }
    :host-context(table.list) span {
      overflow: hidden;
      text-overflow: ellipsis;
    }
    :host(.tone-success) {
      --chip-bg: var(--usher-success-container);
      --chip-fg: var(--usher-on-success-container);
      --chip-dot: light-dark(#1e7b34, #6fd08a);
    }
    :host(.tone-error) {
      --chip-bg: var(--mat-sys-error-container);
      --chip-fg: var(--mat-sys-on-error-container);
      --chip-dot: var(--mat-sys-error);
    }
    :host(.tone-warning) {
      --chip-bg: var(--usher-warning-container);
      --chip-fg: var(--usher-on-warning-container);
      --chip-dot: light-dark(#b26b00, #ffc247);
    }
    :host(.tone-info) {
      --chip-bg: var(--usher-info-container);
      --chip-fg: var(--usher-on-info-container);
      --chip-dot: light-dark(#1f63a8, #8cc1ff);
    }
    :host(.tone-neutral) {
      --chip-bg: var(--mat-sys-surface-container-highest);
      --chip-fg: var(--mat-sys-on-surface);
      --chip-dot: var(--mat-sys-outline);
    }
  `,
  host: { '[class]': '"tone-" + tone()' },
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class StatusChip {
  readonly tone = input.required<Tone>();
  readonly icon = input.required<string>();
  readonly label = input.required<string>();
}
