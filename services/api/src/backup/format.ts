import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { KnownMigration } from '../db/migrate.js';

/**
 * The portable backup file (issue 32, docs/operations.md "Backup and restore"): one gzip stream of
 * JSON lines, the same for PGlite and PostgreSQL, made and read in-process (no pg_dump in the
 * image).
 *
 *   line 1            header: format, app version, engine, schema (the applied migrations with
 *                     their hashes), every table with its row count
 *   per table         `{"table":"<name>"}`, then one line per row: `to_jsonb(row)::text`
 *   last line         trailer: `{"end":true,"rows":<total>,"sha256":"<hex>"}`
 *
 * The sha256 covers every byte before the trailer line (the uncompressed content), so a changed
 * row is caught even when the file was decompressed, edited and compressed again; gzip's own
 * CRC catches damage to the compressed bytes; a file without its trailer was cut short. Rows are
 * jsonb text: one line each (jsonb output never holds a raw newline), exact for every type (a
 * bigint stays its digits, a timestamp carries its offset) and read back by
 * `jsonb_populate_recordset`. Settings are the stored rows: sensitive values stay encrypted with
 * `CONFIG_ENCRYPTION_KEY`, which a restore needs to read them.
 */
export const BACKUP_FORMAT = 'usher-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const BACKUP_EXTENSION = '.usher-backup.gz';

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  engine: 'postgres' | 'pglite';
  createdAt: string;
  schema: {
    /** Tag of the newest applied migration. */
    latest: string;
    migrations: KnownMigration[];
  };
  tables: { name: string; rows: number }[];
}

export interface BackupTrailer {
  end: true;
  rows: number;
  sha256: string;
}

export type BackupProblem =
  | 'unreadable'
  | 'not_a_backup'
  | 'damaged'
  | 'truncated'
  | 'checksum'
  | 'newer_schema'
  | 'foreign_schema';

/** A file refused before anything was changed; `message` is the one line an operator reads. */
export class BackupFileError extends Error {
  constructor(
    readonly problem: BackupProblem,
    message: string,
  ) {
    super(message);
    this.name = 'BackupFileError';
  }
}

/** One line of a backup as it is read: the header, a table start, or a row of that table. */
export type BackupLine =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'table'; table: string }
  | { kind: 'row'; table: string; json: string };

/**
 * Reads a backup line by line, checking it as it goes; throws `BackupFileError` on the first
 * problem. The checksum and row counts are only known at the end, so callers that change anything
 * must read the whole file once with `verifyBackup` first.
 */
export async function* readBackup(path: string): AsyncGenerator<BackupLine, BackupTrailer> {
  const hash = createHash('sha256');
  const gunzip = createGunzip();
  let streamError: Error | undefined;
  const file = createReadStream(path);
  file.on('error', (err) => {
    streamError = err;
    gunzip.destroy(err);
  });
  gunzip.on('error', (err) => (streamError ??= err));
  const lines = createInterface({ input: file.pipe(gunzip), crlfDelay: Infinity });
  let header: BackupHeader | undefined;
  let table: string | undefined;
  let trailer: BackupTrailer | undefined;
  const counts = new Map<string, number>();
  let total = 0;
  try {
    for await (const line of lines) {
      if (trailer) throw new BackupFileError('damaged', 'the file has data after its end marker');
      if (!header) {
        header = parseHeader(line);
        hash.update(line).update('\n');
        yield { kind: 'header', header };
        continue;
      }
      if (line.startsWith('{"end":')) {
        trailer = parseJson(line) as BackupTrailer;
        continue;
      }
      hash.update(line).update('\n');
      if (line.startsWith('{"table":')) {
        table = (parseJson(line) as { table: string }).table;
        if (!header.tables.some((t) => t.name === table))
          throw new BackupFileError('damaged', `the file has rows of an undeclared table ${table}`);
        counts.set(table, 0);
        yield { kind: 'table', table };
        continue;
      }
      if (!table) throw new BackupFileError('damaged', 'the file has a row before any table');
      counts.set(table, (counts.get(table) ?? 0) + 1);
      total += 1;
      yield { kind: 'row', table, json: line };
    }
  } catch (err) {
    if (err instanceof BackupFileError) throw err;
    throw streamProblem(streamError ?? (err as Error));
  }
  if (streamError) throw streamProblem(streamError);
  if (!header) throw new BackupFileError('truncated', 'the file is empty');
  if (!trailer)
    throw new BackupFileError(
      'truncated',
      'the file ends before its end marker: it was cut short (copied while it was written?)',
    );
  if (trailer.sha256 !== hash.digest('hex'))
    throw new BackupFileError(
      'checksum',
      'the checksum does not match the content: the file was changed or damaged',
    );
  for (const t of header.tables) {
    if ((counts.get(t.name) ?? 0) !== t.rows)
      throw new BackupFileError(
        'damaged',
        `table ${t.name} has ${counts.get(t.name) ?? 0} rows, the header says ${t.rows}`,
      );
  }
  if (trailer.rows !== total)
    throw new BackupFileError(
      'damaged',
      `the file has ${total} rows, its end says ${trailer.rows}`,
    );
  return trailer;
}

/** Reads the whole file once: the header when every check passes, else `BackupFileError`. */
export async function verifyBackup(path: string): Promise<{ header: BackupHeader; rows: number }> {
  const reader = readBackup(path);
  let header: BackupHeader | undefined;
  for (;;) {
    const next = await reader.next();
    if (next.done) return { header: header!, rows: next.value.rows };
    if (next.value.kind === 'header') header = next.value.header;
  }
}

/**
 * Whether this code can restore a file of `header`'s schema: its migrations must be the first ones
 * this code knows, file for file (same hash). A newer schema is refused — upgrade Usher first.
 */
export function checkSchema(header: BackupHeader, known: KnownMigration[]): void {
  const theirs = header.schema.migrations;
  for (const [i, m] of theirs.entries()) {
    if (!known.some((k) => k.when === m.when)) {
      throw new BackupFileError(
        'newer_schema',
        `the file comes from a newer Usher (schema ${header.schema.latest}, app ` +
          `${header.appVersion}); this one knows up to ${known.at(-1)?.tag ?? 'nothing'}: ` +
          'upgrade Usher first, then restore',
      );
    }
    const ours = known[i];
    if (!ours || ours.when !== m.when || ours.hash !== m.hash) {
      throw new BackupFileError(
        'foreign_schema',
        `the file's migration ${m.tag} differs from this Usher's: ` +
          'it was not made by a release of this Usher',
      );
    }
  }
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    // A line that is not JSON: the content was damaged (the checksum would say so too, later).
    throw new BackupFileError('damaged', 'the file has a line that is not JSON');
  }
}

function parseHeader(line: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line) as Partial<BackupHeader>;
  } catch {
    // Not JSON at all: some other gzip file.
    throw new BackupFileError('not_a_backup', 'the file is not an Usher backup');
  }
  if (header.format !== BACKUP_FORMAT || !Array.isArray(header.tables) || !header.schema)
    throw new BackupFileError('not_a_backup', 'the file is not an Usher backup');
  if (header.formatVersion !== BACKUP_FORMAT_VERSION)
    throw new BackupFileError(
      'newer_schema',
      `the file has backup format ${header.formatVersion}; this Usher reads format ` +
        `${BACKUP_FORMAT_VERSION}: upgrade Usher first`,
    );
  return header as BackupHeader;
}

function streamProblem(err: Error & { code?: string }): BackupFileError {
  if (err.code === 'ENOENT') return new BackupFileError('unreadable', 'the file does not exist');
  if (err.code === 'EACCES') return new BackupFileError('unreadable', 'the file is not readable');
  if (err.code === 'Z_BUF_ERROR' || /unexpected end/i.test(err.message))
    return new BackupFileError(
      'truncated',
      'the file ends early: it was cut short (copied while it was written?)',
    );
  if (err.code === 'Z_DATA_ERROR' && /incorrect header/i.test(err.message))
    return new BackupFileError('not_a_backup', 'the file is not an Usher backup (not gzip)');
  if (err.code?.startsWith('Z_'))
    return new BackupFileError('damaged', `the file is damaged (${err.message})`);
  return new BackupFileError('unreadable', `the file cannot be read (${err.message})`);
}
