import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import type { Page } from '@usher/contracts/values';
import { flushAndRender, NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestApp } from '../../testing/providers';
import { Notifier } from '../core/notifier';
import { type Column, DATA_TABLE, type TableSort } from './data-table';
import { localListPage } from './list-page';

interface Thing {
  id: string;
  name: string;
  at: string;
  ok: boolean;
  n: number;
}

const THINGS: Thing[] = [
  { id: 't1', name: 'Alpha', at: '2026-03-01T10:00:00.000Z', ok: true, n: 1 },
  { id: 't2', name: 'Beta', at: '2026-03-02T10:00:00.000Z', ok: false, n: 2 },
];

@Component({
  imports: [DATA_TABLE],
  template: `
    <app-data-table
      [rows]="rows()"
      [columns]="columns"
      [rowAttrs]="attrs"
      [sort]="sort()"
      (sortChange)="sorted.push($event)"
      [expanded]="isOpen"
      detailTestId="thing-detail"
      tableTestId="things"
    >
      <ng-template appCell="name" [appCellOf]="rows()" let-row
        ><b>{{ row.name }}</b></ng-template
      >
      <ng-template appRowDetail [appRowDetailOf]="rows()" let-row
        >Detail of {{ row.name }}</ng-template
      >
    </app-data-table>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Things {
  readonly rows = signal(THINGS);
  readonly sort = signal<TableSort | null>({ key: 'n', order: 'desc' });
  readonly sorted: TableSort[] = [];
  readonly columns: Column<Thing>[] = [
    { id: 'name', header: 'adminUsers.col.user' },
    { id: 'at', header: 'audit.col.at', date: (t) => t.at, time: true, width: 'datetime' },
    {
      id: 'ok',
      header: 'adminUsers.col.active',
      chip: (t) => ({
        tone: t.ok ? 'success' : 'warning',
        icon: 'login',
        label: t.ok ? 'adminUsers.activeYes' : 'adminUsers.activeNo',
      }),
    },
    { id: 'n', header: 'adminPlayback.col.plays', text: (t) => t.n, sort: 'n' },
    { id: 'menu', header: 'common.actions', hideHeader: true },
  ];
  readonly attrs = (t: Thing) => ({ 'data-thing': t.name });
  readonly isOpen = (t: Thing) => t.id === 't2';
}

@Component({
  imports: [DATA_TABLE],
  template: `
    <app-data-table
      [list]="list"
      [columns]="columns"
      emptyIcon="inbox"
      emptyMessage="Nothing yet"
      testId="things"
    >
      <button emptyAction type="button" data-testid="create">Create</button>
    </app-data-table>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class ListedThings {
  /** Answers the pending load. */
  answer: (page: Page<Thing>) => void = () => undefined;
  fail: (error: unknown) => void = () => undefined;
  readonly list = localListPage<true, Thing>({
    params: () => true,
    load: () =>
      new Promise<Page<Thing>>((resolve, reject) => {
        this.answer = resolve;
        this.fail = reject;
      }),
    pageSize: 10,
  });
  readonly columns: Column<Thing>[] = [
    { id: 'name', header: 'adminUsers.col.user', text: (t) => t.name },
  ];
}

const LONG_ID = '0190f3c2-7a1b-7c3d-9e4f-0123456789ab';

@Component({
  imports: [DATA_TABLE],
  template: `<app-data-table [rows]="rows" [columns]="columns" tableTestId="calm" />`,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class CalmThings {
  readonly rows = [
    { id: LONG_ID, name: 'Administrator of the longest title', at: '', ok: true, n: 1 },
  ];
  readonly columns: Column<Thing>[] = [
    { id: 'name', header: 'adminUsers.col.user', text: (t) => t.name },
    { id: 'role', header: 'adminUsers.col.role', key: () => 'roles.admin' },
    { id: 'ref', header: 'audit.col.requestId', shortId: (t) => t.id },
  ];
}

describe('DataTable', () => {
  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
  });

  it('should label every cell with its column for the phone cards, and render each column kind', async () => {
    const fixture = TestBed.createComponent(Things);
    await flushAndRender(fixture);
    const table = (fixture.nativeElement as HTMLElement).querySelector('[data-testid="things"]')!;

    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent!.trim());
    expect(headers).toEqual(['User', 'Time', 'Sign-in', 'Plays', 'Actions']);
    expect(table.querySelector('thead th:last-child .visually-hidden')).not.toBeNull();
    const alpha = table.querySelector('tr[data-thing="Alpha"]')!;
    const cells = [...alpha.querySelectorAll('td')];
    expect(cells.map((td) => td.getAttribute('data-label'))).toEqual([
      'User',
      'Time',
      'Sign-in',
      'Plays',
      null,
    ]);
    expect(cells[0]!.querySelector('b')?.textContent).toBe('Alpha');
    expect(cells[1]!.textContent).toContain('2026');
    expect(cells[2]!.querySelector('app-status-chip')?.textContent).toContain('Active');
    expect(cells[3]!.textContent!.trim()).toBe('1');
    expect((table.querySelector('thead th:nth-child(2)') as HTMLElement).style.width).toBe('14%');
  });

  it('should show a row detail only where the page says the row is open', async () => {
    const fixture = TestBed.createComponent(Things);
    await flushAndRender(fixture);
    const details = (fixture.nativeElement as HTMLElement).querySelectorAll(
      '[data-testid="thing-detail"]',
    );

    expect(details).toHaveLength(1);
    expect(details[0]!.textContent).toContain('Detail of Beta');
    expect(details[0]!.querySelector('td')?.getAttribute('colspan')).toBe('5');
  });

  it('should say the sort with aria-sort and ask for the other order on a click', async () => {
    const fixture = TestBed.createComponent(Things);
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    const header = root.querySelector('thead th:nth-child(4)')!;
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(root.querySelector('thead th:nth-child(1)')!.getAttribute('aria-sort')).toBeNull();

    (root.querySelector('[data-testid="sort-n"]') as HTMLButtonElement).click();
    fixture.componentInstance.sort.set({ key: 'n', order: 'asc' });
    await flushAndRender(fixture);
    (root.querySelector('[data-testid="sort-n"]') as HTMLButtonElement).click();

    expect(fixture.componentInstance.sorted).toEqual([
      { key: 'n', order: 'asc' },
      { key: 'n', order: 'desc' },
    ]);
    expect(header.getAttribute('aria-sort')).toBe('ascending');
  });

  it('should show the list states: loading, then empty with its main action, then rows', async () => {
    const fixture = TestBed.createComponent(ListedThings);
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    expect(root.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(root.querySelector('table')).toBeNull();

    fixture.componentInstance.answer({ data: [], total: 0, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    expect(root.querySelector('[data-testid="things-empty"]')?.textContent).toContain(
      'Nothing yet',
    );
    expect(root.querySelector('[data-testid="create"]')).not.toBeNull();
    expect(root.querySelector('table')).toBeNull();

    fixture.componentInstance.list.reload();
    await flushAndRender(fixture);
    fixture.componentInstance.answer({ data: THINGS, total: 2, page: 1, pageSize: 10 });
    await flushAndRender(fixture);
    expect(root.querySelectorAll('tbody tr')).toHaveLength(2);
    expect(root.querySelector('[data-testid="things-empty"]')).toBeNull();
  });

  it('should show a failed load as the error state with Retry', async () => {
    const fixture = TestBed.createComponent(ListedThings);
    await flushAndRender(fixture);
    fixture.componentInstance.fail(new Error('offline'));
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;

    expect(root.querySelector('[data-testid="things-error"]')).not.toBeNull();
    expect(root.querySelector('table')).toBeNull();
  });

  // Issue 36: cells broke numbers and words ("$12.9/9", "Administrato/r"); ids wrapped one
  // character a line.
  it('should keep a spec cell on one line with its whole text as the title, and ids short with copy', async () => {
    const fixture = TestBed.createComponent(CalmThings);
    await flushAndRender(fixture);
    const root = fixture.nativeElement as HTMLElement;
    const [name, role, ref] = [...root.querySelectorAll<HTMLElement>('tbody td')];
    const line = name!.querySelector('.line')!;
    expect(line.textContent!.trim()).toBe('Administrator of the longest title');
    expect(line.getAttribute('title')).toBe('Administrator of the longest title');
    expect(role!.querySelector('.line')!.getAttribute('title')).toBe('Administrator');

    const id = ref!.querySelector('[data-testid="short-id"]')!;
    expect(id.textContent).toBe('0190f3c2…');
    expect(id.getAttribute('title')).toBe(LONG_ID);
    const clipboard = TestBed.inject(Clipboard);
    const copy = jest.spyOn(clipboard, 'copy').mockReturnValue(true);
    const notifier = jest
      .spyOn(TestBed.inject(Notifier), 'show')
      .mockImplementation(() => undefined);
    ref!.querySelector<HTMLButtonElement>('[data-testid="copy-id"]')!.click();
    expect(copy).toHaveBeenCalledWith(LONG_ID);
    expect(notifier).toHaveBeenCalledWith('common.copied');
  });
});
