import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Query } from '../../src/lease.js';

/**
 * Creates `bot_leases` as the API does: by running the API's own migration file, so the bot's
 * tests run against the table the API ships, not a copy of its DDL. Does nothing when the table
 * is already there (as the API's migration runner would not run it twice).
 */
export async function applyApiLeaseMigration(query: Query): Promise<void> {
  const { rows } = await query(`SELECT to_regclass('bot_leases') IS NOT NULL AS present`);
  if (rows[0]?.present === true) return;
  const file = join(import.meta.dirname, '../../../api/drizzle/0011_bot_leases.sql');
  for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
    if (statement.trim()) await query(statement);
  }
}
