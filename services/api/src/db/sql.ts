import type { SQL } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * Runs raw SQL and returns its rows. Both drivers (node-postgres, PGlite) answer with `.rows`;
 * the shared `Database` type cannot express that, hence the one cast here.
 */
export async function queryRows<T extends Record<string, unknown>>(
  db: Pick<Database, 'execute'>,
  query: SQL,
): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
