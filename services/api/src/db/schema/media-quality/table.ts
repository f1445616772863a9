import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';

/**
 * Per-library cache of the quality scan (10-data.md `media_quality_reports`); the `all` view is
 * aggregated on read. `report` holds the stored report (modules/quality/report.ts), null until
 * the first scan finishes; the items behind the low-quality groups live in it too.
 */
export const mediaQualityReports = pgTable(
  'media_quality_reports',
  {
    libraryId: text('library_id').primaryKey(),
    libraryName: text('library_name').notNull(),
    collectionType: text('collection_type'),
    itemCount: integer('item_count').notNull().default(0),
    report: jsonb('report'),
    schemaVersion: smallint('schema_version').notNull().default(1),
    computedAt: instant('computed_at'),
    expiresAt: instant('expires_at'),
    /** In-flight marker; older than 1 h counts as abandoned. */
    scanStartedAt: instant('scan_started_at'),
    scanError: text('scan_error'),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('media_quality_reports_scan_error_len_ck', sql`char_length(${t.scanError}) <= 500`),
  ],
);
export type MediaQualityReportRow = typeof mediaQualityReports.$inferSelect;
