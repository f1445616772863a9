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
    :host(.tone-success) {
      --chip-bg: var(--usher-success-container);
      --chip-fg: var(--usher-on-success-container);
    }
    :host(.tone-error) {
      --chip-bg: var(--mat-sys-error-container);
      --chip-fg: var(--mat-sys-on-error-container);
    }
    :host(.tone-warning) {
      --chip-bg: var(--usher-warning-container);
      --chip-fg: var(--usher-on-warning-container);
    }
    :host(.tone-info) {
      --chip-bg: var(--usher-info-container);
      --chip-fg: var(--usher-on-info-container);
    }
    :host(.tone-neutral) {
      --chip-bg: var(--mat-sys-surface-container-highest);
      --chip-fg: var(--mat-sys-on-surface);
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
