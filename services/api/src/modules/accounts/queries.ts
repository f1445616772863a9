// SQL of the accounts module (database handle first): e-mail codes, messenger bind codes, and the
// user rows registration, the profile, password changes and the messenger binding write.
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.js';
import {
  emailCodes,
  messengerBindCodes,
  redemptions,
  users,
  type UserRow,
} from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
export { userRow as findUser, lockedUserRow as lockUser } from '../../db/users.js';

export type EmailCodeRow = typeof emailCodes.$inferSelect;

// ----- users

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function emailInUse(db: Database, email: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from users where email = ${email} limit 1`);
  return rows.length > 0;
}

export async function findUserByMessenger(
  db: Database,
  messengerId: number,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.messengerId, messengerId)).limit(1);
  return row;
}

/** The id of the account a Telegram id is bound to, if any. */
export async function messengerOwner(tx: Tx, messengerId: number): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.messengerId, messengerId));
  return row?.id;
}

/** Changes columns of a user row (and `updated_at`); the row as written, or undefined when gone. */
export async function updateUser(
  db: Database,
  id: string,
  set: Partial<typeof users.$inferInsert>,
  now: Date,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...set, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Stores a locale while none is set; undefined when one was set meanwhile. */
export async function adoptLocaleRow(
  db: Database,
  id: string,
  locale: string,
  now: Date,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ locale, updatedAt: now })
    .where(and(eq(users.id, id), sql`${users.locale} is null`))
    .returning();
  return row;
}

/** A new password hash; `token_version + 1`, so every earlier token dies. */
export async function writePassword(
  tx: Tx,
  id: string,
  values: { passwordHash: string; mustChangePassword: boolean },
  now: Date,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({
      ...values,
      hasPassword: true,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export async function insertUser(tx: Tx, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await tx.insert(users).values(values).returning();
  return row!;
}

/** The redemption of the invite code a registration used (redeem's table, same transaction). */
export async function insertRedemption(
  tx: Tx,
  values: typeof redemptions.$inferInsert,
): Promise<void> {
  await tx.insert(redemptions).values(values);
}

// ----- e-mail codes

/** Serialises code requests for one address and purpose until the transaction ends. */
export async function lockCodeAddress(tx: Tx, purpose: string, email: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`email-code:${purpose}:${email}`}))`,
  );
}

/** Codes for the purpose since `since`: per address (count, first, last) and per IP (count, first). */
export async function codeCounts(
  tx: Tx,
  q: { purpose: string; email: string; ip: string; since: Date },
) {
  const [stats] = await queryRows<{
    email_count: number;
    email_first: string | null;
    email_last: string | null;
    ip_count: number;
    ip_first: string | null;
  }>(
    tx,
    sql`select
          count(*) filter (where email = ${q.email})::int as email_count,
          min(created_at) filter (where email = ${q.email}) as email_first,
          max(created_at) filter (where email = ${q.email}) as email_last,
          count(*) filter (where ip = ${q.ip}::inet)::int as ip_count,
          min(created_at) filter (where ip = ${q.ip}::inet) as ip_first
        from email_codes
        where purpose = ${q.purpose} and created_at > ${q.since.toISOString()}
          and (email = ${q.email} or ip = ${q.ip}::inet)`,
  );
  return stats;
}

export async function insertEmailCode(
  tx: Tx,
  values: typeof emailCodes.$inferInsert,
): Promise<EmailCodeRow> {
  const [row] = await tx.insert(emailCodes).values(values).returning();
  return row!;
}

/** Removes a code whose mail could not be sent, so it neither counts nor blocks a resend. */
export async function discardEmailCode(db: Database, id: string): Promise<void> {
  await db.delete(emailCodes).where(eq(emailCodes.id, id));
}

/** A code recorded as sent whose mail failed afterwards (it still counts toward the limits). */
export async function markCodeUnsent(db: Database, id: string): Promise<void> {
  await db.update(emailCodes).set({ sent: false }).where(eq(emailCodes.id, id));
}

/** The newest code for the address and purpose: the only one that may be valid. */
export async function newestEmailCode(
  db: Database,
  email: string,
  purpose: string,
): Promise<EmailCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)))
    .orderBy(desc(emailCodes.createdAt), desc(emailCodes.id))
    .limit(1);
  return row;
}

export async function countWrongGuess(db: Database, id: string): Promise<void> {
  await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(eq(emailCodes.id, id));
}

/**
 * Marks the code consumed if it is still the live one (not consumed, fewer than `maxAttempts`
 * wrong guesses, not expired, no newer code); false otherwise.
 */
export async function consumeLiveCode(
  tx: Tx,
  row: EmailCodeRow,
  now: Date,
  maxAttempts: number,
): Promise<boolean> {
  const consumed = await queryRows(
    tx,
    sql`update email_codes set consumed_at = ${now.toISOString()}
        where id = ${row.id} and consumed_at is null and attempts < ${maxAttempts}
          and expires_at > ${now.toISOString()}
          and not exists (
            select 1 from email_codes newer
            where newer.email = ${row.email} and newer.purpose = ${row.purpose}
              and (newer.created_at, newer.id) > (${row.createdAt.toISOString()}::timestamptz,
                                                 ${row.id}::uuid))
        returning id`,
  );
  return consumed.length > 0;
}

// ----- messenger bind codes

/** Frees a code value held by someone's dead code (until the cleanup job would). */
export async function sweepDeadBindCode(db: Database, code: string, now: Date): Promise<void> {
  await db
    .delete(messengerBindCodes)
    .where(and(eq(messengerBindCodes.code, code), lte(messengerBindCodes.expiresAt, now)));
}

/** The member's one bind code, replacing an earlier one; a value another live code holds throws. */
export async function upsertBindCode(
  db: Database,
  values: { userId: string; code: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  const { code, expiresAt, createdAt } = values;
  await db
    .insert(messengerBindCodes)
    .values(values)
    .onConflictDoUpdate({ target: messengerBindCodes.userId, set: { code, expiresAt, createdAt } });
}

export async function findBindCode(db: Database, code: string) {
  const [row] = await db
    .select()
    .from(messengerBindCodes)
    .where(eq(messengerBindCodes.code, code))
    .limit(1);
  return row;
}

/** Deletes the member's code if it still has this value; false when another bind took it. */
export async function claimBindCode(tx: Tx, userId: string, code: string): Promise<boolean> {
  const claimed = await tx
    .delete(messengerBindCodes)
    .where(and(eq(messengerBindCodes.userId, userId), eq(messengerBindCodes.code, code)))
    .returning({ userId: messengerBindCodes.userId });
  return claimed.length > 0;
}
