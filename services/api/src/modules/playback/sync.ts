// The `playback_sync` job (issue 33, docs/media.md "The plays copy"): copies the Playback
// Reporting plugin's rows into `playback_plays`, `BATCH` rows a query by the plugin's rowid.
// Each batch is read from the plugin with no transaction open, then stored and the cursor moved
// in one short transaction, so a run stopped anywhere resumes from its last stored batch and a
// batch read twice is upserted, not duplicated. The first run is the backfill; later runs also
// re-read the rows of the last `REFRESH_HOURS` (the plugin updates a play's duration while it
// goes on), from the lowest rowid the copy holds for them.
import type { MediaServer } from '../../integrations/media-server/index.js';
import { IntegrationError } from '../../integrations/errors.js';
import { withTransaction } from '../../db/transaction.js';
import { writeRunProgress } from '../../scheduler/progress.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { pluginRows } from './plays.js';
import { firstRowidSince, saveSyncState, syncState, upsertPlays } from './queries.js';

export const PLAYBACK_SYNC_JOB = 'playback_sync';
/** Plugin rows per query: ~1 MB of JSON, the most the job holds at once. */
export const PLAYBACK_SYNC_BATCH = 5000;
/** Plays younger than this are read again on every run. */
export const REFRESH_HOURS = 24;
/** How long the copy keeps a play (the `cleanup` rule `playback_plays`); older rows are not copied. */
export const PLAYS_RETENTION_DAYS = 730;

const HOUR_MS = 3_600_000;

/** The one read the sync sends: rows after a rowid, in rowid order (an index range in SQLite). */
export function pluginBatchSql(afterRowid: number, limit: number): string {
  if (!Number.isSafeInteger(afterRowid) || afterRowid < 0) throw new Error('Not a rowid');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100_000) throw new Error('Not a limit');
  return (
    'SELECT rowid AS RowId, DateCreated, UserId, ItemId, ItemType, ItemName, PlaybackMethod, ' +
    `ClientName, DeviceName, PlayDuration FROM PlaybackActivity WHERE rowid > ${afterRowid} ` +
    `ORDER BY rowid LIMIT ${limit}`
  );
}

/** The plugin's last rowid (0 when empty): SQLite answers it from the table's b-tree end. */
export const PLUGIN_LAST_ROWID_SQL =
  'SELECT COALESCE(MAX(rowid), 0) AS LastRowId FROM PlaybackActivity';

export interface SyncSummary extends Record<string, unknown> {
  /** Where this run started reading (rows after this rowid). */
  from: number;
  cursor: number;
  lastRowId: number;
  batches: number;
  rowsRead: number;
  rowsStored: number;
  /** The plugin's table was emptied or rebuilt (its last rowid below the cursor): read again from 0. */
  restarted: boolean;
  backfill: boolean;
  complete: boolean;
}

/** One run: every plugin row after the cursor (and the refresh window), batch by batch. */
export async function syncPlays(
  ctx: ModuleContext,
  ms: MediaServer,
  run: Pick<JobRunContext, 'runId' | 'signal'>,
  batch = PLAYBACK_SYNC_BATCH,
): Promise<SyncSummary> {
  const state = await syncState(ctx.db);
  const now = ctx.now();
  const last = await ms.playbackQuery(PLUGIN_LAST_ROWID_SQL);
  const lastRowId = Number(last.rows[0]?.[last.columns.indexOf('LastRowId')] ?? 0) || 0;
  let cursor = state?.cursor ?? 0;
  const restarted = cursor > lastRowId;
  if (restarted) cursor = 0;
  const backfill = !state?.backfilledAt || restarted;
  // Plays still going on when copied: their rows again, from the lowest rowid the copy holds.
  const refreshFrom = backfill
    ? null
    : await firstRowidSince(ctx.db, new Date(now.getTime() - REFRESH_HOURS * HOUR_MS));
  let after = refreshFrom !== null ? Math.min(cursor, refreshFrom - 1) : cursor;
  const summary: SyncSummary = {
    from: after,
    cursor,
    lastRowId,
    batches: 0,
    rowsRead: 0,
    rowsStored: 0,
    restarted,
    backfill,
    complete: false,
  };
  const oldest = now.getTime() - PLAYS_RETENTION_DAYS * 24 * HOUR_MS;
  for (;;) {
    if (run.signal.aborted) return summary;
    const result = await ms.playbackQuery(pluginBatchSql(after, batch));
    const rowidAt = result.columns.indexOf('RowId');
    const rowids = result.rows.map((r) => Number(r[rowidAt]));
    // The cursor only moves on rowids that are integers above it (a reply that is not is a bug).
    if (rowids.some((id, i) => !Number.isSafeInteger(id) || id <= (i ? rowids[i - 1]! : after))) {
      throw new Error('The Playback Reporting plugin sent rows out of rowid order');
    }
    const plays = pluginRows(result, ms.timeZone).filter((p) => p.at.getTime() >= oldest);
    const end = rowids.length ? rowids[rowids.length - 1]! : after;
    const done = rowids.length < batch;
    cursor = Math.max(cursor, end);
    await withTransaction(ctx.db, async (tx) => {
      await upsertPlays(tx, plays);
      await saveSyncState(tx, {
        cursor,
        copied: plays.length,
        now: ctx.now(),
        backfilled: done,
      });
    });
    summary.batches += 1;
    summary.rowsRead += rowids.length;
    summary.rowsStored += plays.length;
    summary.cursor = cursor;
    after = end;
    if (done) {
      summary.complete = true;
      return summary;
    }
    await writeRunProgress(ctx.db, run.runId, { ...summary });
  }
}

async function runSync(ctx: ModuleContext, run: JobRunContext): Promise<JobOutcome> {
  try {
    const ms = await ctx.integrations.mediaServer.get();
    return { summary: await syncPlays(ctx, ms, run) };
  } catch (err) {
    // Runs when: the media server and its Playback Reporting plugin are there.
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped', summary: { reason: `${err.system} not configured` } };
    }
    throw err;
  }
}

export function playbackJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    {
      name: PLAYBACK_SYNC_JOB,
      description: "Copies new plays from the Playback Reporting plugin into Usher's indexed copy",
      schedule: '*/5 * * * *',
      run: (run) => runSync(ctx, run),
    },
  ];
}
