import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { lockDataDir, type DataDirLock } from './data-lock.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;

/** One database type for both engines: node-postgres in deployments, PGlite embedded. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** The handle `db.transaction(fn)` passes to `fn`; queries that must join a transaction take it. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

export type DatabaseKind = 'postgres' | 'pglite';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Runs `select 1`; rejects when the database does not answer within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  url: string;
  /** Used when the URL carries no password, so reserved characters need no URL encoding. */
  password?: string;
  poolMax?: number;
  /** Milliseconds a new connection may take before it counts as failed. */
  connectTimeoutMs?: number;
}

/** Builds the pg pool config from a URL plus a separate password (70-deploy.md §2). */
export function poolConfig(options: PostgresOptions): pg.PoolConfig {
  const url = new URL(options.url);
  const password = url.password ? decodeURIComponent(url.password) : options.password;
  const sslmode = url.searchParams.get('sslmode');
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username || 'postgres'),
    password,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
    ssl:
      sslmode && sslmode !== 'disable'
        ? { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' }
        : undefined,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function connectPostgres(options: PostgresOptions): DatabaseHandle {
  const pool = new pg.Pool(poolConfig(options));
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool drops it and the next query opens a fresh one.
  pool.on('error', () => undefined);
  // pg-pool listens for errors only on *idle* clients. A checked-out client (a transaction
  // between two statements, waiting on its caller) whose connection is cut or terminated by a
  // restart (57P01) emits 'error' with no listener, which throws and ends the process: the API
  // stopped accepting connections after one PostgreSQL restart in five (issue 16). Every client
  // gets a listener of its own; the broken client then fails its next query (answered 503
  // DATABASE_UNAVAILABLE) and is discarded on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    ping: (timeoutMs = 2000) =>
      withTimeout(
        pool.query('select 1').then(() => undefined),
        timeoutMs,
        'database ping',
      ),
    close: () => pool.end(),
  };
}

/**
 * How the embedded PGlite starts (issue 21, docs/performance.md "PGlite RSS"). Its WebAssembly
 * build allocates PostgreSQL's shared memory with malloc and zero-fills it, so every shared buffer
 * is resident from the first query: PostgreSQL's default `shared_buffers` of 128 MB cost ~120 MB
 * of RSS (the WebAssembly memory grew to 189 MB, 151 MB resident). 16 MB (2 048 pages) holds the
 * working set of a household's database; a page not in it is a read from the OS page cache.
 * pg_trgm backs the admin user search's trigram indexes (migration 0006), as on PostgreSQL.
 */
export const PGLITE_OPTIONS = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
};

/**
 * Runs initdb on an empty `dataDir` in a throwaway Node process. In this process it would leave
 * its peak behind for the process's lifetime: a second WebAssembly instance, the data directory
 * copied through a tarball and the compilers' memory, which V8 and malloc keep (RSS stayed at
 * ~480 MB after a first start against ~300 MB after a restart on the same folder).
 */
export function initdbApart(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const code = `require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(dataDir)})
  .then((db) => db.close())
  .then(() => process.exit(0), (err) => { process.stderr.write(String(err?.message ?? err)); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`PGlite initdb failed (${signal ?? `exit ${code}`}): ${stderr.slice(-2000)}`),
          ),
    );
  });
}

/**
 * Embedded PGlite: `dataDir` on disk, or in memory when `dataDir` is undefined. The folder is
 * locked first (db/data-lock.ts: one process per folder) unless the caller passes the lock it
 * already holds; closing the handle releases it. A folder without a database gets one from a
 * throwaway process (see initdbApart).
 */
export async function openPglite(
  dataDir?: string,
  options: { lock?: DataDirLock } = {},
): Promise<DatabaseHandle & { client: PGlite }> {
  if (!dataDir) return wrapPglite(await PGlite.create(undefined, PGLITE_OPTIONS));
  const lock = options.lock ?? lockDataDir(dataDir, { command: 'api' });
  try {
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await initdbApart(dataDir);
    const handle = wrapPglite(await PGlite.create(dataDir, PGLITE_OPTIONS));
    return {
      ...handle,
      close: async () => {
        try {
          await handle.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    // initdb or the open failed: the folder is free again for the next attempt, then rethrown.
    lock.release();
    throw err;
  }
}

export function wrapPglite(client: PGlite): DatabaseHandle & { client: PGlite } {
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    client,
    kind: 'pglite',
    ping: (timeoutMs = 2000) =>
      withTimeout(
        db.execute(sql`select 1`).then(() => undefined),
        timeoutMs,
        'database ping',
      ),
    close: () => client.close(),
  };
}
