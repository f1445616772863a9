// The plays copy (`playback_plays`) and its sync state: the upsert of a batch, and the reads the
// playback pages make, in the shapes the plugin's SQL answers with (modules/playback/source.ts).
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { playbackSync, type PlaybackSyncRow } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import type { Play } from './plays.js';

export const SYNC_SOURCE = 'plugin';

/** What a read of the copy may filter on (the plugin's `PlaybackFilter` without its zone). */
export interface CopyFilter {
  from?: Date;
  to: Date;
  userIds?: string[];
  keyword?: string;
}

export type CopyUserSort = 'duration' | 'plays' | 'lastPlayed' | 'activeDays';

export async function syncState(db: Database): Promise<PlaybackSyncRow | undefined> {
  const [row] = await db.select().from(playbackSync).where(eq(playbackSync.source, SYNC_SOURCE));
  return row;
}

/** Moves the cursor (and marks the first pass done) after a batch is stored. */
export async function saveSyncState(
  db: Database,
  patch: { cursor: number; copied: number; now: Date; backfilled: boolean },
): Promise<void> {
  const values = {
    source: SYNC_SOURCE,
    cursor: patch.cursor,
    rowsCopied: patch.copied,
    syncedAt: patch.now,
    updatedAt: patch.now,
    ...(patch.backfilled ? { backfilledAt: patch.now } : {}),
  };
  await db
    .insert(playbackSync)
    .values(values)
    .onConflictDoUpdate({
      target: playbackSync.source,
      set: {
        cursor: patch.cursor,
        rowsCopied: sql`${playbackSync.rowsCopied} + ${patch.copied}`,
        syncedAt: patch.now,
        updatedAt: patch.now,
        ...(patch.backfilled
          ? {
              backfilledAt: sql`coalesce(${playbackSync.backfilledAt}, ${patch.now.toISOString()}::timestamptz)`,
            }
          : {}),
      },
    });
}

/** The lowest plugin rowid copied among plays since `since`: where the refresh re-reads from. */
export async function firstRowidSince(db: Database, since: Date): Promise<number | null> {
  const [row] = await queryRows<{ first: string | number | null }>(
    db,
    sql`select min(source_rowid) as first from playback_plays where played_at >= ${since.toISOString()}`,
  );
  return row?.first === null || row?.first === undefined ? null : Number(row.first);
}

/**
 * Stores plays by their key (`played_at`, user, item — the key the plugin itself updates a row
 * by): a play read again (a re-read batch, a refreshed duration) replaces its copy. The batch
 * travels as one JSON parameter (`json_to_recordset`): one statement and one parameter however
 * many rows, where a multi-row VALUES list took ~1.5 s per 1 000 rows to build and bind.
 */
export async function upsertPlays(
  db: Database,
  plays: (Play & { rowid: number })[],
): Promise<void> {
  // One statement may not touch a key twice: the last of a batch wins.
  const byKey = new Map<string, Play & { rowid: number }>();
  for (const p of plays) byKey.set(`${p.at.toISOString()}|${p.mediaUserId}|${p.itemId}`, p);
  if (byKey.size === 0) return;
  const rows = JSON.stringify(
    [...byKey.values()].map((p) => ({
      r: p.rowid,
      a: p.at.toISOString(),
      u: p.mediaUserId,
      i: p.itemId,
      t: p.itemType,
      n: p.itemName,
      m: p.method,
      c: p.client,
      d: p.device,
      s: Math.min(p.seconds, 2_147_483_647),
    })),
  );
  await db.execute(sql`insert into playback_plays (source_rowid, played_at, media_user_id, item_id,
      item_type, item_name, play_method, client, device, seconds)
    select r, a, u, i, t, n, m, c, d, s from json_to_recordset(${rows}::json)
      as x(r bigint, a timestamptz, u text, i text, t text, n text, m text, c text, d text, s integer)
    on conflict (played_at, media_user_id, item_id) do update set
      source_rowid = excluded.source_rowid, item_type = excluded.item_type,
      item_name = excluded.item_name, play_method = excluded.play_method,
      client = excluded.client, device = excluded.device, seconds = excluded.seconds`);
}

/** `\`, `%` and `_` escaped for `ILIKE '%…%'` (backslash is PostgreSQL's default escape). */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function where(f: CopyFilter): SQL {
  const parts: SQL[] = [sql`played_at < ${f.to.toISOString()}`];
  if (f.from) parts.push(sql`played_at >= ${f.from.toISOString()}`);
  if (f.userIds) {
    parts.push(
      f.userIds.length === 0
        ? sql`false`
        : sql`media_user_id in (${sql.join(
            f.userIds.map((id) => sql`${id.toLowerCase()}`),
            sql`, `,
          )})`,
    );
  }
  if (f.keyword !== undefined) parts.push(sql`item_name ilike ${`%${likeText(f.keyword)}%`}`);
  return sql.join(parts, sql` and `);
}

interface CopyRow extends Record<string, unknown> {
  played_at: Date | string;
  media_user_id: string;
  item_id: string;
  item_type: string;
  item_name: string;
  play_method: Play['method'];
  client: string;
  device: string;
  seconds: number;
}

const playOf = (r: CopyRow): Play => ({
  at: new Date(r.played_at),
  mediaUserId: r.media_user_id,
  itemId: r.item_id,
  itemName: r.item_name,
  itemType: r.item_type,
  method: r.play_method,
  client: r.client,
  device: r.device,
  seconds: Number(r.seconds),
});

/** Plays, newest first (the key index read backwards), `limit` after `offset`. */
export async function copyRows(
  db: Database,
  f: CopyFilter,
  page: { limit: number; offset?: number },
): Promise<Play[]> {
  const rows = await queryRows<CopyRow>(
    db,
    sql`select played_at, media_user_id, item_id, item_type, item_name, play_method, client,
      device, seconds from playback_plays where ${where(f)}
      order by played_at desc, media_user_id desc, item_id desc
      limit ${page.limit} offset ${page.offset ?? 0}`,
  );
  return rows.map(playOf);
}

export async function copyCount(db: Database, f: CopyFilter): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from playback_plays where ${where(f)}`,
  );
  return Number(row?.n ?? 0);
}

/** Users, plays and play time in the filter. */
export async function copyTotals(
  db: Database,
  f: CopyFilter,
): Promise<{ users: number; plays: number; seconds: number }> {
  const [row] = await queryRows<{ users: number; plays: number; seconds: number }>(
    db,
    sql`select count(distinct media_user_id)::int as users, count(*)::int as plays,
      coalesce(sum(seconds), 0)::float8 as seconds from playback_plays where ${where(f)}`,
  );
  return {
    users: Number(row?.users ?? 0),
    plays: Number(row?.plays ?? 0),
    seconds: Number(row?.seconds ?? 0),
  };
}

/**
 * One page of media users by their plays in the filter, ordered by `sort` then by id. Active
 * days are counted in `zone` (the business zone), which the plugin's server-local text could not.
 */
export async function copyUserPage(
  db: Database,
  f: CopyFilter,
  sort: CopyUserSort,
  order: 'asc' | 'desc',
  page: { limit: number; offset: number; zone: string },
): Promise<string[]> {
  const key: Record<CopyUserSort, SQL> = {
    duration: sql`sum(seconds)`,
    plays: sql`count(*)`,
    lastPlayed: sql`max(played_at)`,
    activeDays: sql`count(distinct (played_at at time zone ${page.zone})::date)`,
  };
  const dir = order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await queryRows<{ media_user_id: string }>(
    db,
    sql`select media_user_id from playback_plays where ${where(f)} group by media_user_id
      order by ${key[sort]} ${dir}, media_user_id collate "C" asc
      limit ${page.limit} offset ${page.offset}`,
  );
  return rows.map((r) => r.media_user_id);
}

/** Rows with every cell as text, as the plugin answers (summary.ts reads both alike). */
async function records(db: Database, query: SQL): Promise<Record<string, string>[]> {
  return (await queryRows(db, query)).map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? '' : String(v)])),
  );
}

/** A group's plays and play time, named as the plugin's aggregates name them. */
const PLAY_TOTALS = sql`count(*)::int as "PlayCount", coalesce(sum(seconds), 0)::float8 as "PlaySeconds"`;

/**
 * Plays per hour of `zone`'s clock and play method (`Hour` = `YYYY-MM-DD HH`, `Method`,
 * `PlayCount`, `PlaySeconds`), as the plugin's hourly read answers on the server's clock.
 */
export async function copyHourly(
  db: Database,
  f: CopyFilter,
  zone: string,
): Promise<Record<string, string>[]> {
  return records(
    db,
    sql`select to_char(played_at at time zone ${zone}, 'YYYY-MM-DD HH24') as "Hour",
      play_method as "Method", ${PLAY_TOTALS} from playback_plays where ${where(f)} group by 1, 2`,
  );
}

/** The `limit` clients with the most watch time (`ClientName`, `PlayCount`, `PlaySeconds`). */
export async function copyClients(
  db: Database,
  f: CopyFilter,
  limit: number,
): Promise<Record<string, string>[]> {
  return records(
    db,
    sql`select client as "ClientName", ${PLAY_TOTALS} from playback_plays where ${where(f)}
      group by client order by 3 desc, 2 desc, client collate "C" asc limit ${limit}`,
  );
}

/**
 * The `limit` most watched titles, grouped as the plugin's read groups them: a movie by its id,
 * a series' episodes by the series part of the `Series - s01e02 - Title` name.
 */
export async function copyTopTitles(
  db: Database,
  f: CopyFilter,
  limit: number,
): Promise<Record<string, string>[]> {
  return records(
    db,
    sql`select * from (select item_type as "ItemType",
      case when item_type = 'Episode' and strpos(item_name, ' - s') > 1
        then substr(item_name, 1, strpos(item_name, ' - s') - 1) else item_id end as "TitleKey",
      max(item_id collate "C") as "ItemId", max(item_name collate "C") as "ItemName", ${PLAY_TOTALS}
      from playback_plays where ${where(f)} and item_type in ('Movie', 'Episode')
      group by 1, 2) as titles
      order by "PlaySeconds" desc, "PlayCount" desc, "TitleKey" collate "C" asc limit ${limit}`,
  );
}
