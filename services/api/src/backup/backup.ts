import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, DatabaseKind, Tx } from '../db/client.js';
import { appliedMigrations, knownMigrations, migrate, MIGRATION_LOCK_KEY } from '../db/migrate.js';
import { queryRows } from '../db/sql.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  checkSchema,
  readBackup,
  verifyBackup,
  type BackupHeader,
} from './format.js';

/** Rows fetched per cursor round trip while writing, and inserted per statement while restoring. */
const BATCH_ROWS = 2000;
/** A restore batch is also cut at this many characters of row JSON (one bound parameter). */
const BATCH_CHARS = 4 * 1024 * 1024;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export interface BackupSummary {
  path: string;
  bytes: number;
  rows: number;
  tables: number;
  header: BackupHeader;
}

export interface BackupSource {
  db: Database;
  kind: DatabaseKind;
}

/**
 * Writes every table of the database to `path` (format.ts) from one consistent snapshot (a
 * repeatable-read, read-only transaction), under a temporary name renamed into place at the end,
 * so a half-written file never carries the final name. Refuses a database whose schema this code
 * does not know (migrated by a newer Usher).
 */
export async function createBackup(
  source: BackupSource,
  path: string,
  options: { migrationsFolder: string; appVersion: string; now?: () => Date },
): Promise<BackupSummary> {
  if (existsSync(path)) throw new BackupFileError('unreadable', `${path} exists already`);
  const partial = `${path}.partial-${randomBytes(4).toString('hex')}`;
  const gzip = createGzip({ level: 6 });
  const out = createWriteStream(partial, { mode: 0o600 });
  gzip.pipe(out);
  const hash = createHash('sha256');
  const write = async (line: string, hashed = true) => {
    if (hashed) hash.update(line).update('\n');
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  try {
    const header = await source.db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      await tx.execute(sql`set local timezone = 'UTC'`);
      const { applied, unknown } = await appliedMigrations(tx, options.migrationsFolder);
      if (unknown.length > 0 || applied.length === 0)
        throw new BackupFileError(
          'newer_schema',
          applied.length === 0 && unknown.length === 0
            ? 'the database has no Usher schema: nothing to back up'
            : 'the database was migrated by a newer Usher: back it up with that version',
        );
      const tables = await queryRows<{ name: string }>(
        tx,
        sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
      );
      const counted: BackupHeader['tables'] = [];
      for (const { name } of tables) {
        const [row] = await queryRows<{ n: string | number }>(
          tx,
          sql`select count(*) as n from ${sql.identifier(name)}`,
        );
        counted.push({ name, rows: Number(row!.n) });
      }
      const head: BackupHeader = {
        format: BACKUP_FORMAT,
        formatVersion: BACKUP_FORMAT_VERSION,
        appVersion: options.appVersion,
        engine: source.kind,
        createdAt: (options.now?.() ?? new Date()).toISOString(),
        schema: { latest: applied.at(-1)!.tag, migrations: applied },
        tables: counted,
      };
      checkSchema(head, knownMigrations(options.migrationsFolder));
      await write(JSON.stringify(head));
      for (const { name } of counted) {
        await write(JSON.stringify({ table: name }));
        await tx.execute(
          sql`declare usher_backup no scroll cursor for
              select to_jsonb(t)::text as r from ${sql.identifier(name)} t`,
        );
        for (;;) {
          const rows = await queryRows<{ r: string }>(
            tx,
            sql.raw(`fetch ${BATCH_ROWS} from usher_backup`),
          );
          for (const { r } of rows) await write(r);
          if (rows.length < BATCH_ROWS) break;
        }
        await tx.execute(sql`close usher_backup`);
      }
      return head;
    });
    const rows = header.tables.reduce((n, t) => n + t.rows, 0);
    await write(JSON.stringify({ end: true, rows, sha256: hash.digest('hex') }), false);
    gzip.end();
    await finished(out);
    await rename(partial, path);
    return {
      path,
      bytes: (await stat(path)).size,
      rows,
      tables: header.tables.length,
      header,
    };
  } catch (err) {
    gzip.destroy();
    out.destroy();
    await rm(partial, { force: true });
    throw err;
  }
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: number;
  /** Migrations applied after the rows were loaded (the file's schema was older). */
  migrated: string[];
}

/**
 * Replaces the database's content with the file's, all or nothing:
 *
 * 1. The whole file is read and checked first (checksum, complete, a schema this code knows and
 *    not newer than it): a refused file has changed nothing.
 * 2. One transaction, holding the migration lock: drop Usher's tables and migration record,
 *    replay the file's migrations (its exact schema), load every row with the foreign keys set
 *    aside (so table order and self-references do not matter) and put them back (checked), then
 *    apply this code's newer migrations. Any failure rolls the whole transaction back.
 *
 * The rows are read a second time during the load; the checksum is checked again at the end of
 * that pass, so a file changed in between rolls back.
 */
export async function restoreBackup(
  db: Database,
  path: string,
  options: { migrationsFolder: string; logger?: Pick<Logger, 'info'> },
): Promise<RestoreSummary> {
  const { header, rows } = await verifyBackup(path);
  checkSchema(header, knownMigrations(options.migrationsFolder));
  for (const t of header.tables) {
    if (!IDENTIFIER.test(t.name))
      throw new BackupFileError('damaged', `the file names an invalid table "${t.name}"`);
  }
  const migrated = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await dropUsherSchema(tx);
    await migrate(tx, options.migrationsFolder, undefined, {
      only: header.schema.migrations.length,
    });
    const columns = await tableColumns(tx);
    for (const t of header.tables) {
      if (!columns.has(t.name))
        throw new BackupFileError(
          'damaged',
          `the file has table ${t.name}, which its schema ${header.schema.latest} does not`,
        );
    }
    const foreignKeys = await queryRows<{ tbl: string; name: string; def: string }>(
      tx,
      sql`select c.relname as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def
          from pg_constraint k join pg_class c on c.oid = k.conrelid
          where k.contype = 'f' and k.connamespace = 'public'::regnamespace
          order by 1, 2`,
    );
    for (const fk of foreignKeys)
      await tx.execute(
        sql`alter table ${sql.identifier(fk.tbl)} drop constraint ${sql.identifier(fk.name)}`,
      );
    await loadRows(tx, path, columns);
    for (const fk of foreignKeys)
      await tx.execute(
        sql`alter table ${sql.identifier(fk.tbl)} add constraint ${sql.identifier(fk.name)} ${sql.raw(fk.def)}`,
      );
    const { applied } = await migrate(tx, options.migrationsFolder, options.logger);
    return applied;
  });
  return { header, rows, migrated };
}

/** Drops every table of the public schema and drizzle's migration record (extensions stay). */
async function dropUsherSchema(tx: Tx): Promise<void> {
  const tables = await queryRows<{ name: string }>(
    tx,
    sql`select tablename as name from pg_tables where schemaname = 'public'`,
  );
  for (const { name } of tables)
    await tx.execute(sql`drop table if exists ${sql.identifier(name)} cascade`);
  await tx.execute(sql`drop schema if exists drizzle cascade`);
}

/** The insertable columns of every public table. */
async function tableColumns(tx: Tx): Promise<Map<string, string[]>> {
  const rows = await queryRows<{ tbl: string; col: string }>(
    tx,
    sql`select table_name as tbl, column_name as col from information_schema.columns
        where table_schema = 'public' and is_generated = 'NEVER'
        order by table_name, ordinal_position`,
  );
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.tbl, [...(map.get(r.tbl) ?? []), r.col]);
  return map;
}

async function loadRows(tx: Tx, path: string, columns: Map<string, string[]>): Promise<void> {
  let table = '';
  let batch: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const cols = sql.join(
      columns.get(table)!.map((c) => sql.identifier(c)),
      sql`, `,
    );
    await tx.execute(
      sql`insert into ${sql.identifier(table)} (${cols})
          select ${cols} from jsonb_populate_recordset(null::${sql.identifier(table)}, ${`[${batch.join(',')}]`}::jsonb)`,
    );
    batch = [];
    chars = 0;
  };
  for await (const line of readBackup(path)) {
    if (line.kind === 'table') {
      await flush();
      table = line.table;
    } else if (line.kind === 'row') {
      batch.push(line.json);
      chars += line.json.length;
      if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
    }
  }
  await flush();
}
