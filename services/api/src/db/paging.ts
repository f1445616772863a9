// Offset and keyset pagination and LIKE search, shared by every paginated list (20-api.md §1.4).
import { and, count, eq, gt, gte, is, lt, or, SQL, sql, type Subquery } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { nextDay, startOfZonedDay } from '../time/zoned-day.js';
import type { Database } from './client.js';
import { queryRows } from './sql.js';

export interface PageQuery {
  page: number;
  pageSize: number;
}

export interface PageResult<T> {
  data: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One page: runs the row query with the page's limit and offset next to the count, and returns
 * the list reply. `rows` receives `(limit, offset)`; `total` is the matching row count.
 */
export async function paginate<T>(
  query: PageQuery,
  total: Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<PageResult<T>> {
  const [data, n] = await Promise.all([
    rows(query.pageSize, (query.page - 1) * query.pageSize),
    total,
  ]);
  return { data, total: n, page: query.page, pageSize: query.pageSize };
}

/**
 * Lists over tables that grow without bound (the audit log, redemptions) count at most this many
 * matching rows: an exact `count(*)` of 500 000 rows costs a scan of the table on every page
 * (issue 33), and nobody pages to entry 10 001 of a log — they filter. Past it the reply says
 * `total: 10000, totalCapped: true` and the console shows "10 000+".
 */
export const COUNT_CAP = 10_000;

/** A row count that stopped at `COUNT_CAP`. */
export interface CappedTotal {
  n: number;
  capped: boolean;
}

/**
 * Counts the rows of `rows` (a select of the list's table with its filters, no order, or a SQL
 * row source) up to `cap`: `select count(*) from (… limit cap + 1)`, which stops reading at the
 * first row past it.
 */
export async function countUpTo(
  db: Database,
  rows: SQL | { limit(n: number): { as(alias: string): Subquery } },
  cap = COUNT_CAP,
): Promise<CappedTotal> {
  const [row] = is(rows, SQL)
    ? await queryRows<{ n: number | string }>(
        db,
        sql`select count(*)::int as n from (${rows} limit ${cap + 1}) counted`,
      )
    : await db.select({ n: count() }).from(rows.limit(cap + 1).as('counted'));
  const n = Number(row?.n ?? 0);
  return n > cap ? { n: cap, capped: true } : { n, capped: false };
}

/** `paginate` with a capped count: the reply adds `totalCapped`. */
export async function paginateCapped<T>(
  query: PageQuery,
  total: Promise<CappedTotal>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<PageResult<T> & { totalCapped: boolean }> {
  let totalCapped = false;
  const counted = total.then(({ n, capped }) => ((totalCapped = capped), n));
  return { ...(await paginate(query, counted, rows)), totalCapped };
}

/** A select of nothing but a constant, the row source `countUpTo` counts. */
export const one = { one: sql<number>`1` };

/** `count(*)` of a table (optionally filtered), for `paginate`. */
export async function countRows(db: Database, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/**
 * A page of one table's rows, filtered by `where`, in `order`, each mapped by `map`: the list
 * reply of the plain admin lists (job runs, plans, payments).
 */
export function tablePage<T extends PgTable, R>(
  db: Database,
  query: PageQuery,
  table: T,
  filter: { where?: SQL; order: (PgColumn | SQL)[] },
  map: (row: T['$inferSelect']) => R,
): Promise<PageResult<R>> {
  return paginate(query, countRows(db, table, filter.where), async (limit, offset) => {
    const rows = await db
      .select()
      .from(table as PgTable)
      .where(filter.where)
      .orderBy(...filter.order)
      .limit(limit)
      .offset(offset);
    return (rows as T['$inferSelect'][]).map(map);
  });
}

/** LIKE metacharacters in user input are matched literally (PostgreSQL's default `\` escape). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A `%…%` pattern that finds the text anywhere. */
export const containing = (text: string): string => `%${escapeLike(text)}%`;

/**
 * Filters for an inclusive range of calendar days (`YYYY-MM-DD`) in a time zone: from the start
 * of `from` to the start of the day after `to`. Either end may be missing.
 */
export function dayRange(
  column: PgColumn,
  range: { from?: string; to?: string },
  timeZone: string,
): SQL[] {
  const filters: SQL[] = [];
  if (range.from) filters.push(gte(column, startOfZonedDay(range.from, timeZone)));
  if (range.to) filters.push(lt(column, startOfZonedDay(nextDay(range.to), timeZone)));
  return filters;
}

/**
 * Keyset paging on the ordered pair of columns (`first`, `second`): the rows after `after`'s
 * pair in that order; no condition for the first page (`after` null).
 */
export function afterPair<A, B>(
  first: PgColumn,
  second: PgColumn,
  after: readonly [A, B] | null,
): SQL | undefined {
  if (!after) return undefined;
  return or(gt(first, after[0]), and(eq(first, after[0]), gt(second, after[1])));
}
