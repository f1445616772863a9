// The `media_quality_scan` job (30-settings.md §9, manual only; also `POST …/scan`): one library
// or all of them in turn, read 200 items a page with their streams, so a library of any size
// scans in flat memory. Progress is written to the run's summary after every page (the admin
// polls `GET /admin/job-runs/:runId`). A failed library keeps its previous report and records
// `scan_error`; the report is replaced only when a scan of that library finishes.
import { IntegrationError } from '../../integrations/errors.js';
import type { Library, MediaServer } from '../../integrations/media-server/index.js';
import { writeRunProgress } from '../../scheduler/progress.js';
import type { JobDefinition, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { markScanStarted, recordScanError, storeReport } from './queries.js';
import { REPORT_SCHEMA_VERSION, ReportBuilder } from './report.js';

export const QUALITY_SCAN_JOB = 'media_quality_scan';
export const PAGE_SIZE = 200;
const REPORT_TTL_MS = 24 * 3_600_000;
/** Libraries without video are left out of the quality pages. */
const NO_VIDEO = new Set([
  'music',
  'books',
  'photos',
  'livetv',
  'audiobooks',
  'playlists',
  'boxsets',
]);

export function videoLibraries(libraries: Library[]): Library[] {
  return libraries.filter((l) => !NO_VIDEO.has(l.collectionType ?? ''));
}

interface Progress {
  libraryId: string;
  libraries: number;
  librariesDone: number;
  currentLibrary: string | null;
  itemsTotal: number;
  itemsScanned: number;
}

async function writeProgress(ctx: ModuleContext, runId: string, progress: Progress) {
  await writeRunProgress(ctx.db, runId, { ...progress });
}

async function scanLibrary(
  ctx: ModuleContext,
  server: MediaServer,
  lib: Library,
  run: Pick<JobRunContext, 'runId' | 'signal'>,
  progress: Progress,
): Promise<number> {
  const builder = new ReportBuilder();
  let start = 0;
  let total = Infinity;
  const before = progress.itemsTotal;
  while (start < total) {
    if (run.signal.aborted) throw new Error('scan stopped by a shutdown');
    const page = await server.items({
      parentId: lib.itemId,
      types: ['Movie', 'Episode'],
      start,
      limit: PAGE_SIZE,
      streams: true,
    });
    total = page.total;
    progress.itemsTotal = before + total;
    for (const item of page.items) builder.add(item);
    start += PAGE_SIZE;
    progress.itemsScanned += page.items.length;
    await writeProgress(ctx, run.runId, progress);
    if (page.items.length === 0) break;
  }
  const report = {
    itemCount: builder.count,
    report: builder.build(),
    schemaVersion: REPORT_SCHEMA_VERSION,
  };
  await storeReport(ctx.db, lib, report, ctx.now(), REPORT_TTL_MS);
  return builder.count;
}

export async function runQualityScan(
  ctx: ModuleContext,
  run: Pick<JobRunContext, 'runId' | 'signal' | 'params' | 'logger'>,
) {
  const target = typeof run.params?.libraryId === 'string' ? run.params.libraryId : 'all';
  let server: MediaServer;
  try {
    server = await ctx.integrations.mediaServer.get();
  } catch (err) {
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped' as const, summary: { reason: 'media server not configured' } };
    }
    throw err;
  }
  const all = videoLibraries(await server.libraries());
  const libs = target === 'all' ? all : all.filter((l) => l.id === target);
  if (libs.length === 0) throw new Error(`No library ${target.slice(0, 64)} on the media server`);
  const now = ctx.now();
  // The in-flight markers, one row per library (the report of an earlier scan stays).
  for (const lib of libs) await markScanStarted(ctx.db, lib, now);
  const progress: Progress = {
    libraryId: target,
    libraries: libs.length,
    librariesDone: 0,
    currentLibrary: null,
    itemsTotal: 0,
    itemsScanned: 0,
  };
  const scanned: Record<string, number> = {};
  const failed: { id: string; error: string }[] = [];
  for (const lib of libs) {
    progress.currentLibrary = lib.id;
    try {
      scanned[lib.id] = await scanLibrary(ctx, server, lib, run, progress);
    } catch (err) {
      const message = (
        err instanceof IntegrationError ? err.message : 'the scan failed unexpectedly'
      ).slice(0, 500);
      run.logger.warn({ err, libraryId: lib.id }, 'quality scan of a library failed');
      failed.push({ id: lib.id, error: message });
      await recordScanError(ctx.db, lib.id, message, ctx.now());
      if (run.signal.aborted) break;
    }
    progress.librariesDone += 1;
  }
  progress.currentLibrary = null;
  const summary = { progress, scanned, failed };
  if (failed.length === libs.length) {
    throw new Error(`Quality scan failed: ${failed.map((f) => f.error).join('; ')}`.slice(0, 1000));
  }
  return { summary };
}

export function qualityJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    {
      name: QUALITY_SCAN_JOB,
      description: 'Reads the streams of a library (param libraryId) or of all libraries',
      schedule: '0 0 1 1 *',
      manualOnly: true,
      run: (run) => runQualityScan(ctx, run),
    },
  ];
}
