// SQL of the public module.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { queryRows } from '../../db/sql.js';

/** Whether the bootstrap admin has still to sign in and change the first password. */
export async function setupPending(db: Database): Promise<boolean> {
  const [row] = await queryRows<{ pending: boolean }>(
    db,
    sql`select exists(select 1 from users where registered_via = 'bootstrap'
          and must_change_password and last_login_at is null) as pending`,
  );
  return row?.pending ?? false;
}
