// CI's second pass over the API: the suites whose outcome depends on the database engine, on the
// embedded PGlite (`npm run test:pglite -w @usher/api`, `.ci/run`), after `npm test` ran every
// suite on the real PostgreSQL. On a machine without TEST_DATABASE_URL, `npm test` itself runs
// every suite on PGlite, so this list matters only where both engines run. Why each is here
// (docs/development.md, "Which engine runs which suite"):
import config from './jest.config.js';

/** Suites whose behaviour differs by engine, relative to tests/. */
export const ENGINE_SPECIFIC = [
  // Migrations from an empty database, the first start's bootstrap, and the trigram search index:
  // PGlite is a different build of PostgreSQL (WebAssembly, its own extension bundle).
  'db/migrate',
  'db/bootstrap',
  'db/user-search-index',
  // Backup and restore: the same file from both engines, restored into both (issue 32).
  'backup/round-trip',
  'upgrade/first-schema', // the first release's schema carried forward, every GET answering
  'users/list-detail', // the user search and its sorts (pg_trgm through PGlite's extension)
  'redeem/admin-codes', // code search
  // Outages: PGlite behind its wire-protocol socket server cut by a TCP proxy, not a real server.
  'db/connection-loss',
  'http/database-errors',
  'http/health',
  // Transactions, row locks and advisory locks: PGlite is one session, so a lock or a transaction
  // held across a media-server call blocks everything else there instead of one connection.
  'membership/access-sync',
  'membership/media-calls-outside-transactions',
  'membership/retry-worker',
  'membership/policy-apply', // media writes in flight with no transaction open
  'users/settings-reads-in-transactions',
  'jobs/scheduler',
  'jobs/schedule-settings',
  'redeem/redeem', // single-use codes redeemed at once
  // SIGTERM with requests in flight and the database handle closed last.
  'process/shutdown',
];
// Not listed: tests/db/pglite.test.ts, tests/process/main.test.ts and
// tests/process/data-lock.test.ts open PGlite themselves whatever TEST_DATABASE_URL says, so the
// PostgreSQL pass already ran them on PGlite.

export default {
  ...config,
  displayName: 'api-pglite',
  testMatch: ENGINE_SPECIFIC.map((suite) => `<rootDir>/tests/${suite}.test.ts`),
};
