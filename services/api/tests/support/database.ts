import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  connectPostgres,
  openPglite,
  PGLITE_OPTIONS,
  wrapPglite,
  type DatabaseHandle,
} from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

export const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Set by CI to run the database suites against a real PostgreSQL as well as PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const ENGINE = TEST_DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Opens another independent handle on the same database (a second replica). */
  connectAnother(): Promise<DatabaseHandle>;
  /** Connection URL of the database (PostgreSQL only). */
  url?: string;
  close(): Promise<void>;
}

/**
 * Hash of every migration file (SQL and drizzle's meta) and of the PGlite version: the key of the
 * migrated templates below, so a changed or added migration builds a new template.
 */
function migrationsKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS);
  hash.update(`pglite@${pgliteVersion()}`);
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const root = entry.slice(
    0,
    entry.lastIndexOf('@electric-sql/pglite') + '@electric-sql/pglite'.length,
  );
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
}

let pgliteTemplate: Promise<string> | undefined;

/**
 * The data directory of a migrated PGlite, as a tarball file: initdb and the migrations take
 * ~1.5 s per database, loading the tarball ~0.3 s. Built once per machine and migrations, in the
 * temp folder (written atomically), and read again for each database rather than kept in memory:
 * jest keeps every test file's modules alive, and a 40 MB tarball per file adds up to gigabytes.
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = join(tmpdir(), `usher-test-pglite-${migrationsKey()}.tar`);
    if (existsSync(file)) return file;
    const handle = await openPglite();
    await migrate(handle.db, MIGRATIONS);
    const dump = await handle.client.dumpDataDir('none');
    await handle.close();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, file);
    return file;
  })();
  return new Blob([readFileSync(await pgliteTemplate)]);
}

/** A migrated in-memory PGlite, loaded from the template (the app's PGlite options). */
export async function createMigratedPglite(): Promise<PGlite> {
  return PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: await migratedPgliteTemplate() });
}

/**
 * The name of a migrated template database on the PostgreSQL server named by TEST_DATABASE_URL,
 * created on first use (under an advisory lock, as suites may run in parallel); each test
 * database is then a `create database … template` copy instead of running every migration.
 */
async function migratedPostgresTemplate(admin: pg.Client): Promise<string> {
  const name = `usher_test_template_${migrationsKey()}`;
  await admin.query('select pg_advisory_lock($1)', [0x75746d70]);
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_${randomBytes(3).toString('hex')}`;
      await admin.query(`create database ${building}`);
      const url = new URL(TEST_DATABASE_URL!);
      url.pathname = `/${building}`;
      const h = connectPostgres({ url: url.toString(), poolMax: 1 });
      try {
        await migrate(h.db, MIGRATIONS);
      } finally {
        await h.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
    }
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [0x75746d70]);
  }
  return name;
}

/**
 * A fresh, empty database for one test file: an in-memory PGlite by default, or a throwaway
 * database on the server named by TEST_DATABASE_URL (dropped at the end), so suites never share
 * rows and may run in parallel.
 */
export async function createTestDatabase(
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  let db: TestDatabase;
  if (TEST_DATABASE_URL) {
    const name = `usher_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      if (options.migrate === false) await admin.query(`create database ${name}`);
      else
        await admin.query(
          `create database ${name} template ${await migratedPostgresTemplate(admin)}`,
        );
    } finally {
      await admin.end();
    }
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const handles: DatabaseHandle[] = [];
    const open = async () => {
      const h = connectPostgres({ url: url.toString(), poolMax: 5 });
      handles.push(h);
      return h;
    };
    db = {
      handle: await open(),
      connectAnother: open,
      url: url.toString(),
      close: async () => {
        for (const h of handles) await h.close();
        const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  } else {
    const handle =
      options.migrate === false ? await openPglite() : wrapPglite(await createMigratedPglite());
    // PGlite is one process-local engine: a "second replica" shares the same instance.
    db = { handle, connectAnother: async () => handle, close: () => handle.close() };
  }
  return db;
}
