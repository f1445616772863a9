import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatOption, MatSelect } from '@angular/material/select';
import { TranslocoDirective } from '@jsverse/transloco';

/** One choice of a select filter: its query-param value and the translation key of its label. */
export interface FilterOption {
  value: string;
  key: string;
  /** A label that is data, not a phrase (a plan's name): shown as is instead of `key`. */
  label?: string;
}

/** Options whose labels are `prefix + value` (`roles.` + `admin`). */
export function optionsOf(values: readonly string[], prefix: string): FilterOption[] {
  return values.map((value) => ({ value, key: prefix + value }));
}

// A filter lays out in its parent's filter row, taking a share of the width (60-web.md §6.2).
const FILTER_STYLES = `
  :host {
    display: contents;
  }
  mat-form-field {
    flex: 1 1 180px;
    max-width: 280px;
  }
  @media (max-width: 599.98px) {
    mat-form-field {
      max-width: none;
    }
  }
`;

/**
 * A text, search or date filter of a list page. It commits on `change` (Enter, or leaving the
 * field), not on every key, and says `null` for an emptied field so the param leaves the URL.
 */
@Component({
  selector: 'app-text-filter',
  imports: [MatFormField, MatLabel, MatInput],
  template: `
    <mat-form-field appearance="outline">
      <mat-label>{{ label() }}</mat-label>
      <input
        matInput
        [type]="type()"
        [value]="value()"
        (change)="changed.emit($any($event.target).value || null)"
        [attr.data-testid]="testId() ?? null"
      />
    </mat-form-field>
  `,
  styles: FILTER_STYLES,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TextFilter {
  /** Already translated. */
  readonly label = input.required<string>();
  readonly value = input('');
  readonly type = input<'search' | 'date'>('search');
  readonly testId = input<string>();
  readonly changed = output<string | null>();
}

/** A select filter of a list page; `anyLabel` adds the "no filter" choice, which says `null`. */
@Component({
  selector: 'app-select-filter',
  imports: [MatFormField, MatLabel, MatOption, MatSelect, TranslocoDirective],
  template: `
    <mat-form-field appearance="outline" *transloco="let t">
      <mat-label>{{ label() }}</mat-label>
      <mat-select
        [value]="value()"
        (selectionChange)="changed.emit($event.value || null)"
        [attr.data-testid]="testId() ?? null"
      >
        @if (anyLabel(); as anyLabel) {
          <mat-option value="">{{ anyLabel }}</mat-option>
        }
        @for (option of options(); track option.value) {
          <mat-option [value]="option.value">{{ option.label ?? t(option.key) }}</mat-option>
        }
      </mat-select>
    </mat-form-field>
  `,
  styles: FILTER_STYLES,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SelectFilter {
  /** Already translated. */
  readonly label = input.required<string>();
  readonly value = input('');
  readonly options = input.required<readonly FilterOption[]>();
  /** Already translated; without it every choice filters. */
  readonly anyLabel = input<string>();
  readonly testId = input<string>();
  readonly changed = output<string | null>();
}

/** One filter of a filter bar: the query param it sets and how it is asked for. */
export interface FilterSpec {
  param: string;
  /** Translation key of the label. */
  label: string;
  /** A text box (the default) or a date; a select when it has `options`. */
  type?: 'search' | 'date';
  options?: readonly FilterOption[];
  /** Translation key of a select's "no filter" choice. */
  any?: string;
  testId?: string;
}

/**
 * The filter row of a list page (60-web.md §4.3): one field per spec, valued from the parsed
 * query, each change said as `{param: value}` for the URL. Projected content (a sort-order
 * button) ends the row.
 */
@Component({
  selector: 'app-filter-bar',
  imports: [SelectFilter, TextFilter, TranslocoDirective],
  template: `
    <div class="filters" *transloco="let t">
      @for (filter of filters(); track filter.param) {
        @if (filter.options) {
          <app-select-filter
            [label]="t(filter.label)"
            [value]="valueOf(filter)"
            [options]="filter.options"
            [anyLabel]="filter.any ? t(filter.any) : undefined"
            [testId]="filter.testId"
            (changed)="change(filter, $event)"
          />
        } @else {
          <app-text-filter
            [type]="filter.type ?? 'search'"
            [label]="t(filter.label)"
            [value]="valueOf(filter)"
            [testId]="filter.testId"
            (changed)="change(filter, $event)"
          />
        }
      }
      <ng-content />
    </div>
  `,
  styles: `
    .filters {
      display: flex;
      flex-wrap: wrap;
      gap: 0 12px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class FilterBar {
  readonly filters = input.required<readonly FilterSpec[]>();
  /** The list's parsed query: each field shows the value of its param. */
  readonly query = input.required<object>();
  readonly changed = output<Record<string, string | null>>();

  protected valueOf(filter: FilterSpec): string {
    const value = (this.query() as Record<string, unknown>)[filter.param];
    return typeof value === 'string' ? value : '';
  }

  protected change(filter: FilterSpec, value: string | null): void {
    this.changed.emit({ [filter.param]: value });
  }
}
