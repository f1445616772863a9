// The settings cache is stale-while-revalidate (settings/store.ts): after the first load, reads
// never wait for the database. That keeps a read inside an open transaction from hanging on the
// embedded database, whose single connection serves an outside query only after the transaction.
import { settings } from '../../src/db/schema/index.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';

describe(`settings cache (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('should answer a read inside an open transaction from a stale cache without waiting', async () => {
    // Refresh 0 ms: the cache is stale on every read.
    const app = createTestApp(database.handle, { settingsRefreshMs: 0 });
    const store = app.context.settings.store;
    expect(await store.get('SITE_NAME')).toBe('Usher'); // the first load waits, outside
    const seen = await app.context.db.transaction(async (tx) => {
      await tx.insert(settings).values({ key: 'SITE_NAME', value: 'Inside', isEncrypted: false });
      return store.get('SITE_NAME');
    });
    // The committed row is picked up by the background check the read started.
    expect(seen).toBe('Usher');
    await store.reload();
    expect(await store.get('SITE_NAME')).toBe('Inside');
  }, 10_000);

  it('should show a write on this replica to the next read (reload after the write)', async () => {
    const app = createTestApp(database.handle);
    const store = app.context.settings.store;
    await store.get('SITE_NAME');
    await app.context.db
      .insert(settings)
      .values({ key: 'SITE_NAME', value: 'Written', isEncrypted: false })
      .onConflictDoUpdate({ target: settings.key, set: { value: 'Written' } });
    // Fresh for 10 s, so without a reload the cache still answers the old value.
    expect(await store.get('SITE_NAME')).not.toBe('Written');
    await store.reload();
    expect(await store.get('SITE_NAME')).toBe('Written');
  });
});
