// The users row by id, plain or locked: what every module acting for an account reads first.
// Modules re-export these from their `queries.ts` (as `findUser`/`lockUser`), and read the few
// columns a use needs with `userFields`.
import { eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';
import { users, type UserRow } from './schema/index.js';

type Reader = Pick<Database, 'select'>;

/** The account's row, or undefined when there is none. */
export async function userRow(db: Reader, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account's row, locked for the rest of the transaction; undefined when there is none. */
export async function lockedUserRow(tx: Reader, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/** Some columns of the account's row (`fields` as a select names them); undefined when none. */
export async function userFields<F extends SelectedFields>(db: Reader, id: string, fields: F) {
  const [row] = await db.select(fields).from(users).where(eq(users.id, id));
  return row;
}
