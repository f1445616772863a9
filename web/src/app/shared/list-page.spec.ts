import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MatPaginatorIntl } from '@angular/material/paginator';
import { Router } from '@angular/router';
import { TranslocoService } from '@jsverse/transloco';
import type { Page } from '@usher/contracts/values';
import { flushAndRender, NO_MATERIAL_ANIMATIONS } from '../../testing/dom';
import { provideTestApp } from '../../testing/providers';
import { ApiError } from '../core/api/api-error';
import {
  dayParam,
  listPage,
  localListPage,
  oneOfParam,
  pageParam,
  pageSizeParam,
} from './list-page';
import { ListView, TranslatedPaginatorIntl } from './list-view';

interface Query {
  status: '' | 'open' | 'closed';
  search: string;
  page: number;
  pageSize: number;
}

/** What a page's `load` was asked, answered by the test. */
interface Call<Q> {
  query: Q;
  resolve: (page: Page<string>) => void;
  reject: (error: unknown) => void;
}

let calls: Call<unknown>[] = [];
function load<Q>(query: Q): Promise<Page<string>> {
  return new Promise((resolve, reject) => calls.push({ query, resolve, reject }));
}
const pageOf = (data: string[], total = data.length, page = 1, pageSize = 20) => ({
  data,
  total,
  page,
  pageSize,
});

@Component({
  imports: [ListView],
  template: `
    <app-list-view [list]="list" [emptyMessage]="empty" emptyIcon="inbox" testId="things">
      <button emptyAction type="button" data-testid="create">{{ empty }}</button>
      <ul data-testid="rows">
        @for (row of list.rows(); track row) {
          <li>{{ row }}</li>
        }
      </ul>
    </app-list-view>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class UrlList {
  readonly status = input<string>();
  readonly search = input<string>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();
  readonly empty = 'empty';
  readonly list = listPage({
    query: (): Query => ({
      status: oneOfParam(this.status(), ['open', 'closed'] as const),
      search: (this.search() ?? '').trim(),
      page: pageParam(this.page()),
      pageSize: pageSizeParam(this.pageSize()),
    }),
    load,
    filters: ['status', 'search'],
    filtered: (q) => !!(q.status || q.search),
  });
}

@Component({
  imports: [ListView],
  template: `
    <app-list-view [list]="list" [emptyMessage]="empty">
      <ul data-testid="rows">
        @for (row of list.rows(); track row) {
          <li>{{ row }}</li>
        }
      </ul>
    </app-list-view>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class LocalList {
  readonly owner = input<string>();
  readonly empty = 'empty';
  readonly list = localListPage({
    params: () => this.owner(),
    load: (owner, page, pageSize) => load({ owner, page, pageSize }),
    pageSize: 10,
  });
}

describe('list pages', () => {
  let navigate: jest.SpyInstance;

  beforeEach(() => {
    calls = [];
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
  });

  async function render<T>(
    component: new () => T,
    inputs: Record<string, unknown> = {},
  ): Promise<{ fixture: ComponentFixture<T>; root: HTMLElement }> {
    const fixture = TestBed.createComponent(component);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  const byTestId = (root: HTMLElement, id: string) =>
    root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  const rows = (root: HTMLElement) =>
    [...root.querySelectorAll('[data-testid="rows"] li')].map((li) => li.textContent!.trim());
  const button = (root: HTMLElement, label: string) =>
    [...root.querySelectorAll('button')].find((b) => b.textContent!.includes(label));

  describe('query string', () => {
    it('should load the query read from the URL, invalid values dropped', async () => {
      await render(UrlList, { status: 'closed', search: ' harbour ', page: '3', pageSize: '7' });
      expect(calls.map((c) => c.query)).toEqual([
        { status: 'closed', search: 'harbour', page: 3, pageSize: 20 },
      ]);
    });

    it('should write a filter to the URL, back to page 1, and load what the URL then says', async () => {
      const { fixture } = await render(UrlList, { page: '2' });
      fixture.componentInstance.list.navigate({ search: 'winter' });
      expect(navigate).toHaveBeenCalledWith([], {
        queryParams: { search: 'winter', page: null },
        queryParamsHandling: 'merge',
      });
      // The router binds the new params to the inputs.
      fixture.componentRef.setInput('search', 'winter');
      fixture.componentRef.setInput('page', undefined);
      await fixture.whenStable();
      expect(calls.map((c) => c.query)).toEqual([
        { status: '', search: '', page: 2, pageSize: 20 },
        { status: '', search: 'winter', page: 1, pageSize: 20 },
      ]);
    });

    it('should not load again when the URL changes but the query does not', async () => {
      const { fixture } = await render(UrlList, { status: 'open' });
      fixture.componentRef.setInput('search', '   ');
      fixture.componentRef.setInput('pageSize', '20');
      await fixture.whenStable();
      expect(calls).toHaveLength(1);
    });
  });

  describe('paging', () => {
    it('should show one paginator, and change page and size through the URL', async () => {
      const { fixture, root } = await render(UrlList);
      calls[0]!.resolve(pageOf(['a', 'b'], 45));
      await flushAndRender(fixture);
      expect(root.querySelectorAll('mat-paginator')).toHaveLength(1);
      expect(root.querySelector('.mat-mdc-paginator-range-label')!.textContent).toContain(
        '1 – 20 of 45',
      );
      root.querySelector<HTMLButtonElement>('.mat-mdc-paginator-navigation-next')!.click();
      expect(navigate).toHaveBeenLastCalledWith([], {
        queryParams: { page: 2, pageSize: 20 },
        queryParamsHandling: 'merge',
      });
    });

    it('should say "10,000+" when the API stopped counting', async () => {
      const { fixture, root } = await render(UrlList);
      calls[0]!.resolve({ ...pageOf(['a', 'b'], 10_000), totalCapped: true });
      await flushAndRender(fixture);
      expect(root.querySelector('.mat-mdc-paginator-range-label')!.textContent).toContain(
        '1 – 20 of 10,000+',
      );
      expect(fixture.componentInstance.list.totalCapped()).toBe(true);
    });

    it('should leave page 1 out of the URL', async () => {
      const { fixture } = await render(UrlList, { page: '2' });
      fixture.componentInstance.list.changePage({ pageIndex: 0, pageSize: 50, length: 45 });
      expect(navigate).toHaveBeenCalledWith([], {
        queryParams: { page: null, pageSize: 50 },
        queryParamsHandling: 'merge',
      });
    });

    it('should page a side list in memory, never touching the URL', async () => {
      const { fixture, root } = await render(LocalList, { owner: 'u-1' });
      expect(calls.map((c) => c.query)).toEqual([{ owner: 'u-1', page: 1, pageSize: 10 }]);
      calls[0]!.resolve(pageOf(['a'], 25, 1, 10));
      await flushAndRender(fixture);
      expect(root.querySelector('.mat-mdc-paginator-page-size')).toBeNull();
      root.querySelector<HTMLButtonElement>('.mat-mdc-paginator-navigation-next')!.click();
      await fixture.whenStable();
      expect(calls.map((c) => c.query)).toEqual([
        { owner: 'u-1', page: 1, pageSize: 10 },
        { owner: 'u-1', page: 2, pageSize: 10 },
      ]);
      expect(navigate).not.toHaveBeenCalled();
    });

    it('should load nothing while there is nothing to list', async () => {
      const { root } = await render(LocalList);
      expect(calls).toEqual([]);
      expect(root.querySelector('.skeleton')).not.toBeNull();
    });
  });

  describe('states', () => {
    it('should show a skeleton until the first rows, then the rows', async () => {
      const { fixture, root } = await render(UrlList);
      expect(root.querySelector('.skeleton[aria-busy="true"]')).not.toBeNull();
      expect(byTestId(root, 'rows')).toBeNull();
      calls[0]!.resolve(pageOf(['Winter Harbour', 'Summer Pier']));
      await flushAndRender(fixture);
      expect(root.querySelector('.skeleton')).toBeNull();
      expect(rows(root)).toEqual(['Winter Harbour', 'Summer Pier']);
    });

    it('should keep the rows under a progress bar while they reload', async () => {
      const { fixture, root } = await render(UrlList);
      calls[0]!.resolve(pageOf(['a']));
      await flushAndRender(fixture);
      fixture.componentInstance.list.reload();
      await fixture.whenStable();
      expect(calls).toHaveLength(2);
      expect(root.querySelector('mat-progress-bar')).not.toBeNull();
      expect(rows(root)).toEqual(['a']);
      calls[1]!.resolve(pageOf(['a', 'b']));
      await flushAndRender(fixture);
      expect(root.querySelector('mat-progress-bar')).toBeNull();
      expect(rows(root)).toEqual(['a', 'b']);
    });

    it("should show the list's own empty sentence and main action when nothing is filtered", async () => {
      const { fixture, root } = await render(UrlList);
      calls[0]!.resolve(pageOf([]));
      await flushAndRender(fixture);
      const empty = byTestId(root, 'things-empty')!;
      expect(empty.textContent).toContain('empty');
      expect(byTestId(empty, 'create')).not.toBeNull();
      expect(button(root, 'Clear filters')).toBeUndefined();
      expect(root.querySelector('mat-paginator')).toBeNull();
    });

    it('should offer Clear filters for a filtered empty list, clearing only the filters', async () => {
      const { fixture, root } = await render(UrlList, {
        status: 'open',
        page: '2',
        pageSize: '50',
      });
      calls[0]!.resolve(pageOf([], 0));
      await flushAndRender(fixture);
      expect(byTestId(root, 'things-empty')!.textContent).toContain(
        'No results for these filters.',
      );
      expect(byTestId(root, 'create')).toBeNull();
      button(root, 'Clear filters')!.click();
      expect(navigate).toHaveBeenCalledTimes(1);
      expect(navigate).toHaveBeenCalledWith([], {
        queryParams: { status: null, search: null, page: null },
        queryParamsHandling: 'merge',
      });
    });

    it('should show a failure with its reference and load again on Retry', async () => {
      const { fixture, root } = await render(UrlList);
      calls[0]!.reject(new ApiError(500, 'INTERNAL_ERROR', 'boom', 'req-9', undefined));
      await flushAndRender(fixture);
      const error = byTestId(root, 'things-error')!;
      expect(error.textContent).toContain('Something went wrong on the server.');
      expect(error.textContent).toContain('Reference: req-9');
      expect(byTestId(root, 'rows')).toBeNull();
      button(error, 'Retry')!.click();
      await fixture.whenStable();
      expect(calls).toHaveLength(2);
      calls[1]!.resolve(pageOf(['back']));
      await flushAndRender(fixture);
      expect(byTestId(root, 'things-error')).toBeNull();
      expect(rows(root)).toEqual(['back']);
    });

    it('should drop an answer that comes after a newer request', async () => {
      const { fixture, root } = await render(UrlList);
      fixture.componentRef.setInput('status', 'open');
      await fixture.whenStable();
      calls[1]!.resolve(pageOf(['open one']));
      calls[0]!.resolve(pageOf(['stale']));
      await flushAndRender(fixture);
      expect(rows(root)).toEqual(['open one']);
    });
  });

  describe('query params', () => {
    it('should read pages, page sizes, choices and days, anything else as no filter', () => {
      expect([
        pageParam('3'),
        pageParam('2.5'),
        pageParam('0'),
        pageParam('x'),
        pageParam(undefined),
      ]).toEqual([3, 2, 1, 1, 1]);
      expect([pageSizeParam('50'), pageSizeParam('7'), pageSizeParam(undefined)]).toEqual([
        50, 20, 20,
      ]);
      expect([
        oneOfParam('open', ['open'] as const),
        oneOfParam('shut', ['open'] as const),
      ]).toEqual(['open', '']);
      expect([dayParam('2026-02-01'), dayParam('yesterday'), dayParam(undefined)]).toEqual([
        '2026-02-01',
        '',
        '',
      ]);
    });
  });

  describe('paginator words', () => {
    it('should follow the active language', async () => {
      const intl = TestBed.runInInjectionContext(() => new TranslatedPaginatorIntl());
      expect(intl.getRangeLabel(0, 20, 45)).toBe('1 – 20 of 45');
      expect(intl.getRangeLabel(0, 20, 0)).toBe('0 – 0 of 0');
      const changed = jest.fn();
      intl.changes.subscribe(changed);
      TestBed.inject(TranslocoService).setActiveLang('zh-CN');
      expect(intl.nextPageLabel).toBe('下一页');
      expect(intl.getRangeLabel(1, 20, 45)).toBe('第 21 – 40 条，共 45 条');
      expect(changed).toHaveBeenCalled();
      expect(intl).toBeInstanceOf(MatPaginatorIntl);
    });
  });
});
