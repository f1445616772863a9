// The Playback Reporting plugin (50-integrations.md §1.7): its reply (`colums`, string cells,
// errors inside an HTTP 200), the columns both plugins share, and the text Usher puts in SQL.
import { wallClock, type WallClock } from '@usher/contracts/time';
import type { Logger } from 'pino';
import { z } from 'zod';
import { IntegrationError } from '../errors.js';
import type { IntegrationMetrics } from '../../metrics/integrations.js';
import type { Call, MediaServerClient } from './client.js';
import { normaliseId, type PlaybackResult } from './port.js';

/** Columns of `PlaybackActivity` that both the Emby and the Jellyfin plugin have. */
export const PLAYBACK_SHARED_COLUMNS = [
  'DateCreated',
  'UserId',
  'ItemId',
  'ItemType',
  'ItemName',
  'PlaybackMethod',
  'ClientName',
  'DeviceName',
  'PlayDuration',
] as const;

/** Only the Emby plugin has these; SQL that names them breaks on Jellyfin (§8 risk 12). */
export const PLAYBACK_EMBY_ONLY_COLUMNS = ['PauseDuration', 'RemoteAddress', 'TranscodeReasons'];

/** The plugin's reply. Its own spelling `colums` is the contract; cells are always text. */
export const PlaybackReplySchema = z.object({
  colums: z.array(z.string()).nullish(),
  results: z
    .array(
      z.array(
        z
          .string()
          .nullable()
          .transform((v) => v ?? ''),
      ),
    )
    .nullish(),
  message: z.string().nullish(),
});

const OPERATION = 'playback_query';

/**
 * Refuses SQL the plugin must never receive: anything but one SELECT, or a column only the Emby
 * plugin has. Usher builds its SQL from fixed templates, so a refusal here is a bug in Usher —
 * hence a plain Error, which surfaces as a 500 and a log line.
 */
export function assertPlaybackSql(sql: string): void {
  // String literals are data (a keyword may well contain `;` or a column name): check the rest.
  const code = sql.replace(/'(?:[^']|'')*'/g, "''");
  const body = code.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (!/^select\b/i.test(body)) throw new Error('Playback queries must be a single SELECT');
  if (/;\s*\S/.test(body)) throw new Error('Playback queries must be a single statement');
  const emby = PLAYBACK_EMBY_ONLY_COLUMNS.find((c) => new RegExp(`\\b${c}\\b`, 'i').test(body));
  if (emby) throw new Error(`Playback queries may use only shared columns, not ${emby}`);
}

/** Turns the plugin's reply into rows; an in-band error becomes `invalid_response`. */
export function readPlaybackReply(
  reply: z.infer<typeof PlaybackReplySchema>,
  deps: { logger?: Logger; metrics?: IntegrationMetrics } = {},
): PlaybackResult {
  const invalid = (message: string, upstream?: string) => {
    // The HTTP call was counted `ok`; the unusable answer is counted too, as parse() does.
    deps.metrics?.requests.inc({
      system: 'playback_reporting',
      operation: OPERATION,
      outcome: 'invalid_response',
    });
    return new IntegrationError(
      'playback_reporting',
      OPERATION,
      'invalid_response',
      message,
      200,
      upstream,
    );
  };
  const columns = reply.colums ?? [];
  const rows = reply.results ?? [];
  const message = reply.message ?? '';
  if (rows.length === 0 && message.startsWith('Error Running Query')) {
    const text = stripHtml(message).slice(0, 500);
    deps.logger?.warn(
      { system: 'playback_reporting', operation: OPERATION, message: text },
      'Playback Reporting query failed',
    );
    throw invalid('The Playback Reporting plugin could not run the query', text);
  }
  // "Query executed, no data returned" comes with empty colums too: a valid empty result.
  if (rows.some((r) => r.length !== columns.length)) {
    throw invalid('The Playback Reporting plugin sent rows that do not match its columns');
  }
  return { columns, rows };
}

/** Sends one query through the plugin; a server without the plugin answers 404 (§1.4). */
export async function runPlaybackQuery(
  client: MediaServerClient,
  deps: { logger?: Logger; metrics?: IntegrationMetrics },
  sql: string,
): Promise<PlaybackResult> {
  assertPlaybackSql(sql);
  const call: Call = {
    op: OPERATION,
    method: 'POST',
    path: '/user_usage_stats/submit_custom_query',
    json: { CustomQueryString: sql, ReplaceUserId: false },
    system: 'playback_reporting',
    // Playback queries get three times the normal timeout (§0).
    slow: true,
    pass: [404],
  };
  const reply = await client.send(call);
  if (reply.status === 404) {
    throw new IntegrationError(
      'playback_reporting',
      OPERATION,
      'not_configured',
      'Playback Reporting plugin not installed',
      404,
    );
  }
  return readPlaybackReply(client.parse(reply, call, PlaybackReplySchema), deps);
}

function stripHtml(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

type LocalParts = Omit<WallClock, 'weekday'>;

function localParts(at: Date, timeZone: string): LocalParts {
  const { year, month, day, hour, minute, second } = wallClock(at, timeZone);
  return { year, month, day, hour, minute, second };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * A date bound as the plugin compares it: `YYYY-MM-DD HH:mm:ss` in the media server's zone, since
 * `DateCreated` holds the server's local time as text.
 */
export function formatPlaybackBound(at: Date, timeZone: string): string {
  const p = localParts(at, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** How far the zone is ahead of UTC at an instant, in milliseconds. */
function zoneOffset(atMs: number, timeZone: string): number {
  const p = localParts(new Date(atMs), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(atMs / 1000) * 1000;
}

/** Reads a `DateCreated` cell (`yyyy-MM-dd HH:mm:ss.fffffff`, server-local) as ISO UTC. */
export function parsePlaybackDate(text: string, timeZone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, ...number[]];
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const wall = Date.UTC(y, (mo ?? 1) - 1, d, h, mi, s, ms);
  // Two passes settle the offset around daylight-saving changes.
  const first = wall - zoneOffset(wall, timeZone);
  const second = wall - zoneOffset(first, timeZone);
  return new Date(second).toISOString();
}

const SQL_ID = /^[0-9a-f]{32}$|^\d+$/;

/** An id for SQL: normalised, and refused unless it is 32 hex or digits (§1.7). */
export function sqlId(raw: string): string {
  const id = normaliseId(raw);
  if (!SQL_ID.test(id)) throw new Error('Not a media-server id');
  return id;
}

/**
 * Free text for `LIKE '%…%' ESCAPE '\'`: quotes doubled, `\`, `%` and `_` escaped. The caller
 * adds the surrounding quotes and wildcards.
 */
export function sqlLikeText(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/'/g, "''");
}

export type PlaybackMethodKind = 'DirectPlay' | 'DirectStream' | 'Transcode' | 'unknown';

/** `Transcode (v:… a:…)` and friends, by prefix; `na` and anything else is unknown. */
export function playbackMethodOf(cell: string): PlaybackMethodKind {
  if (cell.startsWith('Transcode')) return 'Transcode';
  if (cell.startsWith('DirectStream')) return 'DirectStream';
  if (cell.startsWith('DirectPlay')) return 'DirectPlay';
  return 'unknown';
}
