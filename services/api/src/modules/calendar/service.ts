import {
  CALENDAR_STATUSES,
  type CalendarFollowReply,
  type CalendarStatus,
  type CalendarSyncRequest,
  type CalendarWeek,
  type CalendarWeekQuery,
} from '@usher/contracts';
import { auditCaller } from '../../audit-log/audit.js';
import { AppError } from '../../errors/app-error.js';
import { zonedDay } from '../../time/zoned-day.js';
import type { Caller, ModuleContext } from '../context.js';
import { deleteFollow, findSeriesByTmdbId, insertFollow, weekEpisodes } from './queries.js';
import { CALENDAR_SYNC_JOB } from './sync.js';
import { daysOf, episodeStatus, weekOf } from './week.js';

/**
 * The calendar needs both the media server and TMDB (30-settings.md §5: without TMDB the
 * calendar is off): reads and the sync answer 503 `NOT_CONFIGURED` naming the missing one.
 */
async function assertConfigured(ctx: ModuleContext): Promise<void> {
  await ctx.integrations.mediaServer.get();
  await ctx.integrations.tmdb.get();
}

/** `GET /calendar/global` and `/calendar/following`: one week, Monday first, in business days. */
export async function readWeek(
  ctx: ModuleContext,
  userId: string,
  scope: 'global' | 'following',
  query: CalendarWeekQuery,
): Promise<CalendarWeek> {
  await assertConfigured(ctx);
  const timezone = await ctx.settings.store.getString('SCHEDULE_TIMEZONE');
  const today = zonedDay(ctx.now(), timezone);
  const week = query.week ? weekOf(query.week) : weekOf(today, query.weekOffset ?? 0);
  const rows = await weekEpisodes(ctx.db, {
    ...week,
    userId,
    followedOnly: scope === 'following',
  });
  const counts = Object.fromEntries(CALENDAR_STATUSES.map((s) => [s, 0])) as Record<
    CalendarStatus,
    number
  >;
  const byDay = new Map<string, CalendarWeek['days'][number]['items']>();
  for (const row of rows) {
    const status = episodeStatus(row, today);
    counts[status]++;
    if (query.status && status !== query.status) continue;
    const items = byDay.get(row.airDate!) ?? [];
    items.push({
      episodeId: row.episodeId,
      series: { tmdbId: row.tmdbId, name: row.seriesName, posterPath: row.posterPath },
      season: row.season,
      episode: row.episode,
      name: row.name,
      airDate: row.airDate,
      status,
      following: row.following,
    });
    byDay.set(row.airDate!, items);
  }
  return {
    week: { ...week, timezone },
    summary: { total: rows.length, ...counts },
    days: daysOf(week).map((date) => ({
      date,
      isToday: date === today,
      items: byDay.get(date) ?? [],
    })),
  };
}

/** `PUT /calendar/follows/:tmdbId` (idempotent); 404 for a series the calendar does not track. */
export async function follow(
  ctx: ModuleContext,
  userId: string,
  tmdbId: number,
): Promise<CalendarFollowReply> {
  const series = await findSeriesByTmdbId(ctx.db, tmdbId);
  if (!series) throw new AppError('SERIES_NOT_TRACKED', 'The calendar does not track this series');
  await insertFollow(ctx.db, userId, series.id);
  return { tmdbId, following: true };
}

/** `DELETE /calendar/follows/:tmdbId` (idempotent, also for an untracked id). */
export async function unfollow(ctx: ModuleContext, userId: string, tmdbId: number): Promise<void> {
  await deleteFollow(ctx.db, userId, tmdbId);
}

/** `POST /admin/calendar/sync`: starts `calendar_sync` with the params; poll the run. */
export async function startSync(
  ctx: ModuleContext,
  params: CalendarSyncRequest,
  caller: Caller,
): Promise<{ runId: string }> {
  await assertConfigured(ctx);
  const { runId } = await ctx.scheduler.runNow(CALENDAR_SYNC_JOB, {
    triggeredBy: caller.auth.userId,
    params: { ...params },
  });
  await auditCaller(
    ctx.db,
    caller,
    'calendar.sync',
    { type: 'job', id: CALENDAR_SYNC_JOB },
    { runId, ...params },
  );
  return { runId };
}
