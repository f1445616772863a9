import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Logger } from 'pino';
import type { Database, Tx } from './client.js';
import { queryRows } from './sql.js';

/**
 * Key of the advisory lock that serialises migrations and the first-start bootstrap across
 * replicas. Any constant works as long as every replica uses the same one.
 */
export const MIGRATION_LOCK_KEY = 0x75736865; // "ushe"

export interface MigrationResult {
  applied: string[];
}

/**
 * Applies the committed drizzle-kit SQL files that are not applied yet, in one transaction
 * holding a transaction-level advisory lock: a second replica starting at the same moment
 * waits, then finds everything applied. Bookkeeping uses drizzle's own
 * `drizzle.__drizzle_migrations` table so `drizzle-kit migrate` would agree.
 */
export async function migrate(
  db: Database | Tx,
  migrationsFolder: string,
  logger?: Pick<Logger, 'info'>,
  options: { only?: number } = {},
): Promise<MigrationResult> {
  // `only`: the first N migrations (a restore replays a backup's schema before loading its rows).
  const migrations = readMigrationFiles({ migrationsFolder }).slice(0, options.only);
  if (migrations.length === 0) throw new Error(`no migrations found in ${migrationsFolder}`);
  const tags = readTags(migrationsFolder);
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`
      create table if not exists drizzle.__drizzle_migrations (
        id serial primary key,
        hash text not null,
        created_at bigint
      )`);
    const done = await queryRows<{ created_at: string | number }>(
      tx,
      sql`select created_at from drizzle.__drizzle_migrations`,
    );
    const doneSet = new Set(done.map((r) => Number(r.created_at)));
    for (const migration of migrations) {
      if (doneSet.has(migration.folderMillis)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at)
            values (${migration.hash}, ${migration.folderMillis})`,
      );
      const name = tags.get(migration.folderMillis) ?? String(migration.folderMillis);
      applied.push(name);
      logger?.info({ migration: name }, 'applied migration');
    }
  });
  return { applied };
}

export interface KnownMigration {
  /** Readable name, e.g. `0000_foundation`. */
  tag: string;
  /** Journal timestamp: the `created_at` drizzle records for an applied migration. */
  when: number;
  /** sha256 of the SQL file, as drizzle records it. */
  hash: string;
}

/** The committed migrations in order, as this code knows them. */
export function knownMigrations(migrationsFolder: string): KnownMigration[] {
  const tags = readTags(migrationsFolder);
  return readMigrationFiles({ migrationsFolder }).map((m) => ({
    tag: tags.get(m.folderMillis) ?? String(m.folderMillis),
    when: m.folderMillis,
    hash: m.hash,
  }));
}

/**
 * The migrations applied to a database, in order, named by this code's journal; `unknown` holds
 * applied ones this code does not know (a database migrated by a newer Usher).
 */
export async function appliedMigrations(
  db: Database | Tx,
  migrationsFolder: string,
): Promise<{ applied: KnownMigration[]; unknown: { when: number; hash: string }[] }> {
  const exists = await queryRows<{ found: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  if (!exists[0]?.found) return { applied: [], unknown: [] };
  const rows = await queryRows<{ hash: string; created_at: string | number }>(
    db,
    sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at`,
  );
  const byWhen = new Map(knownMigrations(migrationsFolder).map((m) => [m.when, m]));
  const applied: KnownMigration[] = [];
  const unknown: { when: number; hash: string }[] = [];
  for (const row of rows) {
    const known = byWhen.get(Number(row.created_at));
    if (known) applied.push({ ...known, hash: row.hash });
    else unknown.push({ when: Number(row.created_at), hash: row.hash });
  }
  return { applied, unknown };
}

/** Readable names (`0000_foundation`) of the journal entries, keyed by their timestamp. */
function readTags(migrationsFolder: string): Map<number, string> {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as {
    entries: { when: number; tag: string }[];
  };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}
