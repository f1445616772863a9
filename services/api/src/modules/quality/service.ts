// Reads of the media-quality pages (20-api.md §6 "Playback, sessions, quality") and the scan
// start. Reports come from `media_quality_reports`; `all` is summed on read.
import type {
  PaginationQuery,
  QualityGroupDetail,
  QualityLibraryList,
  QualityReport,
} from '@usher/contracts';
import { auditCaller } from '../../audit-log/audit.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import {
  addCounts,
  byWorst,
  emptyCodec,
  emptyHdr,
  emptyResolution,
  REPORT_SCHEMA_VERSION,
  type StoredGroup,
  type StoredReport,
} from './report.js';
import { reportBodies, reportHeads, runningScanTargets, type ReportHead } from './queries.js';
import { QUALITY_SCAN_JOB, videoLibraries } from './scan.js';

const ALL = 'all';
const ABANDONED_MS = 3_600_000;

type State = 'fresh' | 'stale' | 'missing';

/** A library's row and its stored report (null: none yet, or an older shape). */
interface LibraryReport {
  head: ReportHead;
  report: StoredReport | null;
}

/**
 * Parsed reports by database, each with the row version it was read from (issue 33): a report
 * of a 50 000-item library holds every low-quality item, and reading and parsing it on every page
 * cost 50–170 ms. A read now fetches the rows without their reports and only the reports whose
 * row changed since (a scan, on any replica); the `all` view's sorted groups are kept per set of
 * versions.
 */
const caches = new WeakMap<
  Database,
  { reports: Map<string, { version: string; report: StoredReport | null }>; all?: AllGroups }
>();

interface AllGroups {
  key: string;
  groups: StoredGroup[];
}

function parsed(head: ReportHead, report: unknown): StoredReport | null {
  if (!report || head.schemaVersion !== REPORT_SCHEMA_VERSION) return null;
  return report as StoredReport;
}

/** Every library's row and report, from the cache where the row has not changed. */
async function loadReports(db: Database): Promise<Map<string, LibraryReport>> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { reports: new Map() }));
  const heads = await reportHeads(db);
  const changed = [...heads.values()]
    .filter((h) => cache.reports.get(h.libraryId)?.version !== h.version)
    .map((h) => h.libraryId);
  for (const body of await reportBodies(db, changed)) {
    const head = heads.get(body.libraryId);
    if (head)
      cache.reports.set(body.libraryId, {
        version: body.version,
        report: parsed(head, body.report),
      });
  }
  for (const id of cache.reports.keys()) if (!heads.has(id)) cache.reports.delete(id);
  const out = new Map<string, LibraryReport>();
  for (const [id, head] of heads) {
    const cached = cache.reports.get(id);
    // A row updated between the two reads: its report is read again on the next call.
    out.set(id, { head, report: cached?.version === head.version ? cached.report : null });
  }
  return out;
}

/** Every library's low-quality groups, worst first, sorted once per set of reports. */
function allGroups(db: Database, libs: Map<string, LibraryReport>): StoredGroup[] {
  const cache = caches.get(db)!;
  const key = [...libs.values()].map((l) => `${l.head.libraryId}:${l.head.version}`).join(',');
  if (cache.all?.key === key) return cache.all.groups;
  const groups = [...libs.values()].flatMap((l) => l.report?.groups ?? []).sort(byWorst);
  cache.all = { key, groups };
  return groups;
}

function stored(lib: LibraryReport | undefined): StoredReport | null {
  return lib?.report ?? null;
}

function stateOf(lib: LibraryReport | undefined, now: Date): State {
  if (!stored(lib)) return 'missing';
  const expiresAt = lib!.head.expiresAt;
  return expiresAt && expiresAt.getTime() > now.getTime() ? 'fresh' : 'stale';
}

/** Library ids a running scan covers (`all` covers every one). */
async function scanningTargets(ctx: ModuleContext): Promise<Set<string>> {
  const since = new Date(ctx.now().getTime() - ABANDONED_MS);
  const targets = await runningScanTargets(ctx.db, QUALITY_SCAN_JOB, since);
  return new Set(targets.map((t) => t ?? ALL));
}

const scanningOf = (targets: Set<string>, id: string) => targets.has(ALL) || targets.has(id);

export async function listQualityLibraries(ctx: ModuleContext): Promise<QualityLibraryList> {
  const server = await ctx.integrations.mediaServer.get();
  const libraries = videoLibraries(await server.libraries());
  const [rows, targets] = await Promise.all([loadReports(ctx.db), scanningTargets(ctx)]);
  const now = ctx.now();
  return {
    data: libraries.map((lib) => {
      const row = rows.get(lib.id);
      return {
        libraryId: lib.id,
        name: lib.name,
        collectionType: lib.collectionType ?? null,
        report: {
          state: stateOf(row, now),
          computedAt: row?.head.computedAt?.toISOString() ?? null,
          itemCount: stored(row) ? row!.head.itemCount : 0,
          scanning: scanningOf(targets, lib.id),
          scanError: row?.head.scanError ?? null,
        },
      };
    }),
  };
}

function pageGroups(groups: StoredGroup[], q: PaginationQuery): QualityReport['lowQuality'] {
  const data = groups
    .slice((q.page - 1) * q.pageSize, q.page * q.pageSize)
    .map(({ items, ...g }) => ({ ...g, itemCount: items.length }));
  return { data, total: groups.length, page: q.page, pageSize: q.pageSize };
}

/** The library's name: from its stored row, else from the media server (404 when unknown there). */
async function libraryName(
  ctx: ModuleContext,
  id: string,
  row: LibraryReport | undefined,
): Promise<string> {
  if (row) return row.head.libraryName;
  const server = await ctx.integrations.mediaServer.get();
  const lib = videoLibraries(await server.libraries()).find((l) => l.id === id);
  if (!lib) throw new AppError('LIBRARY_NOT_FOUND', 'No such library on the media server');
  return lib.name;
}

export async function qualityReport(
  ctx: ModuleContext,
  libraryId: string,
  q: PaginationQuery,
): Promise<QualityReport> {
  const [rows, targets] = await Promise.all([loadReports(ctx.db), scanningTargets(ctx)]);
  const now = ctx.now();
  if (libraryId !== ALL) {
    const row = rows.get(libraryId);
    const name = await libraryName(ctx, libraryId, row);
    const report = stored(row);
    return {
      library: { id: libraryId, name },
      state: stateOf(row, now),
      computedAt: report ? (row!.head.computedAt?.toISOString() ?? null) : null,
      scanning: scanningOf(targets, libraryId),
      itemCount: report ? row!.head.itemCount : 0,
      resolution: report?.resolution ?? emptyResolution(),
      codec: report?.codec ?? emptyCodec(),
      hdr: report?.hdr ?? emptyHdr(),
      lowQuality: pageGroups(report?.groups ?? [], q),
      failedLibraries: [],
    };
  }
  const resolution = emptyResolution();
  const codec = emptyCodec();
  const hdr = emptyHdr();
  let itemCount = 0;
  let oldest: Date | null = null;
  let anyStale = false;
  let anyReport = false;
  const failedLibraries: QualityReport['failedLibraries'] = [];
  for (const row of rows.values()) {
    const { head, report } = row;
    if (head.scanError) {
      failedLibraries.push({ id: head.libraryId, name: head.libraryName, error: head.scanError });
    }
    if (!report) continue;
    anyReport = true;
    if (stateOf(row, now) === 'stale') anyStale = true;
    if (head.computedAt && (!oldest || head.computedAt < oldest)) oldest = head.computedAt;
    itemCount += head.itemCount;
    addCounts(resolution, report.resolution);
    addCounts(codec, report.codec);
    addCounts(hdr, report.hdr);
  }
  return {
    library: { id: ALL, name: 'All libraries' },
    state: !anyReport ? 'missing' : anyStale ? 'stale' : 'fresh',
    computedAt: oldest?.toISOString() ?? null,
    scanning: targets.size > 0,
    itemCount,
    resolution,
    codec,
    hdr,
    lowQuality: pageGroups(allGroups(ctx.db, rows), q),
    failedLibraries,
  };
}

export async function qualityGroup(
  ctx: ModuleContext,
  libraryId: string,
  groupId: string,
): Promise<QualityGroupDetail> {
  const rows = await loadReports(ctx.db);
  const candidates = libraryId === ALL ? [...rows.values()] : [rows.get(libraryId)];
  for (const row of candidates) {
    const group = stored(row)?.groups.find((g) => g.groupId === groupId);
    if (!group) continue;
    const { items, ...g } = group;
    const seasons = new Map<number | null, number>();
    for (const i of items) seasons.set(i.season, (seasons.get(i.season) ?? 0) + 1);
    return {
      group: { ...g, itemCount: items.length },
      items,
      seasons: [...seasons.entries()].map(([season, itemCount]) => ({ season, itemCount })),
    };
  }
  throw new AppError('QUALITY_GROUP_NOT_FOUND', 'No such title in the latest quality report');
}

/**
 * Starts the scan job (202). The library must exist on the media server; one scan runs at a time
 * (the job lease), so a second start answers 409 `SCAN_IN_PROGRESS`.
 */
export async function startScan(
  ctx: ModuleContext,
  libraryId: string,
  caller: Caller,
): Promise<{ scanStartedAt: string; runId: string }> {
  const server = await ctx.integrations.mediaServer.get();
  if (libraryId !== ALL) {
    const libs = videoLibraries(await server.libraries());
    if (!libs.some((l) => l.id === libraryId)) {
      throw new AppError('LIBRARY_NOT_FOUND', 'No such library on the media server');
    }
  }
  const scanStartedAt = ctx.now().toISOString();
  let runId: string;
  try {
    ({ runId } = await ctx.scheduler.runNow(QUALITY_SCAN_JOB, {
      triggeredBy: caller.auth.userId,
      params: { libraryId },
    }));
  } catch (err) {
    if (err instanceof AppError && err.code === 'JOB_RUNNING') {
      throw new AppError('SCAN_IN_PROGRESS', 'A quality scan is already running');
    }
    throw err;
  }
  await auditCaller(
    ctx.db,
    caller,
    'media_quality.scan',
    { type: 'library', id: libraryId },
    { runId },
  );
  return { scanStartedAt, runId };
}
