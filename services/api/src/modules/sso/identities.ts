// The account's linked sign-ins (docs/sso.md): list and unlink.
import type { UserIdentitiesResponse } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../audit-log/audit.js';
import { userIdentities, users, type UserRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { passwordLoginAllowed, readSsoSettings } from '../../integrations/oidc/index.js';
import { userActor } from './records.js';

/** `GET /me/identities`. */
export async function listIdentities(
  ctx: ModuleContext,
  row: UserRow,
): Promise<UserIdentitiesResponse> {
  const s = await readSsoSettings(ctx.settings.store);
  const rows = await ctx.db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, row.id))
    .orderBy(userIdentities.createdAt);
  return {
    data: rows.map((r) => ({
      id: r.id,
      issuer: r.issuer,
      email: r.email,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    })),
    hasPassword: row.hasPassword,
    passwordLogin: passwordLoginAllowed(s, row),
    canLink: s.active,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `DELETE /me/identities/:id`: refused when it would leave no way to sign in — no other linked
 * sign-in and no password that signs this account in. The user row is locked, so two unlinks
 * at once cannot both pass the check.
 */
export async function unlinkIdentity(
  ctx: ModuleContext,
  userId: string,
  identityId: string,
  meta: RequestMeta,
): Promise<void> {
  const notFound = () => new AppError('IDENTITY_NOT_FOUND', 'No such linked sign-in');
  if (!UUID.test(identityId)) throw notFound();
  const s = await readSsoSettings(ctx.settings.store);
  await withTransaction(ctx, async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound();
    const mine = await tx.select().from(userIdentities).where(eq(userIdentities.userId, userId));
    const target = mine.find((r) => r.id === identityId);
    if (!target) throw notFound();
    const passwordWorks = user.hasPassword && passwordLoginAllowed(s, user);
    if (mine.length === 1 && !passwordWorks) {
      throw new AppError(
        'LAST_SIGN_IN_METHOD',
        'This is the last way to sign in to your account; set a password or link another sign-in first',
      );
    }
    await tx.delete(userIdentities).where(eq(userIdentities.id, identityId));
    await recordAudit(tx, {
      actor: userActor(user),
      action: 'auth.sso_unlink',
      target: { type: 'user', id: userId },
      details: { issuer: target.issuer },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}
