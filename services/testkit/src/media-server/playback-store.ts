// The Playback Reporting plugin's SQLite table, on a real SQL engine so the SQL Usher sends is
// actually parsed and executed (node:sqlite, in memory).
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { wallClock } from '@usher/contracts/time';

import type { Flavour } from './flavour.js';

/** Columns both plugins have (§1.7). */
const SHARED_COLUMNS = [
  'DateCreated DATETIME NOT NULL',
  'UserId TEXT',
  'ItemId TEXT',
  'ItemType TEXT',
  'ItemName TEXT',
  'PlaybackMethod TEXT',
  'ClientName TEXT',
  'DeviceName TEXT',
  'PlayDuration INT',
];
/** Only the Emby plugin records pauses, the client address and transcode reasons. */
const EMBY_COLUMNS = ['PauseDuration INT', 'RemoteAddress TEXT', 'TranscodeReasons TEXT'];

export interface PlaybackRow {
  /** Local server time as the plugin writes it: `yyyy-MM-dd HH:mm:ss.fffffff`. */
  DateCreated: string;
  UserId: string;
  ItemId: string;
  ItemType: string;
  ItemName: string;
  /** `DirectPlay`, `DirectStream`, `Transcode (v:… a:…)` or `na`. */
  PlaybackMethod: string;
  ClientName: string;
  DeviceName: string;
  /** Seconds. */
  PlayDuration: number;
  PauseDuration?: number;
  RemoteAddress?: string;
  TranscodeReasons?: string;
}

/** The plugin's reply; note the plugin's own spelling `colums`. */
export interface CustomQueryReply {
  colums: string[];
  results: string[][];
  message: string;
}

export class PlaybackStore {
  /** Whether the plugin is installed; when false its route answers 404. */
  installed = true;
  readonly db: DatabaseSync;
  readonly columns: string[];
  private insertStatement?: StatementSync;

  constructor(private readonly flavour: Flavour) {
    this.db = new DatabaseSync(':memory:');
    const defs = flavour === 'emby' ? [...SHARED_COLUMNS, ...EMBY_COLUMNS] : SHARED_COLUMNS;
    this.columns = defs.map((d) => d.split(' ')[0] as string);
    this.db.exec(`CREATE TABLE PlaybackActivity (${defs.join(', ')})`);
  }

  insert(row: PlaybackRow): void {
    const values = this.columns.map((c) => {
      const v = (row as unknown as Record<string, unknown>)[c];
      return v === undefined ? null : (v as string | number);
    });
    // Prepared once: the demo seeds thousands of rows through here.
    this.insertStatement ??= this.db.prepare(
      `INSERT INTO PlaybackActivity (${this.columns.join(', ')}) ` +
        `VALUES (${this.columns.map(() => '?').join(', ')})`,
    );
    this.insertStatement.run(...values);
  }

  clear(): void {
    this.db.exec('DELETE FROM PlaybackActivity');
  }

  /**
   * Runs the SQL as the plugin does: every cell becomes a string, errors come back in
   * `message` with HTTP 200, and an empty result has no columns either.
   */
  run(sql: string, userName?: (id: string) => string | undefined): CustomQueryReply {
    let colums: string[] = [];
    const results: string[][] = [];
    try {
      const stmt = this.db.prepare(sql);
      stmt.setReturnArrays(true);
      colums = stmt.columns().map((c) => c.name);
      const rows = stmt.all() as unknown as unknown[][];
      for (const row of rows) {
        results.push(
          row.map((cell, i) => {
            const s = cellText(cell);
            return userName && colums[i] === 'UserId' ? (userName(s) ?? s) : s;
          }),
        );
      }
    } catch (err) {
      // SQL errors are the caller's to see: the plugin catches them and reports them in-band.
      const msg = err instanceof Error ? err.message : String(err);
      return {
        colums: [],
        results: [],
        message: `Error Running Query</br>${msg}<pre>${String(err)}</pre>`,
      };
    }
    if (results.length === 0) {
      const changes = this.db.prepare('SELECT changes() AS n').get() as { n: number } | undefined;
      // The plugin's wording, misspelling included.
      const affected = `Number of rows effected : ${changes?.n ?? 0}`;
      return {
        colums: [],
        results: [],
        message: `Query executed, no data returned.<br>${affected}`,
      };
    }
    return { colums, results, message: '' };
  }
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Uint8Array) return Buffer.from(cell).toString('base64');
  return String(cell);
}

/** Formats an instant as the plugin stores it: the server's local time with 7 fraction digits. */
export function pluginDate(at: Date, timeZone: string): string {
  const c = wallClock(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  const fraction = String(at.getUTCMilliseconds()).padStart(3, '0') + '0000';
  const date = `${c.year}-${two(c.month)}-${two(c.day)}`;
  return `${date} ${two(c.hour)}:${two(c.minute)}:${two(c.second)}.${fraction}`;
}
