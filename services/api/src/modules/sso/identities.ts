// The account's linked sign-ins (docs/sso.md): list and unlink.
import type { UserIdentitiesResponse } from '@usher/contracts';
import { accountActor, auditCaller } from '../../audit-log/audit.js';
import type { UserRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { passwordLoginAllowed, readSsoSettings } from '../../integrations/oidc/index.js';
import { deleteIdentity, identitiesOf, lockUser } from './queries.js';

/** `GET /me/identities`. */
export async function listIdentities(
  ctx: ModuleContext,
  row: UserRow,
): Promise<UserIdentitiesResponse> {
  const s = await readSsoSettings(ctx.settings.store);
  const rows = await identitiesOf(ctx.db, row.id);
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
    const user = await lockUser(tx, userId);
    if (!user) throw notFound();
    const mine = await identitiesOf(tx, userId);
    const target = mine.find((r) => r.id === identityId);
    if (!target) throw notFound();
    const passwordWorks = user.hasPassword && passwordLoginAllowed(s, user);
    if (mine.length === 1 && !passwordWorks) {
      throw new AppError(
        'LAST_SIGN_IN_METHOD',
        'This is the last way to sign in to your account; set a password or link another sign-in first',
      );
    }
    await deleteIdentity(tx, identityId);
    await auditCaller(
      tx,
      { actor: accountActor(user), meta },
      'auth.sso_unlink',
      { type: 'user', id: userId },
      { issuer: target.issuer },
    );
  });
}
