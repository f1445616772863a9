// SQL of the quality module: one `media_quality_reports` row per library (the report, or the
// marker of a scan in flight) and the scan runs a library is covered by.
import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { mediaQualityReports, type MediaQualityReportRow } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import type { Library } from '../../integrations/media-server/index.js';

/** A row without its report, and the row's version (`xmin`: it changes with every update). */
export type ReportHead = Omit<MediaQualityReportRow, 'report'> & { version: string };

/** Every row without its report (which may be megabytes), by library id. */
export async function reportHeads(db: Database): Promise<Map<string, ReportHead>> {
  const { report: _report, ...columns } = getTableColumns(mediaQualityReports);
  const rows = await db
    .select({ ...columns, version: sql<string>`xmin::text` })
    .from(mediaQualityReports);
  return new Map(rows.map((r) => [r.libraryId, r]));
}

/** The reports of `libraryIds`, each with the version of the row it was read from. */
export async function reportBodies(
  db: Database,
  libraryIds: string[],
): Promise<{ libraryId: string; report: unknown; version: string }[]> {
  if (libraryIds.length === 0) return [];
  return db
    .select({
      libraryId: mediaQualityReports.libraryId,
      report: mediaQualityReports.report,
      version: sql<string>`xmin::text`,
    })
    .from(mediaQualityReports)
    .where(inArray(mediaQualityReports.libraryId, libraryIds));
}

/** The `libraryId` param (null for all) of each run of `job` still running, started after `since`. */
export async function runningScanTargets(
  db: Database,
  job: string,
  since: Date,
): Promise<(string | null)[]> {
  const rows = await queryRows<{ target: string | null }>(
    db,
    sql`select params->>'libraryId' as target from job_runs
        where job_name = ${job} and status = 'running' and started_at > ${since.toISOString()}`,
  );
  return rows.map((r) => r.target);
}

/** The in-flight marker of a library's scan; the report of an earlier scan stays. */
export async function markScanStarted(db: Database, lib: Library, now: Date): Promise<void> {
  await db
    .insert(mediaQualityReports)
    .values({
      libraryId: lib.id,
      libraryName: lib.name,
      collectionType: lib.collectionType ?? null,
      scanStartedAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: mediaQualityReports.libraryId,
      set: { libraryName: lib.name, scanStartedAt: now, updatedAt: now },
    });
}

/** A finished scan's report replaces the library's row and clears the marker and error. */
export async function storeReport(
  db: Database,
  lib: Library,
  report: { itemCount: number; report: unknown; schemaVersion: number },
  now: Date,
  ttlMs: number,
): Promise<void> {
  await db
    .update(mediaQualityReports)
    .set({
      libraryName: lib.name,
      collectionType: lib.collectionType ?? null,
      itemCount: report.itemCount,
      report: report.report,
      schemaVersion: report.schemaVersion,
      computedAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
      scanStartedAt: null,
      scanError: null,
      updatedAt: now,
    })
    .where(eq(mediaQualityReports.libraryId, lib.id));
}

/** A failed scan clears the marker and keeps the previous report. */
export async function recordScanError(
  db: Database,
  libraryId: string,
  message: string,
  now: Date,
): Promise<void> {
  await db
    .update(mediaQualityReports)
    .set({ scanStartedAt: null, scanError: message, updatedAt: now })
    .where(eq(mediaQualityReports.libraryId, libraryId));
}
