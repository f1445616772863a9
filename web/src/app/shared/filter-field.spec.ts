import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatSelect } from '@angular/material/select';
import { By } from '@angular/platform-browser';
import { NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestI18n } from '../../testing/providers';
import {
  DayDateAdapter,
  FilterBar,
  type FilterSpec,
  SelectFilter,
  SEARCH_DEBOUNCE_MS,
  TextFilter,
  dateToDay,
  dayToDate,
  optionsOf,
} from './filter-field';

@Component({
  imports: [SelectFilter, TextFilter],
  template: `
    <app-text-filter
      [label]="label"
      [value]="search()"
      (changed)="changes.push({ search: $event })"
      testId="search"
    />
    <app-select-filter
      [label]="label"
      [value]="role()"
      [options]="roles"
      [anyLabel]="label"
      (changed)="changes.push({ role: $event })"
      testId="role"
    />
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Filters {
  readonly label = 'Label';
  readonly search = signal('bob');
  readonly role = signal('admin');
  readonly roles = optionsOf(['user', 'admin'], 'roles.');
  readonly changes: Record<string, string | null>[] = [];
}

@Component({
  imports: [FilterBar],
  template: `
    <app-filter-bar [filters]="specs" [query]="query" (changed)="changes.push($event)">
      <button type="button" data-testid="order">{{ query.search }}</button>
    </app-filter-bar>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Bar {
  readonly specs: FilterSpec[] = [
    { param: 'search', label: 'common.actions', testId: 'bar-search' },
    { param: 'from', label: 'common.actions', type: 'date', testId: 'bar-from' },
    {
      param: 'role',
      label: 'common.actions',
      options: optionsOf(['admin'], 'roles.'),
      testId: 'bar-role',
    },
  ];
  query: Record<string, unknown> = { search: 'bob', from: '2026-02-01', role: 'admin', page: 2 };
  readonly changes: Record<string, string | null>[] = [];
}

/** The filter fields of list pages: they say what to put in the URL, null to take it out. */
describe('filter fields', () => {
  async function render() {
    TestBed.configureTestingModule({ providers: [...provideTestI18n(), NO_MATERIAL_ANIMATIONS] });
    const fixture = TestBed.createComponent(Filters);
    await fixture.whenStable();
    return fixture;
  }

  it('should build options whose labels are keys under a prefix', () => {
    expect(optionsOf(['a', 'b'], 'x.y.')).toEqual([
      { value: 'a', key: 'x.y.a' },
      { value: 'b', key: 'x.y.b' },
    ]);
  });

  it('should show the URL value of a text filter and commit on change, empty as null', async () => {
    const fixture = await render();
    const input = (fixture.nativeElement as HTMLElement).querySelector<HTMLInputElement>(
      '[data-testid="search"]',
    )!;
    expect(input.value).toBe('bob');
    input.value = 'carol';
    input.dispatchEvent(new Event('input'));
    expect(fixture.componentInstance.changes).toEqual([]);
    input.dispatchEvent(new Event('change'));
    input.value = '';
    input.dispatchEvent(new Event('change'));
    expect(fixture.componentInstance.changes).toEqual([{ search: 'carol' }, { search: null }]);
  });

  // Issue 36: the admin user search filtered only on Enter.
  it('should filter as you type once the keys pause, once per value', async () => {
    const fixture = await render();
    const input = (fixture.nativeElement as HTMLElement).querySelector<HTMLInputElement>(
      '[data-testid="search"]',
    )!;
    jest.useFakeTimers();
    try {
      input.focus();
      for (const typed of ['c', 'ca', 'car']) {
        input.value = typed;
        input.dispatchEvent(new Event('input'));
        jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
      }
      expect(fixture.componentInstance.changes).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(fixture.componentInstance.changes).toEqual([{ search: 'car' }]);
      // Enter after the pause says nothing new.
      input.dispatchEvent(new Event('change'));
      expect(fixture.componentInstance.changes).toHaveLength(1);
      // The URL's value arrives while the member has typed on: the box keeps the keys.
      input.value = 'carol';
      input.dispatchEvent(new Event('input'));
      fixture.componentInstance.search.set('car');
      fixture.detectChanges();
      expect(input.value).toBe('carol');
      jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
      expect(fixture.componentInstance.changes).toEqual([{ search: 'car' }, { search: 'carol' }]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('should offer "any" then the translated options, and say null for "any"', async () => {
    const fixture = await render();
    const select = fixture.debugElement.query(By.directive(MatSelect))
      .componentInstance as MatSelect;
    expect(select.value).toBe('admin');
    expect(select.options.map((o) => [o.value, o.viewValue])).toEqual([
      ['', 'Label'],
      ['user', 'Member'],
      ['admin', 'Administrator'],
    ]);
    for (const index of [1, 0]) {
      select.open();
      await fixture.whenStable();
      document.querySelectorAll<HTMLElement>('mat-option')[index]!.click();
      await fixture.whenStable();
    }
    expect(fixture.componentInstance.changes).toEqual([{ role: 'user' }, { role: null }]);
  });

  it('should lay out a bar of fields from their specs, valued from the query', async () => {
    TestBed.configureTestingModule({ providers: [...provideTestI18n(), NO_MATERIAL_ANIMATIONS] });
    const fixture = TestBed.createComponent(Bar);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const search = root.querySelector<HTMLInputElement>('[data-testid="bar-search"]')!;
    const from = root.querySelector<HTMLInputElement>('[data-testid="bar-from"]')!;
    expect([search.type, search.value]).toEqual(['search', 'bob']);
    // A Material date picker, showing the URL's day in the language's format.
    expect(from.value).toBe('2/1/2026');
    expect(root.querySelector('mat-datepicker-toggle')).not.toBeNull();
    expect(root.querySelector('[data-testid="bar-role"]')!.textContent).toContain('Administrator');
    expect(root.querySelector('.filters [data-testid="order"]')).not.toBeNull();
    // Three fields: nothing folds behind "More filters".
    expect(root.querySelector('[data-testid="more-filters"]')).toBeNull();
    for (const typed of ['2026-03-04', '3/5/2026', '']) {
      from.value = typed;
      from.dispatchEvent(new Event('input'));
      from.dispatchEvent(new Event('change'));
    }
    expect(fixture.componentInstance.changes).toEqual([
      { from: '2026-03-04' },
      { from: '2026-03-05' },
      { from: null },
    ]);
  });

  it('should fold the fields after the first two behind "More filters", counting the set ones', async () => {
    TestBed.configureTestingModule({ providers: [...provideTestI18n(), NO_MATERIAL_ANIMATIONS] });
    const fixture = TestBed.createComponent(Bar);
    fixture.componentInstance.specs.push(
      { param: 'to', label: 'common.actions', type: 'date', testId: 'bar-to' },
      { param: 'kind', label: 'common.actions', testId: 'bar-kind' },
      { param: 'sort', label: 'common.actions', testId: 'bar-sort', always: true },
    );
    fixture.componentInstance.query = { ...fixture.componentInstance.query, sort: 'name' };
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const more = root.querySelector<HTMLButtonElement>('[data-testid="more-filters"]')!;
    // `role` is set, so the folded row starts open and the button counts it; `sort` never folds.
    expect(more.textContent).toContain('More filters');
    expect(more.textContent).toContain('1');
    expect(more.getAttribute('aria-expanded')).toBe('true');
    const folded = root.querySelector('[data-testid="folded-filters"]')!;
    const ids = (el: Element) =>
      [...el.querySelectorAll('[data-testid^="bar-"]')].map((e) => e.getAttribute('data-testid'));
    expect(ids(folded)).toEqual(['bar-role', 'bar-to', 'bar-kind']);
    expect(ids(root.querySelector('.filters')!)).toEqual(['bar-search', 'bar-from', 'bar-sort']);
    more.click();
    await fixture.whenStable();
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(root.querySelector('[data-testid="folded-filters"]')).toBeNull();
  });

  it('should read a typed ISO day as that local day and write local days back', () => {
    const adapter = TestBed.runInInjectionContext(() => new DayDateAdapter());
    const day = adapter.parse('2026-02-01', null)!;
    expect([day.getFullYear(), day.getMonth(), day.getDate(), day.getHours()]).toEqual([
      2026, 1, 1, 0,
    ]);
    expect(dateToDay(day)).toBe('2026-02-01');
    expect(dayToDate('2026-13-01')).toBeNull();
    expect(dayToDate('yesterday')).toBeNull();
  });
});
