import type { ChipSpec, Column, MenuSpec } from './data-table';

/**
 * Builders of the columns every list repeats (issue 34): the moment a row happened, its status
 * chip and its "⋮" menu. Each returns a plain `Column<T>`; `extra` adds or overrides any of its
 * fields (a sort key, another width), so a page still writes every other column by hand.
 */
type Extra<T> = Partial<Column<T>>;

/**
 * When the row happened: the day over the time, in the `datetime` width.
 * `whenColumn('created', 'adminPayments.col.created', (p) => p.createdAt)`.
 */
export function whenColumn<T>(
  id: string,
  header: string,
  date: (row: T) => string | null | undefined,
  extra: Extra<T> = {},
): Column<T> {
  return { id, header, width: 'datetime', date, time: true, ...extra };
}

/** The row's status as a chip, in the `status` width. */
export function chipColumn<T>(
  id: string,
  header: string,
  chip: (row: T) => ChipSpec,
  extra: Extra<T> = {},
): Column<T> {
  return { id, header, width: 'status', chip, ...extra };
}

/**
 * The row's "⋮" menu, headed "Actions" for screen readers only, in the `menu` width (pass
 * `{ width: undefined }` for a table that lets it take its share).
 */
export function menuColumn<T>(menu: (row: T) => MenuSpec, extra: Extra<T> = {}): Column<T> {
  return { id: 'menu', header: 'common.actions', hideHeader: true, width: 'menu', menu, ...extra };
}
