import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { ENGINE } from '../support/database.js';
import { proxiedDatabase, type ProxiedDatabase } from '../support/proxied-database.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

/**
 * A connection cut while a transaction holds it between two statements (issue 16: one PostgreSQL
 * restart in five stopped the API). Without a listener on checked-out clients, node-postgres
 * emits 'error' with nobody listening, which throws out of the event loop.
 */
describe(`connection lost inside a transaction (${ENGINE})`, () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let database: ProxiedDatabase;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    database = await proxiedDatabase(2);
    ({ proxy, handle } = database);
    // jest installs its own handler; ours records what would have ended a real process.
    process.prependListener('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.removeListener('uncaughtException', onUncaught);
    await database.close();
  });

  it('should fail the transaction with a connection error, not throw out of the event loop', async () => {
    const outcome = handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      // Idle in transaction while the connection goes away.
      await proxy.down();
      await new Promise((r) => setTimeout(r, 300));
      await tx.execute(sql`select 2`);
    });
    const err = await outcome.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(uncaught).toEqual([]);

    // Back up: the pool opens fresh connections, no restart needed.
    await proxy.up();
    await expect(handle.ping(2000)).resolves.toBeUndefined();
  });
});
