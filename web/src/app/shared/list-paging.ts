import { pageParam, pageSizeParam } from './list-page';

/**
 * The page and page size of a routed list from its `?page=` and `?pageSize=` (issue 34): what
 * every list page's query spreads in (`...paging(this.page(), this.pageSize())`), each value
 * checked as `pageParam` and `pageSizeParam` do.
 */
export function paging(page: unknown, pageSize: unknown): { page: number; pageSize: number } {
  return { page: pageParam(page), pageSize: pageSizeParam(pageSize) };
}
