import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  type ElementRef,
  Injectable,
  computed,
  effect,
  inject,
  input,
  linkedSignal,
  output,
  viewChild,
} from '@angular/core';
import { NgTemplateOutlet } from '@angular/common';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { MatButton } from '@angular/material/button';
import { DateAdapter, NativeDateAdapter, provideNativeDateAdapter } from '@angular/material/core';
import {
  MatDatepicker,
  MatDatepickerInput,
  MatDatepickerIntl,
  MatDatepickerToggle,
} from '@angular/material/datepicker';
import { MatFormField, MatLabel, MatSuffix } from '@angular/material/form-field';
import { MatIcon } from '@angular/material/icon';
import { MatInput } from '@angular/material/input';
import { MatOption, MatSelect } from '@angular/material/select';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import { LanguageSwitch } from '../core/i18n/language';
import { TEXT_FIELD } from './form-field';

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

/** How long a search box waits after the last key before it filters (issue 36). */
export const SEARCH_DEBOUNCE_MS = 350;

/**
 * A text or search filter of a list page. It filters as you type (issue 36: the admin user
 * search filtered only on Enter), once the keys pause for `SEARCH_DEBOUNCE_MS`, and at once on
 * `change` (Enter, or leaving the field); an emptied field says `null` so the param leaves the
 * URL. The URL's value is written into the box only while nobody types in it, so a filter that
 * lands mid-word does not eat the keys typed since.
 */
@Component({
  selector: 'app-text-filter',
  imports: [MatFormField, MatLabel, MatInput],
  template: `
    <mat-form-field appearance="outline">
      <mat-label>{{ label() }}</mat-label>
      <input
        #box
        matInput
        [type]="type()"
        (input)="typed($any($event.target).value)"
        (change)="commit($any($event.target).value)"
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
  private readonly box = viewChild.required<ElementRef<HTMLInputElement>>('box');
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** What was last said, so Enter after the pause does not say it twice. */
  private said: string | null = null;

  constructor() {
    effect(() => {
      const value = this.value();
      const box = this.box().nativeElement;
      this.said = value || null;
      if (box.ownerDocument.activeElement !== box || this.timer === undefined) box.value = value;
    });
    inject(DestroyRef).onDestroy(() => clearTimeout(this.timer));
  }

  protected typed(value: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.commit(value), SEARCH_DEBOUNCE_MS);
  }

  protected commit(value: string): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const next = value.trim() || null;
    if (next === this.said) return;
    this.said = next;
    this.changed.emit(next);
  }
}

/** `YYYY-MM-DD` as a local calendar day, or null. */
export function dayToDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const date = new Date(year, month, day);
  // `new Date` rolls 2026-13-01 over into 2027: such a day does not exist.
  return date.getFullYear() === year && date.getMonth() === month && date.getDate() === day
    ? date
    : null;
}

/** A local date as the `YYYY-MM-DD` of a query param. */
export function dateToDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The native adapter, except that a typed `2026-02-01` is that local day (the native parser
 * reads ISO dates as UTC midnight, the day before west of Greenwich).
 */
@Injectable()
export class DayDateAdapter extends NativeDateAdapter {
  override parse(value: unknown, parseFormat?: unknown): Date | null {
    if (typeof value === 'string') {
      const day = dayToDate(value.trim());
      if (day) return day;
    }
    return super.parse(value, parseFormat);
  }
}

/** The calendar's button names in the active language. */
@Injectable()
export class TranslatedDatepickerIntl extends MatDatepickerIntl {
  private readonly transloco = inject(TranslocoService);

  constructor() {
    super();
    this.transloco.langChanges$.pipe(takeUntilDestroyed()).subscribe(() => {
      const t = (key: string) => this.transloco.translate(`listTools.calendar.${key}`);
      this.openCalendarLabel = t('open');
      this.closeCalendarLabel = t('close');
      this.prevMonthLabel = t('previousMonth');
      this.nextMonthLabel = t('nextMonth');
      this.prevYearLabel = t('previousYear');
      this.nextYearLabel = t('nextYear');
      this.switchToMonthViewLabel = t('chooseDate');
      this.switchToMultiYearViewLabel = t('chooseMonthYear');
      this.changes.next();
    });
  }
}

/**
 * A date filter (issue 14: Material date pickers): typed in the language's format or picked from
 * the calendar, said as the `YYYY-MM-DD` local day of the URL, `null` when emptied.
 */
@Component({
  selector: 'app-date-filter',
  imports: [MatDatepicker, MatDatepickerInput, MatDatepickerToggle, MatSuffix, ...TEXT_FIELD],
  providers: [
    provideNativeDateAdapter(),
    { provide: DateAdapter, useClass: DayDateAdapter },
    { provide: MatDatepickerIntl, useClass: TranslatedDatepickerIntl },
  ],
  template: `
    <mat-form-field appearance="outline">
      <mat-label>{{ label() }}</mat-label>
      <input
        matInput
        [matDatepicker]="picker"
        [value]="date()"
        (dateChange)="commit($event.value)"
        autocomplete="off"
        [attr.data-testid]="testId() ?? null"
      />
      <mat-datepicker-toggle matIconSuffix [for]="picker" />
      <mat-datepicker #picker />
    </mat-form-field>
  `,
  styles: FILTER_STYLES,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DateFilter {
  private readonly adapter = inject<DateAdapter<Date>>(DateAdapter);
  /** Already translated. */
  readonly label = input.required<string>();
  /** `YYYY-MM-DD`, or '' for none. */
  readonly value = input('');
  readonly testId = input<string>();
  readonly changed = output<string | null>();
  protected readonly date = computed(() => dayToDate(this.value()));

  constructor() {
    const language = inject(LanguageSwitch);
    effect(() => this.adapter.setLocale(language.active()));
  }

  protected commit(date: Date | null): void {
    const day = date && this.adapter.isValid(date) ? dateToDay(date) : null;
    if (day !== (this.value() || null)) this.changed.emit(day);
  }
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
  /** Never folded behind "More filters" (a sort order, which always has a value). */
  always?: boolean;
}

/** Numbers the folded rows' ids. */
let nextPanel = 0;

/**
 * The filter row of a list page (60-web.md §4.3): one field per spec, valued from the parsed
 * query, each change said as `{param: value}` for the URL. Projected content (a sort-order
 * button) ends the row. The first `primary` fields stay in view; the rest fold behind "More
 * filters" (issue 14), open from the start when one of them is set, and the button counts them.
 */
@Component({
  selector: 'app-filter-bar',
  imports: [
    DateFilter,
    MatButton,
    MatIcon,
    NgTemplateOutlet,
    SelectFilter,
    TextFilter,
    TranslocoDirective,
  ],
  template: `
    <ng-container *transloco="let t">
      <div class="filters">
        @for (filter of shown(); track filter.param) {
          <ng-container
            [ngTemplateOutlet]="field"
            [ngTemplateOutletContext]="{ $implicit: filter }"
          />
        }
        @if (folded().length) {
          <button
            mat-button
            type="button"
            class="more"
            [attr.aria-expanded]="open()"
            [attr.aria-controls]="panelId"
            (click)="open.set(!open())"
            data-testid="more-filters"
          >
            <mat-icon aria-hidden="true" svgIcon="filter_list" />
            {{ t('listTools.moreFilters') }}
            @if (setFolded() > 0) {
              <span class="count">{{ setFolded() }}</span>
            }
          </button>
        }
        <ng-content />
      </div>
      @if (open() && folded().length) {
        <div class="filters folded" [id]="panelId" data-testid="folded-filters">
          @for (filter of folded(); track filter.param) {
            <ng-container
              [ngTemplateOutlet]="field"
              [ngTemplateOutletContext]="{ $implicit: filter }"
            />
          }
        </div>
      }
      <ng-template #field let-filter>
        @if (filter.options) {
          <app-select-filter
            [label]="t(filter.label)"
            [value]="valueOf(filter)"
            [options]="filter.options"
            [anyLabel]="filter.any ? t(filter.any) : undefined"
            [testId]="filter.testId"
            (changed)="change(filter, $event)"
          />
        } @else if (filter.type === 'date') {
          <app-date-filter
            [label]="t(filter.label)"
            [value]="valueOf(filter)"
            [testId]="filter.testId"
            (changed)="change(filter, $event)"
          />
        } @else {
          <app-text-filter
            [label]="t(filter.label)"
            [value]="valueOf(filter)"
            [testId]="filter.testId"
            (changed)="change(filter, $event)"
          />
        }
      </ng-template>
    </ng-container>
  `,
  styles: `
    :host {
      display: block;
    }
    .filters {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-start;
      gap: 0 12px;
    }
    .folded {
      padding-top: 4px;
    }
    .more {
      min-height: 48px;
      margin-top: 4px;
    }
    .count {
      display: inline-grid;
      place-items: center;
      min-width: 20px;
      height: 20px;
      margin-inline-start: 4px;
      padding: 0 6px;
      border-radius: 10px;
      font: var(--mat-sys-label-small);
      background: var(--mat-sys-primary);
      color: var(--mat-sys-on-primary);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class FilterBar {
  /** The folded row's id (two bars can share a page, one per tab). */
  protected readonly panelId = `more-filters-${nextPanel++}`;
  readonly filters = input.required<readonly FilterSpec[]>();
  /** The list's parsed query: each field shows the value of its param. */
  readonly query = input.required<object>();
  /** How many fields stay in view; folding a single field is not worth a button. */
  readonly primary = input(2);
  readonly changed = output<Record<string, string | null>>();

  private readonly split = computed(() => {
    const filters = this.filters();
    const foldable = filters.filter((filter) => !filter.always);
    const primary = this.primary();
    const folded = foldable.length > primary + 1 ? new Set(foldable.slice(primary)) : new Set();
    return {
      shown: filters.filter((filter) => !folded.has(filter)),
      folded: filters.filter((filter) => folded.has(filter)),
    };
  });
  protected readonly shown = computed(() => this.split().shown);
  protected readonly folded = computed(() => this.split().folded);
  /** How many folded filters narrow the list now. */
  protected readonly setFolded = computed(
    () => this.folded().filter((filter) => this.valueOf(filter) !== '').length,
  );
  /** Open once a folded filter is set (and stays so), and whenever the button says so. */
  protected readonly open = linkedSignal<number, boolean>({
    source: this.setFolded,
    computation: (set, previous) => set > 0 || (previous?.value ?? false),
  });

  protected valueOf(filter: FilterSpec): string {
    const value = (this.query() as Record<string, unknown>)[filter.param];
    return typeof value === 'string' ? value : '';
  }

  protected change(filter: FilterSpec, value: string | null): void {
    this.changed.emit({ [filter.param]: value });
  }
}
