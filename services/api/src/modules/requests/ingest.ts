import type { IngestProgress } from '@usher/contracts';
import { recordAudit, type AuditActor } from '../../audit-log/audit.js';
import { type MediaRequestRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaItem, MediaServer } from '../../integrations/media-server/port.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { cachedSeason, cachedTv } from '../metadata/index.js';
import { episodeCode } from './dto.js';
import { notifyRequestEvent } from './events.js';
import { episodeMap, type EpisodeMap } from './library.js';
import { approvedRequest } from './approved.js';
import { approvedBatch, approvedForSeasons, findRequest, updateRequest } from './queries.js';
import { withTransaction } from '../../db/transaction.js';
import { zonedDay } from '../../time/zoned-day.js';

/** Episodes TMDB lists as aired (air date ≤ today) for season N, or every season ≥ 1 for 0. */
export async function airedEpisodes(
  ctx: ModuleContext,
  tmdbId: number,
  season: number,
): Promise<EpisodeMap> {
  const today = zonedDay(ctx.now(), await ctx.settings.store.getString('SCHEDULE_TIMEZONE'));
  let seasons = [season];
  if (season === 0) {
    const tv = await cachedTv(ctx, tmdbId);
    seasons = tv.seasons
      .filter((s) => s.seasonNumber > 0 && s.airDate !== null && s.airDate <= today)
      .map((s) => s.seasonNumber);
  }
  const map: EpisodeMap = new Map();
  for (const n of seasons) {
    const aired = (await cachedSeason(ctx, tmdbId, n)).episodes.filter(
      (e) => e.airDate !== null && e.airDate <= today,
    );
    map.set(n, new Set(aired.map((e) => e.episodeNumber)));
  }
  return map;
}

/** have = aired episodes in scope that are on disk; total = aired episodes in scope. */
export function progressOf(library: EpisodeMap, aired: EpisodeMap, season: number): IngestProgress {
  let have = 0;
  let total = 0;
  for (const [n, episodes] of aired) {
    if (season > 0 && n !== season) continue;
    total += episodes.size;
    for (const e of episodes) if (library.get(n)?.has(e)) have++;
  }
  return { have, total, last: lastOf(library, season) };
}

function lastOf(library: EpisodeMap, season: number): string | null {
  let best: [number, number] | null = null;
  for (const [n, episodes] of library) {
    if (season > 0 && n !== season) continue;
    for (const e of episodes) {
      if (!best || n > best[0] || (n === best[0] && e > best[1])) best = [n, e];
    }
  }
  return best ? episodeCode(best[0], best[1]) : null;
}

export const isComplete = (p: IngestProgress) => p.total > 0 && p.have >= p.total;

/**
 * Measures a TV request against the library and TMDB. `seriesItemId` skips the lookup by TMDB
 * id when the caller already knows the series item (webhook), or (null) knows it is not there.
 */
export async function measureSeries(
  ctx: ModuleContext,
  server: MediaServer,
  row: Pick<MediaRequestRow, 'tmdbId' | 'season' | 'name'>,
  seriesItemId?: string | null,
): Promise<IngestProgress> {
  const seriesId =
    seriesItemId !== undefined
      ? seriesItemId
      : ((await server.findByTmdbId(row.tmdbId, 'Series', row.name))?.id ?? null);
  const library: EpisodeMap = seriesId ? episodeMap(await server.episodes(seriesId)) : new Map();
  const aired = await airedEpisodes(ctx, row.tmdbId, row.season);
  return progressOf(library, aired, row.season);
}

export interface IngestActor {
  actor: AuditActor;
  meta: Partial<RequestMeta>;
}

/**
 * APPROVED → INGESTED, atomically (a request ingested meanwhile is left alone), with its audit
 * row; the `ingested` event follows the commit. Returns whether this call made the change.
 */
export async function markIngested(
  ctx: ModuleContext,
  row: MediaRequestRow,
  progress: IngestProgress | null,
  by: IngestActor,
): Promise<boolean> {
  const now = ctx.now();
  const changed = await withTransaction(ctx, async (tx) => {
    const [updated] = await updateRequest(
      tx,
      row.id,
      {
        status: 'INGESTED',
        ingestedAt: now,
        ingestProgress: progress ?? row.ingestProgress,
        updatedAt: now,
      },
      'APPROVED',
    );
    if (!updated) return false;
    await recordAudit(tx, {
      actor: by.actor,
      action: 'request.ingest',
      target: { type: 'media_request', id: row.id },
      details: { from: 'APPROVED', to: 'INGESTED', progress },
      ip: by.meta.ip ?? null,
      requestId: by.meta.requestId ?? null,
    });
    return true;
  });
  if (changed) notifyRequestEvent(ctx, row.id, { event: 'ingested' }, by.meta.requestId);
  return changed;
}

async function storeProgress(ctx: ModuleContext, id: string, progress: IngestProgress) {
  await updateRequest(ctx.db, id, { ingestProgress: progress, updatedAt: ctx.now() }, 'APPROVED');
}

/** Stores the progress and ingests when complete; whether anything changed. */
export async function applySeriesProgress(
  ctx: ModuleContext,
  row: MediaRequestRow,
  progress: IngestProgress,
  by: IngestActor,
): Promise<boolean> {
  if (isComplete(progress)) return markIngested(ctx, row, progress, by);
  const before = row.ingestProgress;
  if (
    before?.have === progress.have &&
    before.total === progress.total &&
    before.last === progress.last
  ) {
    return false;
  }
  await storeProgress(ctx, row.id, progress);
  return true;
}

/** `POST /admin/media-requests/:id/verify-ingest`: check the library now. */
export async function verifyIngest(
  ctx: ModuleContext,
  id: string,
  by: IngestActor,
): Promise<{ row: MediaRequestRow; progress: IngestProgress | null }> {
  const row = await approvedRequest(ctx, id);
  const server = await ctx.integrations.mediaServer.get();
  if (row.type === 'MOVIE') {
    const movie = await server.findByTmdbId(row.tmdbId, 'Movie', row.name);
    if (!movie) {
      throw new AppError('NOT_IN_LIBRARY', 'The movie is not in the library yet', {
        details: { progress: null },
      });
    }
    await markIngested(ctx, row, null, by);
    return { row: (await findRequest(ctx.db, id)) ?? row, progress: null };
  }
  const progress = await measureSeries(ctx, server, row);
  await applySeriesProgress(ctx, row, progress, by);
  if (!isComplete(progress)) {
    throw new AppError(
      'NOT_IN_LIBRARY',
      `${progress.have} of ${progress.total} aired episodes are in the library`,
      { details: { progress } },
    );
  }
  return { row: (await findRequest(ctx.db, id)) ?? row, progress };
}

/** The webhook's movie step: APPROVED MOVIE requests of `tmdbId` → INGESTED. */
export async function ingestMovie(
  ctx: ModuleContext,
  tmdbId: number,
  by: IngestActor,
): Promise<number> {
  const rows = await approvedFor(ctx, 'MOVIE', tmdbId, [0]);
  let matched = 0;
  for (const row of rows) if (await markIngested(ctx, row, null, by)) matched++;
  return matched;
}

/**
 * The webhook's episode step: recompute the progress of APPROVED TV requests of the show for
 * season S and for the whole series (counts are recomputed, so a repeated event changes
 * nothing). When TMDB is unavailable only `last` moves (50-integrations.md §2.3).
 */
export async function ingestEpisode(
  ctx: ModuleContext,
  server: MediaServer,
  event: { showTmdbId: number; seriesItemId: string; season: number; last: string },
  by: IngestActor,
): Promise<number> {
  const rows = await approvedFor(ctx, 'TV', event.showTmdbId, [event.season, 0]);
  let matched = 0;
  for (const row of rows) {
    let progress: IngestProgress;
    try {
      progress = await measureSeries(ctx, server, row, event.seriesItemId);
    } catch (err) {
      // TMDB (or the episode list) unavailable: keep the counts, record the episode seen.
      if (!(err instanceof IntegrationError)) throw err;
      ctx.logger.warn({ err: err.message, requestId: row.id }, 'ingest progress not measurable');
      const before = row.ingestProgress ?? { have: 0, total: 0, last: null };
      progress = { ...before, last: event.last };
      if (before.last === event.last) continue;
      await storeProgress(ctx, row.id, progress);
      matched++;
      continue;
    }
    if (await applySeriesProgress(ctx, row, progress, by)) matched++;
  }
  return matched;
}

async function approvedFor(
  ctx: ModuleContext,
  type: 'MOVIE' | 'TV',
  tmdbId: number,
  seasons: number[],
): Promise<MediaRequestRow[]> {
  return approvedForSeasons(ctx.db, type, tmdbId, seasons);
}

export interface ReconcileOutcome {
  checked: number;
  ingested: number;
  /** Requests whose check failed upstream (left APPROVED for the next run). */
  failed: number;
}

/** Requests the reconcile pass reads and looks up per batch. */
const RECONCILE_BATCH = 200;

/**
 * The reconcile pass of `calendar_sync` (50-integrations.md §2.3 step 6): APPROVED requests
 * approved before `cutoff` are measured against the library, so a missed or deferred webhook
 * still ends INGESTED. They are read in batches of 200 (oldest first, keyset) and each batch's
 * titles are found with `findManyByTmdbIds` (the batch form of `findByTmdbId`: one call per type
 * on Emby, the cached map on Jellyfin) instead of one search per request, so the pass costs one
 * library walk rather than a search per request. Uses the same transition (and audit, and
 * `ingested` event) as the webhook and verify-ingest. Stops between requests when `signal` aborts.
 */
export async function reconcileApproved(
  ctx: ModuleContext,
  server: MediaServer,
  cutoff: Date,
  by: IngestActor,
  signal?: AbortSignal,
): Promise<ReconcileOutcome> {
  const outcome: ReconcileOutcome = { checked: 0, ingested: 0, failed: 0 };
  let after: MediaRequestRow | null = null;
  while (!signal?.aborted) {
    const rows = await approvedBatch(ctx.db, cutoff, after, RECONCILE_BATCH);
    if (rows.length === 0) break;
    const first = after === null;
    after = rows.at(-1) ?? null;
    let found: { movies: Map<number, MediaItem>; series: Map<number, MediaItem> };
    try {
      const ids = (type: string) => [
        ...new Set(rows.filter((r) => r.type === type).map((r) => r.tmdbId)),
      ];
      // The first batch rebuilds Jellyfin's cached map: what landed minutes ago counts.
      const o = { fresh: first };
      const [movies, series] = await Promise.all([
        server.findManyByTmdbIds(ids('MOVIE'), 'Movie', o),
        server.findManyByTmdbIds(ids('TV'), 'Series', o),
      ]);
      found = { movies, series };
    } catch (err) {
      // The library cannot be read for this batch: its requests stay APPROVED for the next run.
      if (!(err instanceof IntegrationError)) throw err;
      ctx.logger.warn({ err: err.message }, 'reconcile lookup failed');
      outcome.checked += rows.length;
      outcome.failed += rows.length;
      continue;
    }
    for (const row of rows) {
      if (signal?.aborted) break;
      outcome.checked++;
      try {
        if (row.type === 'MOVIE') {
          if (found.movies.has(row.tmdbId) && (await markIngested(ctx, row, null, by))) {
            outcome.ingested++;
          }
          continue;
        }
        const seriesItem = found.series.get(row.tmdbId);
        const progress = await measureSeries(ctx, server, row, seriesItem?.id ?? null);
        const changed = await applySeriesProgress(ctx, row, progress, by);
        if (changed && isComplete(progress)) outcome.ingested++;
      } catch (err) {
        // One title the media server or TMDB cannot answer for must not stop the others.
        if (!(err instanceof IntegrationError)) throw err;
        ctx.logger.warn({ err: err.message, requestId: row.id }, 'reconcile check failed');
        outcome.failed++;
      }
    }
    if (rows.length < RECONCILE_BATCH) break;
  }
  return outcome;
}
