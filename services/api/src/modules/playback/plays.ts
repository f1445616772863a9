// A play as Usher reads it, from the plugin's reply (server-local text dates → UTC instants)
// or from the copy (`playback_plays`, already UTC).
import {
  parsePlaybackDate,
  playbackMethodOf,
  type PlaybackMethodKind,
  type PlaybackResult,
} from '../../integrations/media-server/index.js';

export interface Play {
  at: Date;
  mediaUserId: string;
  itemId: string;
  itemName: string;
  itemType: string;
  method: PlaybackMethodKind;
  client: string;
  device: string;
  seconds: number;
}

/** A plugin row with its rowid (the sync's reads select `rowid AS RowId`). */
export interface PluginPlay extends Play {
  rowid: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;

/**
 * `parsePlaybackDate` for many rows: the zone's offset is looked up once per wall-clock hour
 * (at its first and last second; a zone whose offset changes inside the hour is read row by
 * row), instead of twice per row — the sync converts two million dates.
 */
export function playbackDateReader(serverZone: string): (text: string) => Date | undefined {
  const offsets = new Map<string, number | null>();
  const wallOf = (m: RegExpExecArray) => {
    const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
    return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, ms);
  };
  const offsetAt = (text: string) => {
    const iso = parsePlaybackDate(text, serverZone);
    return iso === undefined ? null : wallOf(DATE.exec(text)!) - Date.parse(iso);
  };
  return (text) => {
    const trimmed = text.trim();
    const m = DATE.exec(trimmed);
    if (!m) return undefined;
    const hour = `${m[1]}-${m[2]}-${m[3]} ${m[4]}`;
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const first = offsetAt(`${hour}:00:00`);
      offset = first !== null && first === offsetAt(`${hour}:59:59`) ? first : null;
      offsets.set(hour, offset);
    }
    if (offset === null) {
      const iso = parsePlaybackDate(trimmed, serverZone);
      return iso === undefined ? undefined : new Date(iso);
    }
    return new Date(wallOf(m) - offset);
  };
}

/** Reads rows by column name, so the order the plugin sends them in does not matter. */
export function playsOf(result: PlaybackResult, serverZone: string): Play[] {
  return pluginRows(result, serverZone);
}

/** `playsOf` keeping each row's `RowId` (NaN when the reply has none). */
export function pluginRows(result: PlaybackResult, serverZone: string): PluginPlay[] {
  const col = (name: string) => result.columns.indexOf(name);
  const at = col('DateCreated');
  if (at < 0) return [];
  const idx = {
    rowid: col('RowId'),
    user: col('UserId'),
    item: col('ItemId'),
    type: col('ItemType'),
    name: col('ItemName'),
    method: col('PlaybackMethod'),
    client: col('ClientName'),
    device: col('DeviceName'),
    duration: col('PlayDuration'),
  };
  const cell = (row: string[], i: number) => (i < 0 ? '' : (row[i] ?? ''));
  const dateOf = playbackDateReader(serverZone);
  const plays: PluginPlay[] = [];
  for (const row of result.rows) {
    const when = dateOf(cell(row, at));
    if (!when) continue;
    const seconds = Number.parseInt(cell(row, idx.duration), 10);
    plays.push({
      rowid: idx.rowid < 0 ? Number.NaN : Number(cell(row, idx.rowid)),
      at: when,
      mediaUserId: cell(row, idx.user).toLowerCase(),
      itemId: cell(row, idx.item),
      itemName: cell(row, idx.name),
      itemType: cell(row, idx.type),
      method: playbackMethodOf(cell(row, idx.method)),
      client: cell(row, idx.client),
      device: cell(row, idx.device),
      seconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 0,
    });
  }
  return plays;
}
