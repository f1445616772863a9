// `GET /admin/playback/summary` (issue 36): the plays of every member in a range, as the admin
// dashboard and the playback page chart them. Three aggregate queries — plays per hour and
// method, the top clients, the top titles — run in the plays copy (issue 33), or inside the
// Playback Reporting plugin before the copy's first pass, so no play crosses into Usher however
// many there are (2 000 000 at 100 000 members).
import type { PlaybackSummary, PlaybackSummaryQuery, PlaybackTitle } from '@usher/contracts';
import {
  normaliseId,
  parsePlaybackDate,
  type MediaServer,
} from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { playSource } from '../playback/index.js';
import { addDays, nextDay, zonedDay } from '../../time/zoned-day.js';
import { historyRange, zonedSlot } from './playback.js';

const CLIENTS_MAX = 8;
const TITLES_MAX = 12;
/** An item id the server could have issued (Emby numeric, Jellyfin 32 hex). */
const SERVER_ID = /^[0-9a-f]{32}$|^\d+$/i;

const int = (text: string | undefined) => {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

export interface HourBucket {
  /** `YYYY-MM-DD HH` on the source's clock (the media server's, or the business zone's for the copy). */
  hour: string;
  method: string;
  plays: number;
  seconds: number;
}

/**
 * Hour buckets on the source's clock → the business zone's days (every day of the range, oldest first),
 * hours and play methods. A bucket counts at its hour's start, so a zone a half hour apart from
 * the server's moves at most half an hour of plays into the neighbouring hour.
 */
export function bucketPlays(
  buckets: HourBucket[],
  serverZone: string,
  zone: string,
  days: { first: string; count: number },
): Pick<PlaybackSummary, 'totals' | 'byDay' | 'byHour' | 'playMethods'> {
  const byDay = new Map<string, { day: string; count: number; durationSeconds: number }>();
  // Counted, not compared as text: a range is at most 366 days, whatever the years look like.
  for (let i = 0, day = days.first; i < days.count; i++, day = nextDay(day)) {
    byDay.set(day, { day, count: 0, durationSeconds: 0 });
  }
  const byHour = Array.from({ length: 24 }, () => ({ count: 0, durationSeconds: 0 }));
  const playMethods = { directPlay: 0, directStream: 0, transcode: 0 };
  const totals = { playCount: 0, durationSeconds: 0 };
  for (const b of buckets) {
    const iso = parsePlaybackDate(`${b.hour}:00:00`, serverZone);
    if (!iso) continue;
    const slot = zonedSlot(new Date(iso), zone);
    const day = byDay.get(slot.day);
    if (day) {
      day.count += b.plays;
      day.durationSeconds += b.seconds;
    }
    byHour[slot.hour]!.count += b.plays;
    byHour[slot.hour]!.durationSeconds += b.seconds;
    if (b.method === 'DirectPlay') playMethods.directPlay += b.plays;
    else if (b.method === 'DirectStream') playMethods.directStream += b.plays;
    else if (b.method === 'Transcode') playMethods.transcode += b.plays;
    totals.playCount += b.plays;
    totals.durationSeconds += b.seconds;
  }
  return { totals, byDay: [...byDay.values()], byHour, playMethods };
}

/** The top titles, named as the server names them now, with posters signed for the caller. */
async function topTitles(
  ms: MediaServer,
  rows: Record<string, string>[],
  poster: (posterItemId: string) => string,
): Promise<PlaybackTitle[]> {
  const ids = [...new Set(rows.map((r) => r['ItemId'] ?? '').filter((id) => SERVER_ID.test(id)))];
  const items = new Map(
    ids.length ? (await ms.items({ ids: ids.map(normaliseId) })).items.map((i) => [i.id, i]) : [],
  );
  const titles = new Map<string, PlaybackTitle>();
  for (const r of rows) {
    const id = r['ItemId'] ?? '';
    const item = SERVER_ID.test(id) ? items.get(normaliseId(id)) : undefined;
    const movie = r['ItemType'] === 'Movie';
    const key = movie
      ? SERVER_ID.test(id)
        ? normaliseId(id)
        : id
      : (item?.seriesId ?? `name:${r['TitleKey'] ?? ''}`);
    const name = movie
      ? (item?.name ?? r['ItemName'] ?? key)
      : (item?.seriesName ?? r['TitleKey'] ?? key);
    const title = titles.get(key) ?? {
      kind: movie ? ('movie' as const) : ('series' as const),
      itemKey: key,
      name: name || key,
      playCount: 0,
      durationSeconds: 0,
      ...(item?.posterItemId ? { posterUrl: poster(item.posterItemId) } : {}),
    };
    title.playCount += int(r['PlayCount']);
    title.durationSeconds += int(r['PlaySeconds']);
    titles.set(key, title);
  }
  return [...titles.values()].sort(
    (a, b) => b.durationSeconds - a.durationSeconds || b.playCount - a.playCount,
  );
}

/** `GET /admin/playback/summary`. */
export async function playbackSummary(
  ctx: ModuleContext,
  q: PlaybackSummaryQuery,
  poster: (posterItemId: string) => string,
): Promise<PlaybackSummary> {
  const zone = (await ctx.settings.store.getString('SCHEDULE_TIMEZONE')) || 'UTC';
  const range = historyRange(q, ctx.now(), zone);
  const ms = await ctx.integrations.mediaServer.get();
  const source = await playSource(ctx.db, ms);
  const hourly = await source.hourly(range, zone);
  const clients = await source.clients(range, CLIENTS_MAX);
  const titles = await source.topTitles(range, TITLES_MAX);
  // The days asked for, as historyRange reads them (not re-derived from instants: a year
  // before 1000 would not be written with four digits).
  const last = q.to ?? zonedDay(ctx.now(), zone);
  const first = q.from ?? addDays(last, -29);
  const count =
    Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000) +
    1;
  const buckets = bucketPlays(
    hourly.rows.map((r) => ({
      hour: r['Hour'] ?? '',
      method: r['Method'] ?? '',
      plays: int(r['PlayCount']),
      seconds: int(r['PlaySeconds']),
    })),
    hourly.zone,
    zone,
    { first, count },
  );
  return {
    range: { from: range.from.toISOString(), to: range.to.toISOString() },
    timeZone: zone,
    ...buckets,
    clients: clients.map((r) => ({
      name: r['ClientName'] || 'Unknown',
      count: int(r['PlayCount']),
      durationSeconds: int(r['PlaySeconds']),
    })),
    topTitles: (await topTitles(ms, titles, poster)).slice(0, TITLES_MAX),
  };
}
