// Where the playback pages read plays from (docs/media.md "The plays copy"): Usher's indexed
// copy once the `playback_sync` job's first pass has reached the plugin's last row, the
// Playback Reporting plugin itself until then. Both answer in the same shapes, so the pages'
// replies do not depend on the source.
import {
  PLAYBACK_ROWS_MAX,
  playbackClientsSql,
  playbackCountSql,
  playbackHourlySql,
  playbackRowsSql,
  playbackSummarySql,
  playbackTopTitlesSql,
  playbackUserPageSql,
  type MediaServer,
  type PlaybackFilter,
  type PlaybackResult,
} from '../../integrations/media-server/index.js';
import type { Database } from '../../db/client.js';
import { playsOf, type Play } from './plays.js';
import {
  copyClients,
  copyCount,
  copyHourly,
  copyRows,
  copyTopTitles,
  copyTotals,
  copyUserPage,
  syncState,
  type CopyFilter,
  type CopyUserSort,
} from './queries.js';

export type PlayFilter = CopyFilter;
export type PlayUserSort = CopyUserSort;

export interface PlaySource {
  kind: 'plugin' | 'copy';
  /** Plays, newest first; at most `PLAYBACK_ROWS_MAX` however many match. */
  rows(f: PlayFilter, page?: { limit: number; offset?: number }): Promise<Play[]>;
  count(f: PlayFilter): Promise<number>;
  totals(f: PlayFilter): Promise<{ users: number; plays: number; seconds: number }>;
  /** A page of user ids by their plays; undefined when the source cannot order so. */
  userPage(
    f: PlayFilter,
    sort: PlayUserSort,
    order: 'asc' | 'desc',
    page: { limit: number; offset: number; zone: string },
  ): Promise<string[] | undefined>;
  /** Hour buckets (`Hour`, `Method`, `PlayCount`, `PlaySeconds`) on the clock of `zone`. */
  hourly(
    f: PlayFilter,
    businessZone: string,
  ): Promise<{ zone: string; rows: Record<string, string>[] }>;
  clients(f: PlayFilter, limit: number): Promise<Record<string, string>[]>;
  topTitles(f: PlayFilter, limit: number): Promise<Record<string, string>[]>;
}

/** Reads a result's rows as records by column name (the plugin's order does not matter). */
export function recordsOf(result: PlaybackResult): Record<string, string>[] {
  return result.rows.map((row) =>
    Object.fromEntries(result.columns.map((name, i) => [name, row[i] ?? ''])),
  );
}

const int = (text: string | undefined) => Number.parseInt(text ?? '0', 10) || 0;

/** The plugin's SQLite, through `submit_custom_query`. */
export function pluginSource(ms: MediaServer): PlaySource {
  const of = (f: PlayFilter): PlaybackFilter => ({ ...f, timeZone: ms.timeZone });
  const query = async (sql: string) => recordsOf(await ms.playbackQuery(sql));
  return {
    kind: 'plugin',
    async rows(f, page = { limit: PLAYBACK_ROWS_MAX }) {
      return playsOf(await ms.playbackQuery(playbackRowsSql(of(f), page)), ms.timeZone);
    },
    async count(f) {
      return int((await query(playbackCountSql(of(f))))[0]?.['PlayCount']);
    },
    async totals(f) {
      const r = (await query(playbackSummarySql(of(f))))[0] ?? {};
      return { users: int(r['Users']), plays: int(r['PlayCount']), seconds: int(r['PlaySeconds']) };
    },
    async userPage(f, sort, order, page) {
      // Active days are counted in the business zone, which the plugin's server-local text is not.
      if (sort === 'activeDays') return undefined;
      return (await query(playbackUserPageSql(of(f), sort, order, page))).map((r) =>
        (r['UserId'] ?? '').toLowerCase(),
      );
    },
    async hourly(f) {
      return { zone: ms.timeZone, rows: await query(playbackHourlySql(of(f))) };
    },
    clients: (f, limit) => query(playbackClientsSql(of(f), limit)),
    topTitles: (f, limit) => query(playbackTopTitlesSql(of(f), limit)),
  };
}

/** Usher's copy (`playback_plays`). */
export function copySource(db: Database): PlaySource {
  return {
    kind: 'copy',
    rows: (f, page = { limit: PLAYBACK_ROWS_MAX }) => copyRows(db, f, page),
    count: (f) => copyCount(db, f),
    totals: (f) => copyTotals(db, f),
    userPage: (f, sort, order, page) => copyUserPage(db, f, sort, order, page),
    async hourly(f, businessZone) {
      return { zone: businessZone, rows: await copyHourly(db, f, businessZone) };
    },
    clients: (f, limit) => copyClients(db, f, limit),
    topTitles: (f, limit) => copyTopTitles(db, f, limit),
  };
}

/** The copy once its first pass is complete, else the plugin. */
export async function playSource(db: Database, ms: MediaServer): Promise<PlaySource> {
  const state = await syncState(db);
  return state?.backfilledAt ? copySource(db) : pluginSource(ms);
}
