import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './values.js';

/** ISO 8601 UTC instant with milliseconds, as every reply renders time. */
export const isoInstant = z.iso.datetime({ offset: false, precision: 3 });

/** UUID v7 ids (10-data.md §1) — validated loosely as any RFC 9562 UUID. */
export const uuidSchema = z.uuid();

/** `page` / `pageSize` query parameters (20-api.md §1.4). */
export const paginationQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

/** Builds the list reply schema `{data, total, page, pageSize}` for an item schema. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}
