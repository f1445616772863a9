import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from './audit-log/audit.js';
import { generatePassword, hashPassword } from './security/passwords.js';
import type { Database } from './db/client.js';
import { MIGRATION_LOCK_KEY } from './db/migrate.js';
import { users } from './db/schema/index.js';

export const BOOTSTRAP_USERNAME = 'admin';

export type BootstrapOutcome =
  { created: false } | { created: true; userId: string; source: 'ADMIN_PASSWORD' | 'generated' };

/**
 * First start (70-deploy.md §4, 10-data.md §12): creates `admin` when no administrator exists.
 * Runs under the migration advisory lock, so of several replicas starting together exactly one
 * creates the account and prints the temporary password; a restart finds the admin and does
 * nothing.
 */
export async function bootstrapAdmin(
  db: Database,
  options: { adminPassword?: string; logger: Logger },
): Promise<BootstrapOutcome> {
  const generated = options.adminPassword ? undefined : generatePassword(20);
  const password = options.adminPassword ?? generated!;
  const outcome = await db.transaction(async (tx): Promise<BootstrapOutcome> => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, 'admin'))
      .limit(1);
    if (existing) return { created: false };
    const id = uuidv7();
    await tx.insert(users).values({
      id,
      username: BOOTSTRAP_USERNAME,
      email: null,
      passwordHash: await hashPassword(password),
      role: 'admin',
      mustChangePassword: true,
      registeredVia: 'bootstrap',
    });
    await recordAudit(tx, {
      actor: { type: 'system', id: null, label: 'bootstrap' },
      action: 'user.bootstrap_admin',
      target: { type: 'user', id },
      details: { passwordSource: generated ? 'generated' : 'ADMIN_PASSWORD' },
    });
    return { created: true, userId: id, source: generated ? 'generated' : 'ADMIN_PASSWORD' };
  });

  // Printed whatever LOG_LEVEL says: an operator who set "error" must still get in.
  const always = options.logger.child({}, { level: 'info' });
  if (outcome.created && generated) {
    always.info(
      `TEMPORARY PASSWORD for user "${BOOTSTRAP_USERNAME}": ${generated} ` +
        '(shown once; change it at first login)',
    );
  } else if (outcome.created) {
    always.info(
      `Created user "${BOOTSTRAP_USERNAME}" with the password from ADMIN_PASSWORD; ` +
        'a password change is due at first login',
    );
  } else if (options.adminPassword) {
    options.logger.info(
      'ADMIN_PASSWORD is set but an administrator already exists; the variable is only used ' +
        'when the admin account is created and is ignored now',
    );
  }
  return outcome;
}

/**
 * `node main.js reset-admin-password [--username admin]`: a fresh temporary password for a lost
 * first-start line. Forces a change at next login and signs the user out everywhere.
 */
export async function resetAdminPassword(
  db: Database,
  username: string,
  logger: Logger,
): Promise<void> {
  const password = generatePassword(20);
  const passwordHash = await hashPassword(password);
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        passwordHash,
        mustChangePassword: true,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(sql`lower(${users.username}) = ${username.toLowerCase()} and ${users.role} = 'admin'`)
      .returning({ id: users.id, username: users.username });
    if (row) {
      await recordAudit(tx, {
        actor: { type: 'system', id: null, label: 'cli' },
        action: 'user.password_reset',
        target: { type: 'user', id: row.id },
        details: { via: 'reset-admin-password' },
      });
    }
    return row;
  });
  if (!updated) throw new Error(`no administrator named "${username}"`);
  logger
    .child({}, { level: 'info' })
    .info(
      `TEMPORARY PASSWORD for user "${updated.username}": ${password} ` +
        '(shown once; change it at first login)',
    );
}
