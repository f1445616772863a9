import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './values.js';

/**
 * Text PostgreSQL can store and every client can render: no NUL (PostgreSQL refuses 0x00 in text
 * and jsonb) and no lone UTF-16 surrogate (not valid Unicode; encoded to UTF-8 it silently becomes
 * U+FFFD). The one test every string of every request schema runs (issue 16).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what it looks for.
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** A string schema that refuses NUL and lone surrogates; use it for every string field. */
export function safeString() {
  return z.string().refine(isSafeText, { message: UNSAFE_TEXT_MESSAGE });
}

/** Whether every string inside a JSON value (keys included) is safe text. */
export function isSafeJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === 'string') return isSafeText(value);
  if (Array.isArray(value)) return value.every((v) => isSafeJson(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.entries(value).every(([k, v]) => isSafeText(k) && isSafeJson(v, depth + 1));
  }
  return true;
}

/** Free-form JSON objects of a request (job params, bot payloads): keys and strings safe. */
export function safeJsonRecord() {
  return z.record(safeString(), z.unknown()).refine(isSafeJson, { message: UNSAFE_TEXT_MESSAGE });
}

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

/**
 * The list reply of a list whose count stops at 10 000 matching rows (the audit log,
 * redemptions): `total` is then 10 000 and `totalCapped` true ("10 000+").
 */
export function cappedPageOf<T extends z.ZodType>(item: T) {
  return pageOf(item).extend({
    totalCapped: z
      .boolean()
      .describe('true when more than `total` (10 000) rows match: the count stopped there'),
  });
}

/** Builds the list reply schema `{data, total, page, pageSize}` for an item schema. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}
