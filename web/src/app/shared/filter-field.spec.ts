import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { MatSelect } from '@angular/material/select';
import { By } from '@angular/platform-browser';
import { NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestI18n } from '../../testing/providers';
import { FilterBar, type FilterSpec, SelectFilter, TextFilter, optionsOf } from './filter-field';

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
  readonly query = { search: 'bob', from: '2026-02-01', role: 'admin', page: 2 };
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
    expect([from.type, from.value]).toEqual(['date', '2026-02-01']);
    expect(root.querySelector('[data-testid="bar-role"]')!.textContent).toContain('Administrator');
    expect(root.querySelector('.filters [data-testid="order"]')).not.toBeNull();
    from.value = '';
    from.dispatchEvent(new Event('change'));
    expect(fixture.componentInstance.changes).toEqual([{ from: null }]);
  });
});
