import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { sql } from 'drizzle-orm';
import { connectPostgres, type DatabaseHandle } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { ENGINE, TEST_DATABASE_URL } from '../support/database.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/**
 * A connection cut while a transaction holds it between two statements (issue 16: one PostgreSQL
 * restart in five stopped the API). Without a listener on checked-out clients, node-postgres
 * emits 'error' with nobody listening, which throws out of the event loop.
 */
describe(`connection lost inside a transaction (${ENGINE})`, () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let stopBackend: () => Promise<void>;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    let target: URL;
    if (TEST_DATABASE_URL) {
      target = new URL(TEST_DATABASE_URL);
      stopBackend = async () => undefined;
    } else {
      const db = await PGlite.create();
      const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
      await server.start();
      target = new URL(`postgres://postgres@${server.getServerConn()}/postgres`);
      stopBackend = async () => {
        await server.stop();
        await db.close();
      };
    }
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.up();
    const url = new URL(target.toString());
    url.host = `127.0.0.1:${proxy.port}`;
    handle = connectPostgres({ url: url.toString(), poolMax: 2, connectTimeoutMs: 1000 });
    // jest installs its own handler; ours records what would have ended a real process.
    process.prependListener('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.removeListener('uncaughtException', onUncaught);
    await proxy.down();
    await handle.close();
    await stopBackend();
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
