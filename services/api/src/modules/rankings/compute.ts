// Computing a ranking from the Playback Reporting plugin (50-integrations.md §1.7): one query
// totals plays and play time per item inside the period's window (bounds written in the media
// server's zone), then movies rank by their own id and episodes add up to their series.
import type { RankingCategory, RankingPeriod } from '@usher/contracts';
import {
  normaliseId,
  playbackItemTotalsSql,
  type MediaItem,
  type MediaServer,
  type PlaybackResult,
} from '../../integrations/media-server/index.js';
import type { ModuleContext } from '../context.js';
import { periodWindow, type PeriodWindow } from './period.js';

/** `playback_rankings.item_name` holds at most 300 characters (10-data.md §7). */
const NAME_MAX = 300;
/** Items read per page when listing the libraries `RANKING_LIBRARY_IDS` names. */
const LIBRARY_PAGE = 500;
/** An item id the server could have issued (Emby numeric, Jellyfin 32 hex, with or without dashes). */
const SERVER_ID = /^[0-9a-f]{32}$|^[0-9a-f-]{36}$|^\d+$/i;
/** `Series - s01e02 - Title`, the plugin's episode name. */
const EPISODE_NAME = /^(.*?) - s\d+e\d+(?:-?e?\d+)?(?: - |$)/i;

export interface RankedItem {
  category: RankingCategory;
  rank: number;
  /** Movie or series id on the media server; `name:<series>` for a series the server lost. */
  itemKey: string;
  name: string;
  playCount: number;
  durationS: number;
}

export interface ComputedRanking extends PeriodWindow {
  totalDurationS: number;
  movies: RankedItem[];
  series: RankedItem[];
}

interface ItemTotal {
  itemId: string;
  itemType: string;
  itemName: string;
  plays: number;
  seconds: number;
}

interface Group {
  key: string;
  name: string;
  plays: number;
  seconds: number;
}

/** Rows of `playbackItemTotalsSql`, read by column name. */
export function itemTotalsOf(result: PlaybackResult): ItemTotal[] {
  const col = (name: string) => result.columns.indexOf(name);
  const idx = {
    id: col('ItemId'),
    type: col('ItemType'),
    name: col('ItemName'),
    plays: col('PlayCount'),
    seconds: col('PlaySeconds'),
  };
  if (idx.id < 0) return [];
  const cell = (row: string[], i: number) => (i < 0 ? '' : (row[i] ?? ''));
  const int = (text: string) => {
    const n = Number.parseInt(text, 10);
    return Number.isFinite(n) && n > 0 ? n : 0;
  };
  return result.rows.map((row) => ({
    itemId: cell(row, idx.id).trim(),
    itemType: cell(row, idx.type),
    itemName: cell(row, idx.name),
    plays: int(cell(row, idx.plays)),
    seconds: int(cell(row, idx.seconds)),
  }));
}

/** The series part of `Series - s01e02 - Title`; the whole name when it has another shape. */
export function seriesNameOf(episodeName: string): string {
  return (EPISODE_NAME.exec(episodeName)?.[1] ?? episodeName).trim() || episodeName;
}

const keyOf = (id: string) => (SERVER_ID.test(id) ? normaliseId(id) : id);

/** Current names and series of the played items; items the server no longer has are absent. */
async function lookUp(ms: MediaServer, ids: string[]): Promise<Map<string, MediaItem>> {
  const wanted = [...new Set(ids.filter((id) => SERVER_ID.test(id)).map(normaliseId))];
  const out = new Map<string, MediaItem>();
  if (wanted.length === 0) return out;
  const { items } = await ms.items({ ids: wanted });
  for (const item of items) out.set(item.id, item);
  return out;
}

/** Ids of the movies and series in the libraries `RANKING_LIBRARY_IDS` names; null = all. */
async function allowedItems(ms: MediaServer, libraryIds: string[]): Promise<Set<string> | null> {
  if (libraryIds.length === 0) return null;
  const wanted = new Set(libraryIds.map((id) => id.toLowerCase()));
  const libraries = (await ms.libraries()).filter((l) => wanted.has(l.id.toLowerCase()));
  const out = new Set<string>();
  for (const library of libraries) {
    for (let start = 0; ; start += LIBRARY_PAGE) {
      const page = await ms.items({
        parentId: library.itemId,
        types: ['Movie', 'Series'],
        start,
        limit: LIBRARY_PAGE,
      });
      for (const item of page.items) out.add(item.id);
      if (page.items.length < LIBRARY_PAGE || start + LIBRARY_PAGE >= page.total) break;
    }
  }
  return out;
}

function add(groups: Map<string, Group>, key: string, name: string, t: ItemTotal): void {
  const g = groups.get(key) ?? { key, name, plays: 0, seconds: 0 };
  g.plays += t.plays;
  g.seconds += t.seconds;
  groups.set(key, g);
}

/** Watch time first, then plays, then the title (code-point order, so the result is stable). */
export function rankGroups(groups: Iterable<Group>, category: RankingCategory, topN: number) {
  const byOrder = (a: Group, b: Group) =>
    b.seconds - a.seconds ||
    b.plays - a.plays ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return [...groups]
    .filter((g) => g.plays > 0)
    .sort(byOrder)
    .slice(0, topN)
    .map((g, i): RankedItem => ({
      category,
      rank: i + 1,
      itemKey: g.key,
      name: g.name.slice(0, NAME_MAX) || g.key,
      playCount: g.plays,
      durationS: g.seconds,
    }));
}

/** Groups the plugin's per-item totals into movies and series, named as the server names them. */
export function groupTotals(totals: ItemTotal[], items: Map<string, MediaItem>) {
  const movies = new Map<string, Group>();
  const series = new Map<string, Group>();
  const lost: { name: string; total: ItemTotal }[] = [];
  for (const t of totals) {
    if (t.itemId === '') continue;
    const item = items.get(keyOf(t.itemId));
    if (t.itemType === 'Movie') {
      add(movies, keyOf(t.itemId), item?.name ?? t.itemName, t);
    } else if (t.itemType === 'Episode') {
      if (item?.seriesId) {
        add(series, item.seriesId, item.seriesName ?? seriesNameOf(t.itemName), t);
      } else {
        lost.push({ name: seriesNameOf(t.itemName), total: t });
      }
    }
  }
  // Episodes the server no longer has join a series of the same name, else stand by name.
  const idByName = new Map([...series.values()].map((g) => [g.name, g.key]));
  for (const { name, total } of lost)
    add(series, idByName.get(name) ?? `name:${name}`, name, total);
  return { movies, series };
}

/**
 * The ranking of the period containing `day` (default today), computed, not stored: plays whose
 * `DateCreated` falls in [midnight of the first day, cutoff) in `SCHEDULE_TIMEZONE`.
 */
export async function computeRanking(
  ctx: ModuleContext,
  period: RankingPeriod,
  day?: string,
): Promise<ComputedRanking> {
  const store = ctx.settings.store;
  const zone = (await store.getString('SCHEDULE_TIMEZONE')) || 'UTC';
  const window = periodWindow(period, zone, ctx.now(), day);
  const topN = await store.get('RANKING_TOP_N');
  const libraryIds = await store.get('RANKING_LIBRARY_IDS');
  const ms = await ctx.integrations.mediaServer.get();
  const totals = itemTotalsOf(
    await ms.playbackQuery(
      playbackItemTotalsSql({ from: window.from, to: window.cutoff, timeZone: ms.timeZone }),
    ),
  );
  const items = await lookUp(
    ms,
    totals.filter((t) => t.itemType === 'Movie' || t.itemType === 'Episode').map((t) => t.itemId),
  );
  const { movies, series } = groupTotals(totals, items);
  const allowed = await allowedItems(ms, libraryIds ?? []);
  const keep = (groups: Map<string, Group>) =>
    [...groups.values()].filter((g) => allowed === null || allowed.has(g.key));
  return {
    ...window,
    totalDurationS: totals.reduce((s, t) => s + t.seconds, 0),
    movies: rankGroups(keep(movies), 'movie', topN),
    series: rankGroups(keep(series), 'series', topN),
  };
}
