// The one way services open a transaction (conventions §1): a service that is already inside one
// (because its caller opened it) joins it instead of opening a second, so steps compose — e.g.
// registration takes a use of a redeem code through `redeem`'s own `consumeCode` in its
// transaction.
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Database, Tx } from './client.js';

/** Whether a handle is an open transaction (drizzle passes a `PgTransaction` to `fn`). */
export function inTransaction(db: Database): db is Tx {
  return db instanceof PgTransaction;
}

/**
 * Runs `fn` in a transaction: the open one when `db` is a transaction handle (no savepoint: a
 * failure rolls back the whole outer transaction, which is what callers composing steps want),
 * otherwise a new one that commits when `fn` resolves and rolls back when it throws.
 *
 * Nothing inside `fn` may wait for another connection or an outbound system (docs/architecture.md):
 * on PGlite it would wait forever, on PostgreSQL it holds a pool connection meanwhile.
 */
export function withTransaction<T>(
  source: Database | { db: Database },
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const db = 'transaction' in source ? source : source.db;
  return inTransaction(db) ? fn(db) : db.transaction(fn);
}
