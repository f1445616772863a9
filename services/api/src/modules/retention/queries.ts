// SQL of the retention module: the batched delete every rule runs, and the check for the tables
// a rule may find missing. The rules' own predicates stay beside their tables in rules.ts.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { queryRows } from '../../db/sql.js';
import type { RetentionRule } from './rules.js';

/** Deletes one batch of expired rows by primary key; `skip locked` never waits on a writer. */
export async function deleteBatch(db: Database, rule: RetentionRule, now: Date, batch: number) {
  const table = sql.identifier(rule.table);
  const key = sql.identifier(rule.key);
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with doomed as (
          select ${key} from ${table} where ${rule.expired(now)}
          order by ${key} limit ${batch} for update skip locked
        ), gone as (
          delete from ${table} where ${key} in (select ${key} from doomed) returning 1
        )
        select count(*)::int as n from gone`,
  );
  return row?.n ?? 0;
}

export async function tableExists(db: Database, table: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select to_regclass(${`public.${table}`}) is not null as found`,
  );
  return row?.found ?? false;
}
