import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from '../columns.js';

/**
 * Normalised TMDB answers (10-data.md §8), keyed by path + query + language, e.g.
 * `search:multi:en-US:0:<sha1(query)>:1`, `tv:en-US:1399`, `season:en-US:1399:2`.
 */
export const tmdbCache = pgTable(
  'tmdb_cache',
  {
    key: text('key').primaryKey(),
    value: jsonb('value').notNull(),
    expiresAt: instant('expires_at').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [check('tmdb_cache_key_len_ck', sql`char_length(${t.key}) <= 255`)],
);
