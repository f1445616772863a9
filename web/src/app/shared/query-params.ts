import { HttpParams } from '@angular/common/http';

/**
 * A list's filters as query params, the empty ones ('' , null, undefined) left out so the query
 * string carries only what filters (issue 34: eight API services each had their own copy).
 */
export function filterParams(query: object): HttpParams {
  let result = new HttpParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== '' && value !== null && value !== undefined) result = result.set(key, value);
  }
  return result;
}
