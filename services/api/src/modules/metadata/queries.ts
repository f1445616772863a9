import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { tmdbCache } from '../../db/schema/index.js';

/** The cached value under `key`, or undefined when absent or expired. */
export async function readCache<T>(db: Database, key: string, now: Date): Promise<T | undefined> {
  const [row] = await db
    .select({ value: tmdbCache.value })
    .from(tmdbCache)
    .where(and(eq(tmdbCache.key, key), gt(tmdbCache.expiresAt, now)));
  return row ? (row.value as T) : undefined;
}

/** Stores (or replaces) a normalised answer until `expiresAt`. */
export async function writeCache(
  db: Database,
  key: string,
  value: unknown,
  expiresAt: Date,
): Promise<void> {
  await db
    .insert(tmdbCache)
    .values({ key, value, expiresAt })
    .onConflictDoUpdate({
      target: tmdbCache.key,
      set: { value, expiresAt, createdAt: sql`now()` },
    });
}
