import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';

/**
 * Which row of a table shows its detail (audit details, sharing evidence): one at a time, a
 * second click closes it. Bind `isOpen` to the data table's `[expanded]` and each row's
 * {@link ExpandToggle} to the same expansion.
 */
export class RowExpansion<T extends { readonly id: string }> {
  /** The id of the open row. */
  readonly open = signal<string | null>(null);
  readonly isOpen = (row: T) => this.open() === row.id;

  toggle(row: T): void {
    this.open.update((id) => (id === row.id ? null : row.id));
  }

  /** The open row among `rows`, if it is still listed. */
  openIn(rows: readonly T[] | null | undefined): T | undefined {
    return rows?.find((row) => row.id === this.open());
  }
}

/** The button of a row that opens and closes its detail (`aria-expanded`, a named action). */
@Component({
  selector: 'app-expand-toggle',
  imports: [MatIconButton, MatIcon],
  template: `
    <button
      mat-icon-button
      type="button"
      (click)="expansion().toggle(row())"
      [attr.aria-expanded]="expanded()"
      [attr.aria-label]="label()"
      [attr.data-testid]="testId()"
    >
      <mat-icon aria-hidden="true" [svgIcon]="expanded() ? 'expand_less' : 'expand_more'" />
    </button>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ExpandToggle<T extends { readonly id: string }> {
  readonly expansion = input.required<RowExpansion<T>>();
  readonly row = input.required<T>();
  /** What the button does, for screen readers ("Show details of user.update"). */
  readonly label = input.required<string>();
  readonly testId = input<string>();
  protected readonly expanded = computed(() => this.expansion().isOpen(this.row()));
}
