import { healthDownSchema, healthOkSchema } from '@usher/contracts';
import type { DatabaseHandle } from '../../src/db/client.js';
import { createTestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { proxiedDatabase, type ProxiedDatabase } from '../support/proxied-database.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

/**
 * The API talks to PostgreSQL through node-postgres; the outage is simulated by a TCP proxy in
 * front of the real server (TEST_DATABASE_URL) or, by default, in front of PGlite served over
 * the PostgreSQL wire protocol.
 */
describe(`/health during a database outage (${ENGINE})`, () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let database: ProxiedDatabase;

  beforeAll(async () => {
    database = await proxiedDatabase(2);
    ({ proxy, handle } = database);
  });
  afterAll(async () => {
    await database?.close();
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
