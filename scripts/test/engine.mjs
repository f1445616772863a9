// Which database engine `npm test` gives the API's suites (docs/development.md, "Which engine
// runs which suite"):
//
//   TEST_DATABASE_URL=…          that PostgreSQL server (CI names the machine's)
//   USHER_TEST_ENGINE=pglite     embedded PGlite for every suite, whatever the machine has
//   USHER_TEST_ENGINE=postgres   the local PostgreSQL below, or fail saying why it is not usable
//   (unset, or auto)             the local PostgreSQL when it is usable, else embedded PGlite
//
// "Usable" is what the suites need: a server at 127.0.0.1:5432 that lets `postgres` in without a
// password (the default of a development or CI machine), version 14 or later, the right to create
// databases (each suite makes its own, dropped at its end) and pg_trgm available. Anything less
// falls back to PGlite with the reason printed, so a newcomer's `npm test` always runs.
import { createRequire } from 'node:module';

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const ENGINES = ['auto', 'postgres', 'pglite'];
const MIN_VERSION = 140000;

/**
 * Probes a PostgreSQL server for what the suites need. Never throws: `{ ok: false, reason }`
 * says what is missing, within `timeoutMs` even when nothing answers.
 */
export async function probePostgres(url, timeoutMs = 2_000) {
  const pg = createRequire(import.meta.url)('pg');
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // A server that drops the connection later must not crash the test runner.
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query(
      `select current_setting('server_version_num')::int as version,
              current_setting('server_version') as name,
              (select rolcreatedb or rolsuper from pg_roles where rolname = current_user) as createdb,
              exists (select 1 from pg_available_extensions where name = 'pg_trgm') as trgm`,
    );
    const { version, name, createdb, trgm } = rows[0];
    if (version < MIN_VERSION) return { ok: false, reason: `PostgreSQL ${name} is older than 14` };
    if (!createdb) return { ok: false, reason: 'the role may not create databases' };
    if (!trgm) return { ok: false, reason: 'the pg_trgm extension is not available' };
    return { ok: true, version: name };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: reason || 'no answer' };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The engine for this run: `{ engine: 'postgres', url, why }` or `{ engine: 'pglite', why }`.
 * Throws on an unknown USHER_TEST_ENGINE, or when `postgres` was asked for and is not usable.
 */
export async function chooseEngine(env, probe = probePostgres) {
  if (env.TEST_DATABASE_URL) {
    return { engine: 'postgres', url: env.TEST_DATABASE_URL, why: 'TEST_DATABASE_URL is set' };
  }
  const wanted = env.USHER_TEST_ENGINE || 'auto';
  if (!ENGINES.includes(wanted)) {
    throw new Error(`USHER_TEST_ENGINE must be one of ${ENGINES.join(', ')}, not "${wanted}"`);
  }
  if (wanted === 'pglite') return { engine: 'pglite', why: 'USHER_TEST_ENGINE=pglite' };
  const found = await probe(LOCAL_POSTGRES);
  if (found.ok) {
    return {
      engine: 'postgres',
      url: LOCAL_POSTGRES,
      why: `PostgreSQL ${found.version} found at 127.0.0.1:5432 (USHER_TEST_ENGINE=pglite to use embedded PGlite instead)`,
    };
  }
  if (wanted === 'postgres') {
    throw new Error(
      `USHER_TEST_ENGINE=postgres, but 127.0.0.1:5432 is not usable: ${found.reason}`,
    );
  }
  return { engine: 'pglite', why: `no usable PostgreSQL at 127.0.0.1:5432: ${found.reason}` };
}

/** Whether nx's arguments leave the API in the run: no `--projects`/`-p`, or one naming it. */
export function includesApi(nxArgs) {
  const named = nxArgs.flatMap((arg, i) => {
    if (arg.startsWith('--projects=')) return [arg.slice('--projects='.length)];
    if (arg === '--projects' || arg === '-p') return [nxArgs[i + 1] ?? ''];
    return [];
  });
  return named.length === 0 || named.some((list) => list.split(',').includes('api'));
}
