// Playback history and the viewing portrait (20-api.md `/me/playback`, admin playback), read from
// the plays copy (issue 33; the Playback Reporting plugin itself before the copy's first pass,
// modules/playback/source.ts). The plugin writes the server's local time; every row is turned
// into UTC first (server zone), and only then bucketed by day, hour and weekday in the business
// zone (SCHEDULE_TIMEZONE), so a portrait means the same hours as the rest of Usher.
import { DAY_MS } from '../../time/units.js';
import {
  HISTORY_MAX_DAYS,
  type PlaybackHistoryQuery,
  type PlaybackProfile,
  type PlaybackProfileRow,
  type PlaybackProfilesPage,
  type PlaybackProfilesQuery,
  type PlaybackRange,
  type PlaybackRangeQuery,
  type PlaybackRecord,
  type PlaybackTotals,
} from '@usher/contracts';
import { AppError } from '../../errors/app-error.js';
import { addDays, nextDay, startOfZonedDay, zonedDay as zonedToday } from '../../time/zoned-day.js';
import { formatPlaybackBound, type MediaServer } from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { playSource, type Play, type PlaySource } from '../playback/index.js';
import { findUserByName, usersByMediaId, type LinkedUser } from './queries.js';
import { requireUser } from './users.js';

/** How many of a user's most-watched items are looked up for genres. */
const GENRE_ITEMS_PER_USER = 30;

async function server(ctx: ModuleContext): Promise<MediaServer> {
  return ctx.integrations.mediaServer.get();
}

async function businessZone(ctx: ModuleContext): Promise<string> {
  return (await ctx.settings.store.getString('SCHEDULE_TIMEZONE')) || 'UTC';
}

/** A preset or custom range as instants: presets end now, custom ranges are inclusive days. */
export function resolveRange(
  q: { range: PlaybackRange; from?: string; to?: string },
  now: Date,
  zone: string,
): { from?: Date; to: Date } {
  const today = zonedToday(now, zone);
  const back = { today: 0, '7d': 6, '30d': 29, '90d': 89 } as const;
  switch (q.range) {
    case 'all':
      return { to: now };
    case 'custom':
      return {
        from: startOfZonedDay(q.from!, zone),
        to: startOfZonedDay(nextDay(q.to!), zone),
      };
    default:
      return { from: startOfZonedDay(addDays(today, -back[q.range]), zone), to: now };
  }
}

/** Hour (0–23), ISO weekday index (Monday = 0) and date of an instant in a zone. */
export function zonedSlot(at: Date, zone: string): { hour: number; weekday: number; day: string } {
  const text = formatPlaybackBound(at, zone);
  const day = text.slice(0, 10);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const sunday0 = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return { hour: Number(text.slice(11, 13)), weekday: (sunday0 + 6) % 7, day };
}

export function totalsOf(plays: Play[], zone: string): PlaybackTotals {
  const duration = plays.reduce((s, p) => s + p.seconds, 0);
  const days = new Set(plays.map((p) => zonedSlot(p.at, zone).day));
  const last = plays.reduce<Date | null>((m, p) => (m && m >= p.at ? m : p.at), null);
  return {
    playCount: plays.length,
    durationSeconds: duration,
    activeDays: days.size,
    averageSeconds: plays.length === 0 ? 0 : Math.round(duration / plays.length),
    lastPlayedAt: last?.toISOString() ?? null,
  };
}

function usage(plays: Play[], key: (p: Play) => string) {
  const by = new Map<string, { name: string; count: number; durationSeconds: number }>();
  for (const p of plays) {
    const name = key(p) || 'Unknown';
    const u = by.get(name) ?? { name, count: 0, durationSeconds: 0 };
    u.count += 1;
    u.durationSeconds += p.seconds;
    by.set(name, u);
  }
  return [...by.values()].sort(
    (a, b) =>
      b.durationSeconds - a.durationSeconds || b.count - a.count || a.name.localeCompare(b.name),
  );
}

/**
 * Genres of the most-watched items (episodes take their series' genres), weighted by time
 * watched. The genres come from the media server, not the plugin; an item no longer in the
 * library simply adds none.
 */
async function genresByItem(ms: MediaServer, itemIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  // Only ids the server could have issued: a damaged plugin row must not fail the whole read.
  const ids = itemIds.filter((id) => /^[0-9a-f]{32}$|^\d+$/i.test(id));
  if (ids.length === 0) return out;
  const { items } = await ms.items({ ids });
  const needSeries = new Map<string, string[]>();
  for (const i of items) {
    if (i.genres && i.genres.length > 0) out.set(i.id, i.genres);
    else if (i.seriesId) needSeries.set(i.id, [i.seriesId]);
  }
  const seriesIds = [...new Set([...needSeries.values()].flat())];
  if (seriesIds.length > 0) {
    const series = await ms.items({ ids: seriesIds });
    const genres = new Map(series.items.map((s) => [s.id, s.genres ?? []]));
    for (const [itemId, [sid]] of needSeries) out.set(itemId, genres.get(sid!) ?? []);
  }
  return out;
}

function topItems(plays: Play[], n: number): string[] {
  const by = new Map<string, number>();
  for (const p of plays) if (p.itemId) by.set(p.itemId, (by.get(p.itemId) ?? 0) + p.seconds);
  return [...by.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([id]) => id);
}

function tagsOf(plays: Play[], genres: Map<string, string[]>) {
  const by = new Map<string, { name: string; count: number; durationSeconds: number }>();
  for (const p of plays) {
    for (const g of genres.get(p.itemId) ?? []) {
      const u = by.get(g) ?? { name: g, count: 0, durationSeconds: 0 };
      u.count += 1;
      u.durationSeconds += p.seconds;
      by.set(g, u);
    }
  }
  return [...by.values()]
    .sort((a, b) => b.durationSeconds - a.durationSeconds || a.name.localeCompare(b.name))
    .slice(0, 10);
}

function recordOf(p: Play, user: { name: string; userId?: string }): PlaybackRecord {
  return {
    at: p.at.toISOString(),
    user: {
      mediaUserId: p.mediaUserId,
      name: user.name,
      ...(user.userId ? { userId: user.userId } : {}),
    },
    itemId: p.itemId,
    itemName: p.itemName,
    itemType: p.itemType,
    client: p.client,
    device: p.device,
    playMethod: p.method,
    durationSeconds: p.seconds,
  };
}

/** The portrait of a list of plays (all of one user), hour and weekday buckets in `zone`. */
export function portraitOf(
  plays: Play[],
  zone: string,
  range: { from?: Date; to: Date },
  user: { name: string; userId?: string },
  genres: Map<string, string[]>,
): PlaybackProfile {
  const byHour = Array.from({ length: 24 }, () => ({ count: 0, durationSeconds: 0 }));
  const byWeekday = Array.from({ length: 7 }, () => ({ count: 0, durationSeconds: 0 }));
  const byWeekdayHour = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const methods = { directPlay: 0, directStream: 0, transcode: 0 };
  for (const p of plays) {
    const slot = zonedSlot(p.at, zone);
    byHour[slot.hour]!.count += 1;
    byHour[slot.hour]!.durationSeconds += p.seconds;
    byWeekday[slot.weekday]!.count += 1;
    byWeekday[slot.weekday]!.durationSeconds += p.seconds;
    byWeekdayHour[slot.weekday]![slot.hour]! += 1;
    if (p.method === 'DirectPlay') methods.directPlay += 1;
    else if (p.method === 'DirectStream') methods.directStream += 1;
    else if (p.method === 'Transcode') methods.transcode += 1;
  }
  const sorted = [...plays].sort((a, b) => b.at.getTime() - a.at.getTime());
  return {
    range: { from: range.from?.toISOString() ?? null, to: range.to.toISOString() },
    timeZone: zone,
    totals: totalsOf(plays, zone),
    byHour,
    byWeekday,
    byWeekdayHour,
    clients: usage(plays, (p) => p.client),
    devices: usage(plays, (p) => p.device),
    playMethods: methods,
    tags: tagsOf(plays, genres),
    recent: sorted.slice(0, 10).map((p) => recordOf(p, user)),
  };
}

/** `GET /me/playback` and `GET /admin/users/:id/playback`. */
export async function userPortrait(
  ctx: ModuleContext,
  userId: string,
  query: PlaybackRangeQuery,
): Promise<PlaybackProfile> {
  const row = await requireUser(ctx.db, userId);
  if (!row.mediaUserId) {
    throw new AppError('MEDIA_ACCOUNT_UNLINKED', 'This account has no media-server account');
  }
  const zone = await businessZone(ctx);
  const range = resolveRange(query, ctx.now(), zone);
  const ms = await server(ctx);
  const source = await playSource(ctx.db, ms);
  const plays = await source.rows({ ...range, userIds: [row.mediaUserId] });
  const genres = await genresByItem(ms, topItems(plays, GENRE_ITEMS_PER_USER));
  return portraitOf(plays, zone, range, { name: row.username, userId: row.id }, genres);
}

/** Inclusive day bounds of the admin lists: default the last 30 days, at most 366. */
export function historyRange(
  q: { from?: string; to?: string },
  now: Date,
  zone: string,
): { from: Date; to: Date } {
  const today = zonedToday(now, zone);
  const toDay = q.to ?? today;
  const fromDay = q.from ?? addDays(toDay, -29);
  const days = (Date.parse(toDay) - Date.parse(fromDay)) / DAY_MS + 1;
  if (days < 1) {
    throw new AppError('VALIDATION_FAILED', 'to is before from', {
      details: [{ path: 'to', message: 'to is before from' }],
    });
  }
  if (days > HISTORY_MAX_DAYS) {
    const message = `A range covers at most ${HISTORY_MAX_DAYS} days`;
    throw new AppError('VALIDATION_FAILED', message, { details: [{ path: 'to', message }] });
  }
  return { from: startOfZonedDay(fromDay, zone), to: startOfZonedDay(nextDay(toDay), zone) };
}

/**
 * Up to this many media users without an Usher account are named one `GET /Users/{id}` each
 * (five at a time); more take the server's whole user list. A page names at most its page size,
 * and a community's server lists 10 000 accounts in one reply (issue 33: the profiles page spent
 * seconds on it at 100 000 members).
 */
const NAMES_BY_ID_MAX = 25;
const NAMES_IN_FLIGHT = 5;

/** The server's own names of `ids` (missing ones left out). */
async function serverNamesOf(ms: MediaServer, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (ids.length > NAMES_BY_ID_MAX) {
    for (const u of await ms.listUsers()) names.set(u.id, u.name);
    return names;
  }
  for (let i = 0; i < ids.length; i += NAMES_IN_FLIGHT) {
    const users = await Promise.all(ids.slice(i, i + NAMES_IN_FLIGHT).map((id) => ms.getUser(id)));
    for (const [j, u] of users.entries()) if (u) names.set(ids[i + j]!, u.name);
  }
  return names;
}

/** Names of media users: the Usher user when linked, else the server's own name. */
async function namer(ctx: ModuleContext, ms: MediaServer, mediaUserIds: string[]) {
  const linked = await usersByMediaId(ctx.db, mediaUserIds);
  const serverNames = await serverNamesOf(
    ms,
    mediaUserIds.filter((id) => !linked.has(id)),
  );
  return {
    linked,
    nameOf(id: string): { name: string; userId?: string } {
      const l = linked.get(id);
      return l ? { name: l.username, userId: l.id } : { name: serverNames.get(id) ?? id };
    },
  };
}

/** Which media users a `userId`/`username` filter means; undefined = everyone. */
async function historyUsers(
  ctx: ModuleContext,
  ms: MediaServer,
  q: { userId?: string; username?: string },
): Promise<string[] | undefined> {
  let ids: string[] | undefined;
  if (q.userId) {
    const row = await requireUser(ctx.db, q.userId);
    ids = row.mediaUserId ? [row.mediaUserId] : [];
  }
  if (q.username) {
    const row = await findUserByName(ctx.db, q.username);
    let byName: string[];
    if (row) byName = row.mediaUserId ? [row.mediaUserId] : [];
    else {
      // Not an Usher name: a media-server user that is not linked to anyone.
      const wanted = q.username.toLowerCase();
      byName = (await ms.listUsers())
        .filter((u) => u.name.toLowerCase() === wanted)
        .map((u) => u.id);
    }
    ids = ids === undefined ? byName : ids.filter((id) => byName.includes(id));
  }
  return ids;
}

/** `GET /admin/playback/history`: plays newest first, one page per plugin query. */
export async function playbackHistory(ctx: ModuleContext, q: PlaybackHistoryQuery) {
  const zone = await businessZone(ctx);
  const range = historyRange(q, ctx.now(), zone);
  const ms = await server(ctx);
  const userIds = await historyUsers(ctx, ms, q);
  const source = await playSource(ctx.db, ms);
  const filter = {
    ...range,
    ...(userIds ? { userIds } : {}),
    ...(q.keyword !== undefined ? { keyword: q.keyword } : {}),
  };
  const total = await source.count(filter);
  const offset = (q.page - 1) * q.pageSize;
  const plays = offset >= total ? [] : await source.rows(filter, { limit: q.pageSize, offset });
  const names = await namer(ctx, ms, [...new Set(plays.map((p) => p.mediaUserId))]);
  return {
    data: plays.map((p) => recordOf(p, names.nameOf(p.mediaUserId))),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** One summary row per media user, for the plays given (each user's plays all among them). */
async function profileRows(
  ctx: ModuleContext,
  ms: MediaServer,
  zone: string,
  plays: Play[],
): Promise<PlaybackProfileRow[]> {
  const byUser = new Map<string, Play[]>();
  for (const p of plays) {
    const mine = byUser.get(p.mediaUserId);
    if (mine) mine.push(p);
    else byUser.set(p.mediaUserId, [p]);
  }
  const names = await namer(ctx, ms, [...byUser.keys()]);
  const wanted = [...byUser.values()].flatMap((ps) => topItems(ps, 10));
  const genres = await genresByItem(ms, [...new Set(wanted)]);
  return [...byUser.entries()].map(([mediaUserId, ps]) => {
    const hours = new Array<number>(24).fill(0);
    for (const p of ps) hours[zonedSlot(p.at, zone).hour]! += p.seconds;
    const peak = hours.indexOf(Math.max(...hours));
    const linked: LinkedUser | undefined = names.linked.get(mediaUserId);
    return {
      user: {
        id: linked?.id ?? null,
        username: linked?.username ?? null,
        mediaUserId,
        name: names.nameOf(mediaUserId).name,
      },
      totals: totalsOf(ps, zone),
      peakHour: ps.length === 0 ? null : peak,
      tags: tagsOf(ps, genres)
        .slice(0, 2)
        .map((t) => t.name),
    };
  });
}

const PLUGIN_USER_ID = /^[0-9a-f]{32}$|^\d+$/;

/**
 * `GET /admin/playback/profiles`: one summary row per media user who played in the range. The
 * source orders and pages the users and totals the range (issue 33: reading every play of 30
 * days took seconds and up to 100 000 rows at 100 000 members); only the page's users' plays
 * are read for their hours and tags. Sorting by active days, which are counted in the business
 * zone, reads the range's plays when the source is the plugin (its dates are server-local text);
 * the copy counts them in SQL.
 */
export async function playbackProfiles(
  ctx: ModuleContext,
  q: PlaybackProfilesQuery,
): Promise<PlaybackProfilesPage> {
  const zone = await businessZone(ctx);
  const range =
    q.range === 'custom' || (q.from && q.to)
      ? historyRange(
          { ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) },
          ctx.now(),
          zone,
        )
      : resolveRange(q, ctx.now(), zone);
  const ms = await server(ctx);
  const source = await playSource(ctx.db, ms);
  const keyword = q.keyword !== undefined ? { keyword: q.keyword } : {};
  const offset = (q.page - 1) * q.pageSize;
  const rangeOut = { from: range.from?.toISOString() ?? null, to: range.to.toISOString() };
  const filter = { ...range, ...keyword };
  const ids = await source.userPage(filter, q.sort, q.order, {
    limit: q.pageSize,
    offset,
    zone,
  });
  if (ids && (source.kind === 'copy' || ids.every((id) => PLUGIN_USER_ID.test(id)))) {
    const sums = await source.totals(filter);
    const plays = ids.length ? await source.rows({ ...filter, userIds: ids }) : [];
    const rows = new Map(
      (await profileRows(ctx, ms, zone, plays)).map((r) => [r.user.mediaUserId, r]),
    );
    return {
      data: ids.flatMap((id) => rows.get(id) ?? []),
      total: sums.users,
      page: q.page,
      pageSize: q.pageSize,
      summary: { userCount: sums.users, playCount: sums.plays, durationSeconds: sums.seconds },
      range: rangeOut,
    };
  }
  return profilesInMemory(ctx, ms, source, q, { zone, filter, rangeOut });
}

/** The profiles from every play of the range (the plugin's active-days sort, odd user ids). */
async function profilesInMemory(
  ctx: ModuleContext,
  ms: MediaServer,
  source: PlaySource,
  q: PlaybackProfilesQuery,
  r: {
    zone: string;
    filter: Parameters<PlaySource['rows']>[0];
    rangeOut: PlaybackProfilesPage['range'];
  },
): Promise<PlaybackProfilesPage> {
  const { zone, rangeOut } = r;
  const offset = (q.page - 1) * q.pageSize;
  const plays = await source.rows(r.filter);
  const rows = await profileRows(ctx, ms, zone, plays);
  const key: Record<PlaybackProfilesQuery['sort'], (r: PlaybackProfileRow) => number> = {
    duration: (r) => r.totals.durationSeconds,
    plays: (r) => r.totals.playCount,
    activeDays: (r) => r.totals.activeDays,
    lastPlayed: (r) => (r.totals.lastPlayedAt ? Date.parse(r.totals.lastPlayedAt) : 0),
  };
  const dir = q.order === 'asc' ? 1 : -1;
  rows.sort(
    (a, b) =>
      dir * (key[q.sort](a) - key[q.sort](b)) ||
      a.user.mediaUserId.localeCompare(b.user.mediaUserId),
  );
  return {
    data: rows.slice(offset, offset + q.pageSize),
    total: rows.length,
    page: q.page,
    pageSize: q.pageSize,
    summary: {
      userCount: rows.length,
      playCount: plays.length,
      durationSeconds: plays.reduce((s, p) => s + p.seconds, 0),
    },
    range: rangeOut,
  };
}
