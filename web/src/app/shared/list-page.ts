import { type Signal, computed, inject, signal } from '@angular/core';
import type { PageEvent } from '@angular/material/paginator';
import { Router } from '@angular/router';
import type { Page } from '@usher/contracts/values';
import { type ApiResource, apiResource, sameParams } from '../core/api/api-resource';
import type { ErrorText } from '../core/api/error-text';

/** Page sizes a list offers (60-web.md §1 "URL state": 10/20/50). */
export const PAGE_SIZES: readonly number[] = [10, 20, 50];
export const DEFAULT_PAGE_SIZE = 20;

/** The paging part of a list query. */
export interface ListQuery {
  page: number;
  pageSize: number;
}

type QueryParams = Record<string, string | number | null>;

/**
 * One list of a page (60-web.md §1): rows loaded with `resource`, the loading, empty and error
 * states, and paging. `listPage` keeps the query in the URL, `localListPage` in memory for a
 * side list inside a page. `app-list-view` renders it.
 */
export interface ListPage<T> {
  readonly rows: Signal<T[] | null>;
  readonly total: Signal<number>;
  /** True when the API stopped counting at `total` (a log's 10 000+ entries). */
  readonly totalCapped: Signal<boolean>;
  readonly loading: Signal<boolean>;
  readonly error: Signal<ErrorText | null>;
  /** What the load threw, for pages that act on its code (a missing plugin, say). */
  readonly failure: Signal<unknown>;
  /** Whether a filter narrows the list: the empty state then offers to clear the filters. */
  readonly filtered: Signal<boolean>;
  readonly pageIndex: Signal<number>;
  readonly pageSize: Signal<number>;
  /** The page sizes offered; empty when the size is fixed. */
  readonly pageSizes: readonly number[];
  reload(): void;
  changePage(event: PageEvent): void;
  clearFilters(): void;
}

/** A list whose query lives in the URL: reload, back and shared links keep it. */
export interface UrlListPage<Q extends ListQuery, T> extends ListPage<T> {
  readonly query: Signal<Q>;
  /** Sets query params (merged); any change but paging goes back to page 1. */
  navigate(params: QueryParams, resetPage?: boolean): void;
}

function pageState<T>(data: ApiResource<Page<T>>) {
  return {
    rows: computed(() => data.value()?.data ?? null),
    total: computed(() => data.value()?.total ?? 0),
    totalCapped: computed(() => data.value()?.totalCapped === true),
    loading: data.loading,
    error: data.error,
    failure: data.failure,
    reload: () => data.reload(),
  };
}

/**
 * A list page whose filters, sort and paging are query params (bound to the component's inputs
 * by the router). `query` parses them, dropping invalid values; the list loads whenever the
 * parsed query changes, and not when it comes out the same. `filters` names the params
 * "Clear filters" removes. With `pageSizes: []` the page size is fixed and stays out of the URL.
 */
export function listPage<Q extends ListQuery, T>(options: {
  query: () => Q;
  /** Loads a page; pass `abort` on (`abortWith`) so a superseded query's request is cancelled. */
  load: (query: Q, abort: AbortSignal) => Promise<Page<T>>;
  filters: readonly string[];
  filtered: (query: Q) => boolean;
  pageSizes?: readonly number[];
  /** False while the list is not on screen (another tab): nothing loads. */
  active?: () => boolean;
}): UrlListPage<Q, T> {
  const router = inject(Router);
  const pageSizes = options.pageSizes ?? PAGE_SIZES;
  const query = computed(options.query, { equal: sameParams });
  const active = options.active ?? (() => true);
  const data = apiResource({
    params: () => (active() ? query() : undefined),
    load: options.load,
  });
  const navigate = (params: QueryParams, resetPage = true) =>
    void router.navigate([], {
      queryParams: { ...params, ...(resetPage ? { page: null } : {}) },
      queryParamsHandling: 'merge',
    });
  return {
    ...pageState(data),
    query,
    filtered: computed(() => options.filtered(query())),
    pageIndex: computed(() => query().page - 1),
    pageSize: computed(() => query().pageSize),
    pageSizes,
    navigate,
    changePage: (event) =>
      navigate(
        {
          page: event.pageIndex > 0 ? event.pageIndex + 1 : null,
          ...(pageSizes.length ? { pageSize: event.pageSize } : {}),
        },
        false,
      ),
    clearFilters: () => navigate(Object.fromEntries(options.filters.map((name) => [name, null]))),
  };
}

/** A side list of a page (a tab's history): paging in memory, the page's URL left alone. */
export function localListPage<P, T>(options: {
  /** What the list is of (a user id, say); undefined while there is nothing to load. */
  params: () => P | undefined;
  load: (params: P, page: number, pageSize: number, abort: AbortSignal) => Promise<Page<T>>;
  pageSize: number;
  pageSizes?: readonly number[];
}): ListPage<T> {
  const page = signal(1);
  const pageSize = signal(options.pageSize);
  const data = apiResource({
    params: () => {
      const params = options.params();
      return params === undefined ? undefined : { params, page: page(), pageSize: pageSize() };
    },
    load: (q, abort) => options.load(q.params, q.page, q.pageSize, abort),
  });
  return {
    ...pageState(data),
    filtered: signal(false),
    pageIndex: computed(() => page() - 1),
    pageSize,
    pageSizes: options.pageSizes ?? [],
    changePage: (event) => {
      page.set(event.pageIndex + 1);
      pageSize.set(event.pageSize);
    },
    clearFilters: () => undefined,
  };
}

/** `?page=` as a page number: whole and at least 1, anything else is page 1. */
/** A page with nothing on it (a filter that can match nobody, answered without asking). */
export const emptyPage = <T>(page: number, pageSize: number): Page<T> => ({
  data: [],
  total: 0,
  page,
  pageSize,
});

export function pageParam(value: unknown): number {
  const page = Math.floor(Number(value));
  return Number.isFinite(page) && page >= 1 ? page : 1;
}

/** `?pageSize=` when it is one the list offers, else the default. */
export function pageSizeParam(value: unknown, sizes: readonly number[] = PAGE_SIZES): number {
  const size = Number(value);
  return sizes.includes(size) ? size : DEFAULT_PAGE_SIZE;
}

/** A query param that must be one of `allowed`; anything else is '' (no filter). */
export function oneOfParam<T extends string>(
  value: string | null | undefined,
  allowed: readonly T[],
): T | '' {
  return value && (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar-day query param `YYYY-MM-DD`; anything else is '' (no filter). */
export function dayParam(value: string | null | undefined): string {
  return value && DAY.test(value) ? value : '';
}
