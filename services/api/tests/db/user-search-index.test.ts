import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { wrapPglite, type Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/sql.js';
import { createTestDatabase, ENGINE, MIGRATIONS } from '../support/database.js';

/** Trigram indexes for the admin user search (migration 0006, issue 21). */
const trigramIndexes = async (db: Database) =>
  (
    await queryRows<{ indexname: string }>(
      db,
      sql`select indexname from pg_indexes
          where tablename = 'users' and indexname like '%trgm%' order by indexname`,
    )
  ).map((r) => r.indexname);

describe(`user search index (${ENGINE})`, () => {
  it('should create the trigram indexes and answer a substring search from them', async () => {
    const database = await createTestDatabase();
    try {
      const db = database.handle.db;
      expect(await trigramIndexes(db)).toEqual(['users_email_trgm_idx', 'users_username_trgm_idx']);
      const plan = await db.transaction(async (tx) => {
        // An empty table would be scanned; forbid that to see which index the planner can use.
        await tx.execute(sql`set local enable_seqscan = off`);
        return queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain select id from users where username ilike '%lic%'`,
        );
      });
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toContain('users_username_trgm_idx');
    } finally {
      await database.close();
    }
  });

  it('should migrate without the indexes where pg_trgm is not available', async () => {
    // A PGlite opened without the extension stands for a server without contrib.
    const handle = wrapPglite(await PGlite.create());
    try {
      await migrate(handle.db, MIGRATIONS);
      expect(await trigramIndexes(handle.db)).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
