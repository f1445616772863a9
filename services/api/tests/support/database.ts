import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connectPostgres, openPglite, type DatabaseHandle } from '../../src/db/client.js';
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
    await admin.query(`create database ${name}`);
    await admin.end();
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
    const handle = await openPglite();
    // PGlite is one process-local engine: a "second replica" shares the same instance.
    db = { handle, connectAnother: async () => handle, close: () => handle.close() };
  }
  if (options.migrate !== false) await migrate(db.handle.db, MIGRATIONS);
  return db;
}
