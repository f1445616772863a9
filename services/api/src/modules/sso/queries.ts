// SQL of the single sign-on module (docs/sso.md): identity rows, one-time hand-offs, and the
// user rows a sign-in reads or writes.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Tx } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import {
  ssoHandoffs,
  userIdentities,
  users,
  type UserIdentityRow,
  type UserRow,
} from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import { AppError } from '../../errors/app-error.js';
export { userRow as findUser, lockedUserRow as lockUser } from '../../db/users.js';

export const identityTaken = () =>
  new AppError('SSO_IDENTITY_TAKEN', 'This sign-in is already linked to another account');

export async function findIdentityOwner(
  db: Database,
  issuer: string,
  subject: string,
): Promise<{ identityId: string; user: UserRow } | null> {
  const [row] = await db
    .select({ identityId: userIdentities.id, user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

/** A new identity row; a (issuer, subject) already linked answers `SSO_IDENTITY_TAKEN`. */
export async function insertIdentity(
  tx: Tx,
  userId: string,
  id: { issuer: string; subject: string; email: string | null },
  now: Date,
): Promise<string> {
  const identityId = uuidv7();
  try {
    await tx.insert(userIdentities).values({
      id: identityId,
      userId,
      issuer: id.issuer,
      subject: id.subject,
      email: id.email,
      createdAt: now,
      lastUsedAt: now,
    });
  } catch (err) {
    if (uniqueViolation(err)) throw identityTaken();
    throw err;
  }
  return identityId;
}

/** A sign-in with a linked identity: when, and the address the provider reported this time. */
export async function touchIdentity(
  db: Database,
  identityId: string,
  email: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(userIdentities)
    .set({ lastUsedAt: now, email })
    .where(eq(userIdentities.id, identityId));
}

/** An account's linked sign-ins, oldest first. */
export async function identitiesOf(db: Database, userId: string): Promise<UserIdentityRow[]> {
  return db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(userIdentities.createdAt);
}

export async function deleteIdentity(tx: Tx, identityId: string): Promise<void> {
  await tx.delete(userIdentities).where(eq(userIdentities.id, identityId));
}

/** A new hand-off; expired ones are swept first, so the table stays as small as the sign-ins in flight. */
export async function insertHandoff(
  db: Database,
  row: Omit<typeof ssoHandoffs.$inferInsert, 'id'>,
  now: Date,
): Promise<void> {
  await db.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, now));
  await db.insert(ssoHandoffs).values({ id: uuidv7(), ...row });
}

export async function findLiveHandoff(db: Database, codeHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(ssoHandoffs)
    .where(and(eq(ssoHandoffs.codeHash, codeHash), gt(ssoHandoffs.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** Deletes a hand-off; false when it was gone already (claimed by a concurrent exchange). */
export async function deleteHandoff(tx: Tx, id: string): Promise<boolean> {
  const gone = await tx
    .delete(ssoHandoffs)
    .where(eq(ssoHandoffs.id, id))
    .returning({ id: ssoHandoffs.id });
  return gone.length > 0;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function usernameInUse(db: Database, name: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from users where lower(username) = ${name.toLowerCase()} limit 1`,
  );
  return rows.length > 0;
}

export async function insertAdminUser(
  tx: Tx,
  values: Pick<typeof users.$inferInsert, 'id' | 'username' | 'email' | 'passwordHash'>,
  now: Date,
): Promise<UserRow> {
  const [row] = await tx
    .insert(users)
    .values({
      ...values,
      hasPassword: false,
      role: 'admin',
      registeredVia: 'admin',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** Makes a member an administrator (no expiry; their tokens are revoked). */
export async function promoteToAdmin(tx: Tx, id: string, now: Date): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({
      role: 'admin',
      expiresAt: null,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export async function recordLogin(tx: Tx, id: string, now: Date): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ lastLoginAt: now })
    .where(eq(users.id, id))
    .returning();
  return row!;
}
