// Offset pagination and LIKE search, shared by every paginated list (20-api.md §1.4).
import { count, gte, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { nextDay, startOfZonedDay } from '../time/zoned-day.js';
import type { Database } from './client.js';

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
