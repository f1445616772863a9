import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { healthDownSchema, healthOkSchema } from '@usher/contracts';
import { connectPostgres, type DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestApp } from '../support/app.js';
import { ENGINE, MIGRATIONS, TEST_DATABASE_URL } from '../support/database.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/**
 * The API talks to PostgreSQL through node-postgres; the outage is simulated by a TCP proxy in
 * front of the real server (TEST_DATABASE_URL) or, by default, in front of PGlite served over
 * the PostgreSQL wire protocol.
 */
describe(`/health during a database outage (${ENGINE})`, () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let stopBackend: () => Promise<void>;

  beforeAll(async () => {
    let target: URL;
    if (TEST_DATABASE_URL) {
      target = new URL(TEST_DATABASE_URL);
      stopBackend = async () => undefined;
    } else {
      const db = await PGlite.create();
      const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
      await server.start();
      const address = server.getServerConn();
      target = new URL(`postgres://postgres@${address}/postgres`);
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
    if (!TEST_DATABASE_URL) await migrate(handle.db, MIGRATIONS);
  });
  afterAll(async () => {
    await proxy.down();
    await handle.close();
    await stopBackend();
  });

  it('should answer 503 while the database is down and 200 again once it is back', async () => {
    const t = createTestApp(handle);
    const healthy = await t.call('GET', '/health');
    expect(healthy.status).toBe(200);
    healthOkSchema.parse(await healthy.json());

    await proxy.down();
    const down = await t.call('GET', '/health');
    expect(down.status).toBe(503);
    expect(healthDownSchema.parse(await down.json())).toEqual({
      status: 'error',
      db: 'unreachable',
    });

    await proxy.up();
    const back = await t.call('GET', '/health');
    expect(back.status).toBe(200);
  });
});
