// The only SQL Usher sends to the Playback Reporting plugin (50-integrations.md §1.7): fixed
// templates whose variable parts are dates Usher formats itself, ids that must match
// `^[0-9a-f]{32}$|^\d+$`, integers, and keyword text with quotes doubled and LIKE wildcards
// escaped. Only the columns both plugins have appear here.
import { formatPlaybackBound, PLAYBACK_SHARED_COLUMNS, sqlId, sqlLikeText } from './playback.js';

/** What a playback read may filter on; every field is checked before it reaches the text. */
export interface PlaybackFilter {
  /** Inclusive lower bound; absent = from the first row. */
  from?: Date;
  /** Exclusive upper bound. */
  to: Date;
  /** The media server's zone, in which `DateCreated` is written. */
  timeZone: string;
  /** Media-server user ids; absent = everyone. An empty list matches nobody. */
  userIds?: string[];
  /** Part of the item name (episodes: `Series - s01e02 - Title`). */
  keyword?: string;
}

/** The columns a row read selects, in this order (see `PlaybackRowCells`). */
export const PLAYBACK_ROW_COLUMNS = PLAYBACK_SHARED_COLUMNS;

const ROWS_LIMIT_MAX = 100_000;

function int(n: number, max: number): number {
  if (!Number.isSafeInteger(n) || n < 0 || n > max) throw new Error('Not a valid row count');
  return n;
}

function where(f: PlaybackFilter): string {
  const parts: string[] = [];
  if (f.from) parts.push(`DateCreated >= '${formatPlaybackBound(f.from, f.timeZone)}'`);
  parts.push(`DateCreated < '${formatPlaybackBound(f.to, f.timeZone)}'`);
  if (f.userIds) {
    // No id at all: a condition that is never true, rather than `IN ()`, which SQLite refuses.
    parts.push(
      f.userIds.length === 0
        ? '1 = 0'
        : `UserId IN (${f.userIds.map((id) => `'${sqlId(id)}'`).join(', ')})`,
    );
  }
  if (f.keyword !== undefined) {
    parts.push(`ItemName LIKE '%${sqlLikeText(f.keyword)}%' ESCAPE '\\'`);
  }
  return parts.join(' AND ');
}

/** Plays, newest first, `limit` rows after `offset`. */
export function playbackRowsSql(
  f: PlaybackFilter,
  page: { limit: number; offset?: number },
): string {
  const limit = int(page.limit, ROWS_LIMIT_MAX);
  const offset = int(page.offset ?? 0, Number.MAX_SAFE_INTEGER);
  return (
    `SELECT ${PLAYBACK_ROW_COLUMNS.join(', ')} FROM PlaybackActivity WHERE ${where(f)} ` +
    `ORDER BY DateCreated DESC LIMIT ${limit} OFFSET ${offset}`
  );
}

/** How many plays match; COALESCE keeps one row even when none match (§1.7). */
export function playbackCountSql(f: PlaybackFilter): string {
  return `SELECT COALESCE(COUNT(*), 0) AS PlayCount FROM PlaybackActivity WHERE ${where(f)}`;
}

/** The columns `playbackItemTotalsSql` answers with, in this order. */
export const PLAYBACK_ITEM_TOTAL_COLUMNS = [
  'ItemId',
  'ItemType',
  'ItemName',
  'PlayCount',
  'PlaySeconds',
] as const;

/**
 * Plays and play time per item (rankings): one row per `ItemId`/`ItemType` with one of the names
 * the plugin recorded for it (the server's current name is preferred by the caller). No row
 * limit: there is one row per distinct item, not per play.
 */
export function playbackItemTotalsSql(f: PlaybackFilter): string {
  return (
    'SELECT ItemId, ItemType, MAX(ItemName) AS ItemName, COUNT(*) AS PlayCount, ' +
    'COALESCE(SUM(CASE WHEN PlayDuration > 0 THEN PlayDuration ELSE 0 END), 0) AS PlaySeconds ' +
    `FROM PlaybackActivity WHERE ${where(f)} GROUP BY ItemId, ItemType`
  );
}

/** The most rows one read may fetch. */
export const PLAYBACK_ROWS_MAX = ROWS_LIMIT_MAX;

/** Each user's last play since `since` (`UserId`, `LastPlayed`): the inactivity watch's read. */
export function lastPlaysSql(since: Date, timeZone: string): string {
  return (
    `SELECT UserId, MAX(DateCreated) AS LastPlayed FROM PlaybackActivity ` +
    `WHERE DateCreated >= '${formatPlaybackBound(since, timeZone)}' GROUP BY UserId`
  );
}

/** What `playbackUserTotalsSql` orders by (the profiles list's sorts that SQL reads exactly). */
export type PlaybackUserSort = 'duration' | 'plays' | 'lastPlayed';

const USER_SORT: Record<PlaybackUserSort, string> = {
  duration: 'PlaySeconds',
  plays: 'PlayCount',
  lastPlayed: 'LastPlayed',
};

/**
 * One page of media users by their plays in the filter (`UserId`, `PlayCount`, `PlaySeconds`,
 * `LastPlayed`), ordered by `sort` then by id: the profiles list pages in the plugin instead of
 * reading every play of the range (issue 33).
 */
export function playbackUserPageSql(
  f: PlaybackFilter,
  sort: PlaybackUserSort,
  order: 'asc' | 'desc',
  page: { limit: number; offset: number },
): string {
  const limit = int(page.limit, ROWS_LIMIT_MAX);
  const offset = int(page.offset, Number.MAX_SAFE_INTEGER);
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  return (
    'SELECT lower(UserId) AS UserId, COUNT(*) AS PlayCount, ' +
    'COALESCE(SUM(CASE WHEN PlayDuration > 0 THEN PlayDuration ELSE 0 END), 0) AS PlaySeconds, ' +
    `MAX(DateCreated) AS LastPlayed FROM PlaybackActivity WHERE ${where(f)} ` +
    `GROUP BY lower(UserId) ORDER BY ${USER_SORT[sort]} ${dir}, lower(UserId) ASC ` +
    `LIMIT ${limit} OFFSET ${offset}`
  );
}

/** Users, plays and play time in the filter (`Users`, `PlayCount`, `PlaySeconds`). */
export function playbackSummarySql(f: PlaybackFilter): string {
  return (
    'SELECT COUNT(DISTINCT lower(UserId)) AS Users, COUNT(*) AS PlayCount, ' +
    'COALESCE(SUM(CASE WHEN PlayDuration > 0 THEN PlayDuration ELSE 0 END), 0) AS PlaySeconds ' +
    `FROM PlaybackActivity WHERE ${where(f)}`
  );
}

const PLAY_SECONDS = 'COALESCE(SUM(CASE WHEN PlayDuration > 0 THEN PlayDuration ELSE 0 END), 0)';

/**
 * Plays per hour of the server's clock and play method (`Hour` = `YYYY-MM-DD HH`, `Method`,
 * `PlayCount`, `PlaySeconds`): at most 24 × 4 rows a day, which Usher re-buckets into the
 * business zone's days and hours (issue 36, the admin dashboard).
 */
export function playbackHourlySql(f: PlaybackFilter): string {
  return (
    "SELECT substr(DateCreated, 1, 13) AS Hour, CASE WHEN PlaybackMethod LIKE 'Transcode%' " +
    "THEN 'Transcode' WHEN PlaybackMethod LIKE 'DirectStream%' THEN 'DirectStream' " +
    "WHEN PlaybackMethod LIKE 'DirectPlay%' THEN 'DirectPlay' ELSE 'unknown' END AS Method, " +
    `COUNT(*) AS PlayCount, ${PLAY_SECONDS} AS PlaySeconds FROM PlaybackActivity ` +
    `WHERE ${where(f)} GROUP BY Hour, Method`
  );
}

/** The `limit` clients with the most watch time (`ClientName`, `PlayCount`, `PlaySeconds`). */
export function playbackClientsSql(f: PlaybackFilter, limit: number): string {
  return (
    `SELECT ClientName, COUNT(*) AS PlayCount, ${PLAY_SECONDS} AS PlaySeconds ` +
    `FROM PlaybackActivity WHERE ${where(f)} GROUP BY ClientName ` +
    `ORDER BY PlaySeconds DESC, PlayCount DESC, ClientName ASC LIMIT ${int(limit, 100)}`
  );
}

/**
 * The `limit` most watched titles (`ItemType`, `TitleKey`, `ItemId`, `ItemName`, `PlayCount`,
 * `PlaySeconds`): a movie by its id, a series' episodes together by the series part of the
 * plugin's `Series - s01e02 - Title` name, with one of its episode ids to find the series by.
 */
export function playbackTopTitlesSql(f: PlaybackFilter, limit: number): string {
  const series = "instr(ItemName, ' - s')";
  return (
    `SELECT ItemType, CASE WHEN ItemType = 'Episode' AND ${series} > 1 ` +
    `THEN substr(ItemName, 1, ${series} - 1) ELSE ItemId END AS TitleKey, ` +
    `MAX(ItemId) AS ItemId, MAX(ItemName) AS ItemName, COUNT(*) AS PlayCount, ` +
    `${PLAY_SECONDS} AS PlaySeconds FROM PlaybackActivity ` +
    `WHERE ${where(f)} AND ItemType IN ('Movie', 'Episode') GROUP BY ItemType, TitleKey ` +
    `ORDER BY PlaySeconds DESC, PlayCount DESC, TitleKey ASC LIMIT ${int(limit, 100)}`
  );
}
