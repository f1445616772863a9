import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Logger } from 'pino';
import type { Database } from './client.js';
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
  db: Database,
  migrationsFolder: string,
  logger?: Pick<Logger, 'info'>,
): Promise<MigrationResult> {
  const migrations = readMigrationFiles({ migrationsFolder });
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

/** Readable names (`0000_foundation`) of the journal entries, keyed by their timestamp. */
function readTags(migrationsFolder: string): Map<number, string> {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as {
    entries: { when: number; tag: string }[];
  };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}
