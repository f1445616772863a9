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
  const plays: PluginPlay[] = [];
  for (const row of result.rows) {
    const iso = parsePlaybackDate(cell(row, at), serverZone);
    if (!iso) continue;
    const seconds = Number.parseInt(cell(row, idx.duration), 10);
    plays.push({
      rowid: idx.rowid < 0 ? Number.NaN : Number(cell(row, idx.rowid)),
      at: new Date(iso),
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
