import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/sql.js';
import { createTestDatabase, ENGINE, MIGRATIONS, type TestDatabase } from '../support/database.js';

/** Every committed migration, in order, as the journal lists them. */
const ALL = (
  JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  }
).entries.map((e) => e.tag);

describe(`migrations (${ENGINE})`, () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterEach(async () => {
    await database.close();
  });

  it('should create the schema once and apply nothing on a second run', async () => {
    const first = await migrate(database.handle.db, MIGRATIONS);
    expect(first.applied).toEqual(ALL);
    expect(ALL[0]).toBe('0000_foundation');
    const second = await migrate(database.handle.db, MIGRATIONS);
    expect(second.applied).toEqual([]);
    const tables = await queryRows<{ table_name: string }>(
      database.handle.db,
      sql`select table_name from information_schema.tables where table_schema = 'public'
          order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'audit_log',
        'job_leases',
        'job_runs',
        'rate_limits',
        'settings',
        'users',
      ]),
    );
  });

  it('should apply each migration exactly once when two migrators start together', async () => {
    const other = await database.connectAnother();
    const results = await Promise.all([
      migrate(database.handle.db, MIGRATIONS),
      migrate(other.db, MIGRATIONS),
    ]);
    const applied = results.flatMap((r) => r.applied);
    expect(applied).toEqual(ALL);
    const rows = await queryRows<{ n: number }>(
      database.handle.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(rows[0]!.n).toBe(ALL.length);
  });
});
