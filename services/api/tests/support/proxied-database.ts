import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { connectPostgres, type DatabaseHandle } from '../../src/db/client.js';
import { createMigratedPglite, createTestDatabase, TEST_DATABASE_URL } from './database.js';
import { TcpProxy } from './tcp-proxy.js';

/** A migrated database reached through a TCP proxy the test can cut and restore. */
export interface ProxiedDatabase {
  proxy: TcpProxy;
  /** A pool that connects through the proxy (1 s connect timeout). */
  handle: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A throwaway migrated database on the real server (TEST_DATABASE_URL), or PGlite served over
 * the wire protocol, with a TCP proxy in front: cutting the proxy is a database outage while the
 * app keeps its pool, without touching the machine's PostgreSQL.
 */
export async function proxiedDatabase(poolMax: number): Promise<ProxiedDatabase> {
  let target: URL;
  let stopBackend: () => Promise<void>;
  if (TEST_DATABASE_URL) {
    const throwaway = await createTestDatabase();
    target = new URL(throwaway.url!);
    stopBackend = () => throwaway.close();
  } else {
    // Migrated already (the template): migrating over the socket took 10–30 s on a busy machine.
    const db = await createMigratedPglite();
    const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
    await server.start();
    target = new URL(`postgres://postgres@${server.getServerConn()}/postgres`);
    stopBackend = async () => {
      await server.stop();
      await db.close();
    };
  }
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.up();
  const url = new URL(target.toString());
  url.host = `127.0.0.1:${proxy.port}`;
  const handle = connectPostgres({ url: url.toString(), poolMax, connectTimeoutMs: 1000 });
  return {
    proxy,
    handle,
    close: async () => {
      await proxy.down();
      await handle.close();
      await stopBackend();
    },
  };
}
