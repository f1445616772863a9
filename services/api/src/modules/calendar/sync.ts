// The `calendar_sync` job (30-settings.md §9): finds the series in the library that carry a TMDB
// id, tracks the continuing ones (and those that ended inside the synced weeks), refreshes their
// episodes airing in the chosen weeks from TMDB, checks which of its episodes the library holds,
// and then reconciles APPROVED media requests older than an hour (50-integrations.md §2.3 step 6),
// so a missed or deferred webhook still ends INGESTED. Progress is written to the run's summary
// after every series, like the media-quality scan.
import { HOUR_MS } from '../../time/units.js';
import { calendarSyncRequestSchema, type CalendarSyncRequest } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { type AuditActor, jobActor } from '../../audit-log/audit.js';
import type { CalendarSeriesRow, NewCalendarEpisodeRow } from '../../db/schema/index.js';
import { zonedDay } from '../../time/zoned-day.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { MediaItem, MediaServer } from '../../integrations/media-server/index.js';
import { writeRunProgress } from '../../scheduler/progress.js';
import type { JobDefinition, JobOutcome, JobRunContext } from '../../scheduler/scheduler.js';
import type { ModuleContext } from '../context.js';
import { cachedSeason, cachedTv } from '../metadata/index.js';
import { reconcileApproved, type ReconcileOutcome } from '../requests/index.js';
import {
  allSeries,
  forgetSeriesNotIn,
  markSeriesChecked,
  seriesEpisodes,
  setEpisodeItem,
  upsertEpisodes,
  upsertSeries,
} from './queries.js';
import { weekOf, type WeekRange } from './week.js';

export const CALENDAR_SYNC_JOB = 'calendar_sync';

/** A series TMDB calls ended is looked at again weekly (a forced run: at once). */
const ENDED_RECHECK_MS = 7 * 24 * HOUR_MS;
/** APPROVED requests younger than this are left to the webhook. */
const RECONCILE_AFTER_MS = HOUR_MS;
const SERIES_PAGE = 200;
/** TMDB show statuses of a series that still gets episodes. */
const CONTINUING = new Set(['Returning Series', 'In Production', 'Planned', 'Pilot']);
/** The poster paths `calendar_series` accepts (its check constraint). */
const POSTER_PATH = /^\/[A-Za-z0-9._-]+$/;

const ACTOR: AuditActor = jobActor(CALENDAR_SYNC_JOB);

interface SyncProgress {
  phase: 'series' | 'reconcile' | 'done';
  series: number;
  seriesDone: number;
  current: string | null;
  episodes: number;
  ready: number;
}

interface Window {
  weeks: WeekRange[];
  from: string;
  to: string;
}

const inWindow = (w: Window, day: string | null) =>
  day !== null && w.weeks.some((week) => day >= week.start && day <= week.end);

/** Series items of the library by their TMDB id (the first one wins when two share an id). */
async function librarySeries(
  server: MediaServer,
  signal: AbortSignal,
): Promise<Map<number, MediaItem>> {
  const byTmdb = new Map<number, MediaItem>();
  for (let start = 0; ; start += SERIES_PAGE) {
    if (signal.aborted) break;
    const page = await server.items({ types: ['Series'], start, limit: SERIES_PAGE });
    for (const item of page.items) {
      const id = Number(item.tmdbId);
      if (item.type === 'Series' && Number.isSafeInteger(id) && id > 0 && !byTmdb.has(id)) {
        byTmdb.set(id, item);
      }
    }
    if (page.items.length < SERIES_PAGE || start + SERIES_PAGE >= page.total) break;
  }
  return byTmdb;
}

/** Episode (season:episode) → library item id, multi-episode files expanded. */
function libraryEpisodes(items: MediaItem[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of items) {
    if (item.virtual || item.season === undefined || item.episode === undefined) continue;
    const end = Math.max(item.episode, item.episodeEnd ?? item.episode);
    for (let n = item.episode; n <= end; n++) {
      const key = `${item.season}:${n}`;
      if (!map.has(key)) map.set(key, item.id);
    }
  }
  return map;
}

interface SeriesOutcome {
  tracked: boolean;
  episodes: number;
  ready: number;
}

/** One series: its row, its episodes in the window, and the library check of its episodes. */
async function syncSeries(
  ctx: ModuleContext,
  server: MediaServer,
  input: { tmdbId: number; item: MediaItem; window: Window; force: boolean },
): Promise<SeriesOutcome> {
  const { tmdbId, item, window, force } = input;
  const tv = await cachedTv(ctx, tmdbId, { refresh: force });
  const continuing = CONTINUING.has(tv.status);
  const lastAired = tv.lastEpisodeToAir?.airDate ?? null;
  // A show whose finale aired inside the synced weeks still belongs on those weeks.
  const active = continuing || (lastAired !== null && lastAired >= window.from);
  const now = ctx.now();
  // Answers cached before posters were read have none (`undefined`).
  const poster = tv.posterPath ?? null;
  const values = {
    mediaSeriesId: item.id,
    name: tv.name || item.name,
    posterPath: poster !== null && POSTER_PATH.test(poster) ? poster : null,
    tmdbStatus: tv.status || null,
    isContinuing: continuing,
    lastSyncedAt: now,
    updatedAt: now,
  };
  const seriesId = await upsertSeries(ctx.db, tmdbId, values);
  if (!active) return { tracked: false, episodes: 0, ready: 0 };

  // The seasons that can air inside the window: the ones TMDB points at as last and next, and
  // any season premiering inside it.
  const seasons = new Set<number>();
  for (const ref of [tv.lastEpisodeToAir, tv.nextEpisodeToAir]) {
    if (ref && ref.seasonNumber >= 1) seasons.add(ref.seasonNumber);
  }
  for (const s of tv.seasons) {
    if (s.seasonNumber >= 1 && s.airDate && s.airDate >= window.from && s.airDate <= window.to) {
      seasons.add(s.seasonNumber);
    }
  }
  const stored = new Set(
    (await seriesEpisodes(ctx.db, seriesId)).map((e) => `${e.season}:${e.episode}`),
  );
  const rows: NewCalendarEpisodeRow[] = [];
  for (const n of seasons) {
    const season = await cachedSeason(ctx, tmdbId, n, { refresh: force });
    for (const e of season.episodes) {
      if (e.seasonNumber < 1 || e.episodeNumber < 1) continue;
      // New rows only inside the window; rows already kept follow TMDB's moves and renames.
      if (!inWindow(window, e.airDate) && !stored.has(`${e.seasonNumber}:${e.episodeNumber}`)) {
        continue;
      }
      rows.push({
        id: uuidv7(),
        seriesId,
        season: e.seasonNumber,
        episode: e.episodeNumber,
        name: e.name || null,
        overview: e.overview ? e.overview.slice(0, 1000) : null,
        airDate: e.airDate,
        lastCheckedAt: now,
        updatedAt: now,
      });
    }
  }
  if (rows.length > 0) await upsertEpisodes(ctx.db, rows, now);
  const ready = await checkLibrary(ctx, server, seriesId, item.id);
  return { tracked: true, episodes: rows.length, ready };
}

/**
 * Marks the series' kept episodes ready when the library holds them and clears those whose item
 * vanished (10-data.md §10). Returns how many became ready.
 */
async function checkLibrary(
  ctx: ModuleContext,
  server: MediaServer,
  seriesId: string,
  mediaSeriesId: string,
): Promise<number> {
  const kept = await seriesEpisodes(ctx.db, seriesId);
  if (kept.length === 0) return 0;
  const onDisk = libraryEpisodes(await server.episodes(mediaSeriesId));
  const now = ctx.now();
  let ready = 0;
  for (const e of kept) {
    const itemId = onDisk.get(`${e.season}:${e.episode}`) ?? null;
    if (itemId === e.mediaItemId) continue;
    if (itemId !== null && e.mediaItemId === null) ready++;
    await setEpisodeItem(ctx.db, e.id, itemId, now);
  }
  await markSeriesChecked(ctx.db, seriesId, now);
  return ready;
}

/**
 * Series that left the library: no series id any more and none of their episodes ready. Kept
 * (with their follows) rather than deleted; a later sync picks them up again if they return.
 */
async function forgetRemoved(ctx: ModuleContext, inLibrary: number[]): Promise<number> {
  return forgetSeriesNotIn(ctx.db, inLibrary, ctx.now());
}

function parseParams(params: Record<string, unknown> | null): CalendarSyncRequest {
  const parsed = calendarSyncRequestSchema.safeParse(params ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.join('.') || 'params'}: ${i.message}`,
    );
    throw new Error(`Invalid calendar_sync params: ${problems.join('; ')}`.slice(0, 1000));
  }
  return parsed.data;
}

/** Whether a tracked series is due: new, continuing, or ended and not looked at for a week. */
function due(row: CalendarSeriesRow | undefined, now: Date, force: boolean): boolean {
  if (force || !row || row.isContinuing || !row.lastSyncedAt) return true;
  return now.getTime() - row.lastSyncedAt.getTime() >= ENDED_RECHECK_MS;
}

export async function runCalendarSync(
  ctx: ModuleContext,
  run: Pick<JobRunContext, 'runId' | 'signal' | 'params' | 'logger'>,
): Promise<JobOutcome> {
  const params = parseParams(run.params);
  let server: MediaServer;
  try {
    server = await ctx.integrations.mediaServer.get();
    await ctx.integrations.tmdb.get();
  } catch (err) {
    // 30-settings.md §9: the job runs when the media server and metadata are configured.
    if (err instanceof IntegrationError && err.kind === 'not_configured') {
      return { status: 'skipped', summary: { reason: `${err.system} not configured` } };
    }
    throw err;
  }
  const now = ctx.now();
  const today = zonedDay(now, await ctx.settings.store.getString('SCHEDULE_TIMEZONE'));
  const weeks = params.weekOffsets.map((offset) => weekOf(today, offset));
  const window: Window = {
    weeks,
    from: weeks.map((w) => w.start).sort()[0]!,
    to: weeks
      .map((w) => w.end)
      .sort()
      .at(-1)!,
  };

  const library = await librarySeries(server, run.signal);
  const known = new Map((await allSeries(ctx.db)).map((s) => [s.tmdbId, s]));
  const targets = [...library].filter(
    ([tmdbId]) =>
      (params.tmdbId === undefined || tmdbId === params.tmdbId) &&
      due(known.get(tmdbId), now, params.force),
  );
  const progress: SyncProgress = {
    phase: 'series',
    series: targets.length,
    seriesDone: 0,
    current: null,
    episodes: 0,
    ready: 0,
  };
  await writeRunProgress(ctx.db, run.runId, { ...progress });
  let tracked = 0;
  const failed: { tmdbId: number; error: string }[] = [];
  for (const [tmdbId, item] of targets) {
    if (run.signal.aborted) break;
    progress.current = item.name;
    try {
      const outcome = await syncSeries(ctx, server, { tmdbId, item, window, force: params.force });
      if (outcome.tracked) tracked++;
      progress.episodes += outcome.episodes;
      progress.ready += outcome.ready;
    } catch (err) {
      // One series TMDB or the server cannot answer for must not stop the others.
      if (!(err instanceof IntegrationError)) throw err;
      run.logger.warn({ err: err.message, tmdbId }, 'calendar sync of a series failed');
      failed.push({ tmdbId, error: err.message.slice(0, 200) });
    }
    progress.seriesDone++;
    await writeRunProgress(ctx.db, run.runId, { ...progress });
  }
  progress.current = null;
  const removed =
    params.tmdbId === undefined && !run.signal.aborted
      ? await forgetRemoved(ctx, [...library.keys()])
      : 0;

  let reconcile: ReconcileOutcome | null = null;
  if (!run.signal.aborted) {
    progress.phase = 'reconcile';
    await writeRunProgress(ctx.db, run.runId, { ...progress });
    reconcile = await reconcileApproved(
      ctx,
      server,
      new Date(now.getTime() - RECONCILE_AFTER_MS),
      { actor: ACTOR, meta: {} },
      run.signal,
    );
  }
  progress.phase = 'done';
  if (targets.length > 0 && failed.length === targets.length) {
    throw new Error(`Calendar sync failed for every series: ${failed[0]!.error}`.slice(0, 1000));
  }
  return {
    summary: {
      progress,
      weekOffsets: params.weekOffsets,
      from: window.from,
      to: window.to,
      tracked,
      failed,
      removed,
      reconcile,
    },
  };
}

export function calendarJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    {
      name: CALENDAR_SYNC_JOB,
      description:
        'Refreshes the watch calendar from the library and TMDB (params tmdbId, force, ' +
        'weekOffsets) and reconciles approved requests older than an hour',
      schedule: '0 */12 * * *',
      scheduleSetting: 'CALENDAR_SYNC_CRON',
      atStart: {
        setting: 'CALENDAR_SYNC_ON_START',
        delayMs: 15_000,
        unlessRunWithinMs: HOUR_MS,
      },
      run: (run) => runCalendarSync(ctx, run),
    },
  ];
}
