import { ChangeDetectionStrategy, Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import type { Page } from '@usher/contracts/values';
import { flushAndRender, NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestApp } from '../../testing/providers';
import { DATA_TABLE, type TableSpec } from './data-table';
import { chipColumn, menuColumn, whenColumn } from './data-table-columns';
import { localListPage } from './list-page';

interface Thing {
  id: string;
  name: string;
  at: string;
}

const THINGS: Thing[] = [
  { id: 't1', name: 'Alpha', at: '2026-03-01T10:00:00.000Z' },
  { id: 't2', name: 'Beta', at: '2026-03-02T10:00:00.000Z' },
];

/** A list given its whole table as one `spec`: columns, row attributes, empty state, test id. */
@Component({
  imports: [DATA_TABLE],
  template: `<app-data-table [list]="list" [spec]="table" />`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class SpecThings {
  answer: (page: Page<Thing>) => void = () => undefined;
  readonly list = localListPage<true, Thing>({
    params: () => true,
    load: () => new Promise<Page<Thing>>((resolve) => (this.answer = resolve)),
    pageSize: 10,
  });
  readonly opened: string[] = [];
  readonly table: TableSpec<Thing> = {
    columns: [
      { id: 'name', header: 'adminUsers.col.user', text: (t) => t.name },
      whenColumn('at', 'audit.col.at', (t) => t.at),
      chipColumn('ok', 'adminUsers.col.active', () => ({
        tone: 'success',
        icon: 'login',
        label: 'adminUsers.activeYes',
      })),
      menuColumn((t) => ({
        label: 'adminUsers.actionsFor',
        params: { name: t.name },
        actions: [{ icon: 'edit', label: 'dialogs.save', run: () => this.opened.push(t.id) }],
        testId: `menu-${t.id}`,
      })),
    ],
    rowAttrs: (t) => ({ 'data-thing': t.name }),
    emptyIcon: 'inbox',
    empty: 'adminUsers.empty',
    testId: 'things',
  };
}

describe('DataTable spec and column builders', () => {
  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
  });

  it('should build the time, chip and menu columns with their widths and hidden header', () => {
    const at = (t: Thing) => t.at;
    expect(whenColumn<Thing>('at', 'audit.col.at', at)).toEqual({
      id: 'at',
      header: 'audit.col.at',
      width: 'datetime',
      date: at,
      time: true,
    });
    expect(whenColumn<Thing>('at', 'audit.col.at', at, { width: '10rem', sort: 'at' })).toEqual(
      expect.objectContaining({ width: '10rem', sort: 'at', time: true }),
    );
    expect(chipColumn<Thing>('s', 'h', () => ({ tone: 'info', icon: 'x', label: 'l' }))).toEqual(
      expect.objectContaining({ id: 's', header: 'h', width: 'status' }),
    );
    const menu = menuColumn<Thing>(() => ({ label: 'l', actions: [] }), { width: undefined });
    expect(menu).toEqual(
      expect.objectContaining({ id: 'menu', header: 'common.actions', hideHeader: true }),
    );
    expect(menu.width).toBeUndefined();
  });

  it('should show the empty state from the spec: its sentence translated and its test id', async () => {
    const fixture = TestBed.createComponent(SpecThings);
    await flushAndRender(fixture);
    fixture.componentInstance.answer({ data: [], total: 0, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;

    const empty = root.querySelector('[data-testid="things-empty"]');
    expect(empty?.textContent).toContain('No users yet.');
    expect(root.querySelector('table')).toBeNull();
  });

  it('should render the spec columns and row attributes, the table named after its test id', async () => {
    const fixture = TestBed.createComponent(SpecThings);
    await flushAndRender(fixture);
    fixture.componentInstance.answer({ data: THINGS, total: 2, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    const table = (fixture.nativeElement as HTMLElement).querySelector(
      '[data-testid="things-table"]',
    )!;

    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
    expect(headers).toEqual(['User', 'Time', 'Sign-in', 'Actions']);
    expect((table.querySelector('thead th:nth-child(2)') as HTMLElement).style.width).toBe('14%');
    expect((table.querySelector('thead th:nth-child(3)') as HTMLElement).style.width).toBe('12%');
    expect((table.querySelector('thead th:nth-child(4)') as HTMLElement).style.width).toBe('64px');
    const beta = table.querySelector('tr[data-thing="Beta"]')!;
    expect(beta.querySelector('td:nth-child(2)')!.textContent).toContain('2026');
    expect(beta.querySelector('td:nth-child(3) app-status-chip')?.textContent).toContain(
      'Active',
    );
    expect(beta.querySelector('[data-testid="menu-t2"]')).not.toBeNull();
  });
});
