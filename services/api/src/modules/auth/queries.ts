// SQL of the auth module: the account a sign-in names, its login stamp and token version.
import { eq, or, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.js';
import { users, type UserRow } from '../../db/schema/index.js';
export { userRow as findUser } from '../../db/users.js';

/** The account whose username (any case) or e-mail address is `login`. */
export async function findByLogin(db: Database, login: string): Promise<UserRow | undefined> {
  const lowered = login.toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${lowered}`, eq(users.email, lowered)))
    .limit(1);
  return row;
}

/** Stamps a sign-in; `newHash` adopts a password the media server accepted. */
export async function recordLogin(
  tx: Tx,
  id: string,
  now: Date,
  newHash: string | null,
): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set(
      newHash ? { lastLoginAt: now, passwordHash: newHash, updatedAt: now } : { lastLoginAt: now },
    )
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Every token of the account stops working (`token_version` + 1). */
export async function revokeTokens(db: Database, id: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
    .where(eq(users.id, id));
}
