import { NgTemplateOutlet } from '@angular/common';
import {
  ChangeDetectionStrategy,
  Component,
  Directive,
  ElementRef,
  Renderer2,
  TemplateRef,
  computed,
  contentChild,
  contentChildren,
  effect,
  inject,
  input,
  output,
} from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { ListPage } from './list-page';
import { ListView } from './list-view';
import { LocalDatePipe } from './local-date';
import { type RowAction, RowMenu } from './row-menu';
import { ShortId } from './short-id';
import { StatusChip, type Tone } from './status-chip';

/** Column widths of the fixed table layout (issue 14): paging does not move the columns. */
const WIDTHS = {
  check: '64px',
  menu: '64px',
  num: '7%',
  icon: '8%',
  date: '12%',
  status: '12%',
  datetime: '14%',
  actions: '22%',
  wide: '25%',
} as const;

/** One column of a `DataTable`. */
export interface Column<T> {
  /** Names the column; an `appCell` template of the same name renders its cells. */
  id: string;
  /**
   * Translation key of the header, which is also the label in front of the value on a phone
   * card. Absent for a column whose header is an `appHeader` template (a select-all box).
   */
  header?: string;
  /** Whether the header is read by screen readers only (a row's menu); the cell gets no label. */
  hideHeader?: boolean;
  /** The cell's text where the column has no `appCell` template. */
  text?: (row: T) => string | number | null | undefined;
  /** The cell is a translation: the key (with its params) for the row. */
  key?: (row: T) => string | [string, Record<string, unknown>];
  /** The cell is a date in the active language (`time`: with the time of day). */
  date?: (row: T) => string | null | undefined;
  time?: boolean;
  /** The cell is an id: its first characters, the whole as the title, a copy button. */
  shortId?: (row: T) => string | null | undefined;
  /** The cell is a status chip: tone, icon and the label's translation key. */
  chip?: (row: T) => ChipSpec;
  /** The cell is the row's "⋮" menu. */
  menu?: (row: T) => MenuSpec;
  /** A preset (`num`, `date`, `status`, …) or any CSS width, from 600 px up. */
  width?: keyof typeof WIDTHS | `${number}${'px' | 'rem' | '%'}`;
  /** Classes of every cell (`mono` for codes and ids). */
  cellClass?: string;
  /** `data-testid` of every cell. */
  cellTestId?: string;
  /** The sort key the header sorts by; the header becomes a button. */
  sort?: string;
}

/** A status chip of a cell (60-web.md §6.6): `label` is a translation key. */
export interface ChipSpec {
  tone: Tone;
  icon: string;
  label: string;
}

/** A row's "⋮" menu: the label's translation key (and params), the actions, a test id. */
export interface MenuSpec {
  label: string;
  params?: Record<string, unknown>;
  actions: RowAction[];
  testId?: string;
}

/** The order a table is sorted in. */
export interface TableSort {
  key: string;
  order: 'asc' | 'desc';
}

/**
 * Everything about a list's table except its rows, declared once in the page's class (issue 34)
 * and given as `[spec]`: the columns, what a `<tr>` carries, what tracks a row, the empty state's
 * icon and sentence (a translation key) and the test ids. Give it or the separate inputs.
 */
export interface TableSpec<T> {
  columns: readonly Column<T>[];
  rowAttrs?: (row: T) => Record<string, string | number | null | undefined>;
  trackBy?: (row: T, index: number) => unknown;
  emptyIcon?: string;
  /** Translation key of the sentence of an empty list nobody filtered. */
  empty?: string;
  testId?: string;
  tableTestId?: string;
}

/** What a cell template's `appCellOf` names, only to type its row: the list, or the rows. */
type RowsOf<T> = ListPage<T> | readonly T[];

/**
 * The cells of one column: `<ng-template appCell="status" [appCellOf]="codes" let-row>`. The
 * `appCellOf` list types `row` in the template; the table renders the template in each row.
 */
@Directive({ selector: 'ng-template[appCell]' })
export class CellDef<T> {
  readonly name = input.required<string>({ alias: 'appCell' });
  /** Only types `row` in the template. */
  readonly appCellOf = input.required<RowsOf<T>>();
  readonly template = inject<TemplateRef<{ $implicit: T }>>(TemplateRef);

  static ngTemplateContextGuard<T>(_dir: CellDef<T>, _ctx: unknown): _ctx is { $implicit: T } {
    return true;
  }
}

/** A header with controls in it (select all): `<ng-template appHeader="check">`. */
@Directive({ selector: 'ng-template[appHeader]' })
export class HeaderDef {
  readonly name = input.required<string>({ alias: 'appHeader' });
  readonly template = inject<TemplateRef<unknown>>(TemplateRef);
}

/** A row's expanded part, a full-width row under it while `expanded(row)` holds. */
@Directive({ selector: 'ng-template[appRowDetail]' })
export class RowDetailDef<T> {
  /** Only types `row` in the template. */
  readonly appRowDetailOf = input.required<RowsOf<T>>();
  readonly template = inject<TemplateRef<{ $implicit: T }>>(TemplateRef);

  static ngTemplateContextGuard<T>(_dir: RowDetailDef<T>, _ctx: unknown): _ctx is { $implicit: T } {
    return true;
  }
}

/** Sets the attributes a page's tests and styles find a row by (`data-user="bob"`). */
@Directive({ selector: '[appAttrs]' })
export class AttrsDirective {
  readonly attrs = input<Record<string, string | number | null | undefined> | undefined>(
    undefined,
    { alias: 'appAttrs' },
  );

  constructor() {
    const element = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    const renderer = inject(Renderer2);
    let names: string[] = [];
    effect(() => {
      const attrs = this.attrs() ?? {};
      for (const name of names) if (!(name in attrs)) renderer.removeAttribute(element, name);
      names = Object.keys(attrs);
      for (const [name, value] of Object.entries(attrs)) {
        if (value === null || value === undefined) renderer.removeAttribute(element, name);
        else renderer.setAttribute(element, name, String(value));
      }
    });
  }
}

/**
 * `ResponsiveTable` (60-web.md §1), the one table of every list: a table from 600 px and a card
 * per row below that, each value labelled with its column's header. The columns are a spec
 * (header key, width, text or an `appCell` template, sort key); a sortable header is a button
 * with `aria-sort`. Given a `list`, the table sits in `app-list-view`, which shows the loading,
 * empty and error states and the paginator; given `rows`, the page shows those states itself.
 */
@Component({
  selector: 'app-data-table',
  imports: [
    NgTemplateOutlet,
    MatIcon,
    TranslocoDirective,
    AttrsDirective,
    ListView,
    LocalDatePipe,
    RowMenu,
    ShortId,
    StatusChip,
  ],
  template: `
    <ng-container *transloco="let t">
      @if (list(); as list) {
        <app-list-view
          [list]="list"
          [emptyMessage]="emptyMessage() || (emptyKey() ? t(emptyKey()) : '')"
          [emptyIcon]="icon()"
          [filteredMessage]="filteredMessage()"
          [testId]="states()"
        >
          <ng-container ngProjectAs="[emptyAction]">
            <ng-content select="[emptyAction]" />
          </ng-container>
          <ng-container
            [ngTemplateOutlet]="table"
            [ngTemplateOutletContext]="{ $implicit: list.rows() ?? [] }"
          />
        </app-list-view>
      } @else {
        <ng-container
          [ngTemplateOutlet]="table"
          [ngTemplateOutletContext]="{ $implicit: rows() }"
        />
      }

      <ng-template #table let-rows>
        <div class="scroll">
          <table class="list" [attr.data-testid]="tableId()">
            @if (caption(); as caption) {
              <caption class="visually-hidden">
                {{
                  caption
                }}
              </caption>
            }
            <thead>
              <tr>
                @for (column of shown(); track column.id) {
                  <th
                    scope="col"
                    [style.width]="widthOf(column)"
                    [attr.aria-sort]="ariaSort(column)"
                  >
                    @if (headers().get(column.id); as header) {
                      <ng-container [ngTemplateOutlet]="header" />
                    } @else if (column.hideHeader) {
                      <span class="visually-hidden">{{ t(column.header ?? '') }}</span>
                    } @else if (column.sort) {
                      <button
                        type="button"
                        class="sort"
                        [attr.data-testid]="'sort-' + column.sort"
                        [attr.aria-label]="t('common.sortBy', { column: t(column.header ?? '') })"
                        (click)="sortBy(column.sort)"
                      >
                        {{ t(column.header ?? '') }}
                        @if (ariaSort(column); as direction) {
                          <mat-icon
                            aria-hidden="true"
                            [svgIcon]="
                              direction === 'ascending' ? 'arrow_upward' : 'arrow_downward'
                            "
                          />
                        }
                      </button>
                    } @else if (column.header) {
                      {{ t(column.header) }}
                    }
                  </th>
                }
              </tr>
            </thead>
            <tbody>
              @for (row of rows; track track()(row, $index)) {
                <tr
                  [appAttrs]="attrsOf()?.(row)"
                  [class.clickable]="openable()"
                  [attr.tabindex]="openable() ? 0 : null"
                  (click)="openable() && opened.emit(row)"
                  (keydown.enter)="openable() && opened.emit(row)"
                >
                  @for (column of shown(); track column.id) {
                    <td
                      [class]="column.cellClass ?? ''"
                      [attr.data-label]="
                        column.header && !column.hideHeader ? t(column.header) : null
                      "
                      [attr.data-testid]="column.cellTestId ?? null"
                    >
                      @if (cells().get(column.id); as cell) {
                        <ng-container
                          [ngTemplateOutlet]="cell"
                          [ngTemplateOutletContext]="{ $implicit: row }"
                        />
                      } @else if (column.chip) {
                        @let chip = column.chip(row);
                        <app-status-chip
                          [tone]="chip.tone"
                          [icon]="chip.icon"
                          [label]="t(chip.label)"
                        />
                      } @else if (column.menu) {
                        @let menu = column.menu(row);
                        <app-row-menu
                          [label]="t(menu.label, menu.params ?? {})"
                          [actions]="menu.actions"
                          [testId]="menu.testId"
                        />
                      } @else if (column.shortId) {
                        @if (column.shortId(row); as id) {
                          <app-short-id [value]="id" />
                        }
                      } @else if (column.date && column.time) {
                        <!-- The day, and the time under it: "2026年12月7日 14:30" did not fit
                             a column and lost its time to the ellipsis. -->
                        @let at = column.date(row);
                        <span class="line" [attr.title]="(at | localDate: 'dateTime') || null">
                          <span class="line">{{ at | localDate }}</span>
                          <span class="line muted-line">{{ at | localDate: 'time' }}</span>
                        </span>
                      } @else {
                        @let text =
                          column.date
                            ? (column.date(row) | localDate)
                            : column.key
                              ? translated(t, column.key(row))
                              : column.text?.(row);
                        <!-- One line, cut with an ellipsis, the whole as the title (issue 36). -->
                        <span class="line" [attr.title]="text || null">{{ text }}</span>
                      }
                    </td>
                  }
                </tr>
                @if (detail(); as detail) {
                  @if (expanded()?.(row)) {
                    <tr class="details" [attr.data-testid]="detailTestId() ?? null">
                      <td [attr.colspan]="shown().length">
                        <ng-container
                          [ngTemplateOutlet]="detail.template"
                          [ngTemplateOutletContext]="{ $implicit: row }"
                        />
                      </td>
                    </tr>
                  }
                }
              }
            </tbody>
          </table>
        </div>
      </ng-template>
    </ng-container>
  `,
  styleUrl: './data-table.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DataTable<T> {
  /** The columns; or a `spec` that has them (and the rest of the table's set-up). */
  readonly columns = input<readonly Column<T>[]>();
  readonly spec = input<TableSpec<T>>();
  /** A list with its states and paging; or `rows` for rows the page loaded itself. */
  readonly list = input<ListPage<T>>();
  readonly rows = input<readonly T[]>([]);
  /** Already translated: the sentence of an empty list nobody filtered. */
  readonly emptyMessage = input('');
  readonly emptyIcon = input('inbox');
  /** Already translated; "No results for these filters." by default. */
  readonly filteredMessage = input<string>();
  /** Prefix of the states' `data-testid` (`-error`, `-empty`). */
  readonly testId = input<string>();
  /** `data-testid` of the table; `{testId}-table` by default. */
  readonly tableTestId = input<string>();
  /** Already translated: names the table for screen readers where no heading does. */
  readonly caption = input<string>();
  /** What identifies a row across reloads (its `id` by default). */
  readonly trackBy = input<(row: T, index: number) => unknown>(
    (row) => (row as { id?: unknown }).id,
  );
  /** Attributes of a row's `<tr>`. */
  readonly rowAttrs = input<(row: T) => Record<string, string | number | null | undefined>>();
  /** Whether a row's `appRowDetail` part is shown. */
  readonly expanded = input<(row: T) => boolean>();
  readonly detailTestId = input<string>();
  /** Whether a row opens (its details) on a click or Enter: `opened` says which. */
  readonly openable = input(false);
  readonly opened = output<T>();
  /** The current order, for `aria-sort` and the arrow. */
  readonly sort = input<TableSort | null>(null);
  /** A sortable header was pressed: the same key flips the order, another starts descending. */
  readonly sortChange = output<TableSort>();

  private readonly cellDefs = contentChildren<CellDef<T>>(CellDef);
  private readonly headerDefs = contentChildren(HeaderDef);
  protected readonly detail = contentChild<RowDetailDef<T>>(RowDetailDef);
  protected readonly cells = computed(
    () => new Map(this.cellDefs().map((def) => [def.name(), def.template])),
  );
  protected readonly headers = computed(
    () => new Map(this.headerDefs().map((def) => [def.name(), def.template])),
  );

  /** A `key` column's text: the key alone, or with its params. */
  protected translated(
    t: (key: string, params?: Record<string, unknown>) => string,
    key: string | [string, Record<string, unknown>],
  ): string {
    return Array.isArray(key) ? t(key[0], key[1]) : t(key);
  }
  protected readonly shown = computed(() => this.columns() ?? this.spec()?.columns ?? []);
  protected readonly track = computed(() => this.spec()?.trackBy ?? this.trackBy());
  protected readonly attrsOf = computed(() => this.rowAttrs() ?? this.spec()?.rowAttrs);
  protected readonly icon = computed(() => this.spec()?.emptyIcon ?? this.emptyIcon());
  protected readonly emptyKey = computed(() => this.spec()?.empty ?? '');
  protected readonly states = computed(() => this.testId() ?? this.spec()?.testId);
  protected readonly tableId = computed(() => {
    const testId = this.states();
    return this.tableTestId() ?? this.spec()?.tableTestId ?? (testId ? `${testId}-table` : null);
  });

  protected widthOf(column: Column<T>): string | null {
    if (!column.width) return null;
    return column.width in WIDTHS ? WIDTHS[column.width as keyof typeof WIDTHS] : column.width;
  }

  protected ariaSort(column: Column<T>): 'ascending' | 'descending' | null {
    const sort = this.sort();
    if (!column.sort || sort?.key !== column.sort) return null;
    return sort.order === 'asc' ? 'ascending' : 'descending';
  }

  protected sortBy(key: string): void {
    const sort = this.sort();
    const order = sort?.key === key && sort.order === 'desc' ? 'asc' : 'desc';
    this.sortChange.emit({ key, order });
  }
}

/** The pieces a page imports to declare a table. */
export const DATA_TABLE = [DataTable, CellDef, HeaderDef, RowDetailDef] as const;
