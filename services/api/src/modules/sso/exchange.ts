// The one-time exchange (docs/sso.md): a hand-off for a session; a first sign-in creates the
// account here.
import { randomBytes } from 'node:crypto';
import type { SsoExchangeResponse } from '@usher/contracts';
import { and, eq, gt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from '../../audit-log/audit.js';
import { hashPassword } from '../../security/passwords.js';
import type { Tx } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import { ssoHandoffs, users, type UserRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import { readRegistrationSettings, registerWithIdentity } from '../accounts/index.js';
import type { RequestMeta } from '../context.js';
import { toUser } from '../users/index.js';
import { pickUsername } from './username.js';
import { stateInvalid } from '../../integrations/oidc/index.js';
import {
  hashCode,
  insertIdentity,
  refuseDisabled,
  userActor,
  type RegisterPayload,
  type SsoDeps,
} from './records.js';

/** Claims a hand-off row: deleted inside the transaction, so a code works once. */
async function claimHandoff(tx: Tx, id: string): Promise<void> {
  const gone = await tx.delete(ssoHandoffs).where(eq(ssoHandoffs.id, id)).returning({
    id: ssoHandoffs.id,
  });
  if (gone.length === 0) throw codeInvalid();
}

const codeInvalid = () =>
  stateInvalid('This sign-in code was used already or has expired; start again', 'code');

/** Promotes a member in an admin group (never demotes: docs/sso.md). */
async function promoteIfAdmin(tx: Tx, row: UserRow, admin: boolean, meta: RequestMeta, now: Date) {
  if (!admin || row.role === 'admin') return row;
  const [updated] = await tx
    .update(users)
    .set({
      role: 'admin',
      expiresAt: null,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, row.id))
    .returning();
  await recordAudit(tx, {
    actor: { type: 'system', id: null, label: 'sso' },
    action: 'user.update',
    target: { type: 'user', id: row.id },
    details: { role: { from: 'user', to: 'admin' }, via: 'sso_admin_group' },
    ip: meta.ip,
    requestId: meta.requestId,
  });
  return updated!;
}

/**
 * `POST /auth/oidc/exchange`: the one-time code for a session, exactly as password login
 * answers. A first sign-in creates the account here — in invite mode only once the invite code
 * is given (the hand-off waits for it); members of an admin group become administrators.
 */
export async function exchangeCode(
  d: SsoDeps,
  input: { code: string; inviteCode?: string },
  meta: RequestMeta,
): Promise<SsoExchangeResponse> {
  const now = d.ctx.now();
  const [handoff] = await d.ctx.db
    .select()
    .from(ssoHandoffs)
    .where(and(eq(ssoHandoffs.codeHash, hashCode(input.code)), gt(ssoHandoffs.expiresAt, now)))
    .limit(1);
  if (!handoff) throw codeInvalid();
  const payload = handoff.payload as Partial<RegisterPayload> & { redirect?: string | null };
  let row: UserRow;
  if (handoff.kind === 'login') {
    row = await withTransaction(d.ctx, async (tx) => {
      await claimHandoff(tx, handoff.id);
      const [found] = await tx
        .select()
        .from(users)
        .where(eq(users.id, handoff.userId!))
        .for('update')
        .limit(1);
      if (!found) throw codeInvalid();
      refuseDisabled(found);
      const promoted = await promoteIfAdmin(tx, found, payload.admin === true, meta, now);
      const [updated] = await tx
        .update(users)
        .set({ lastLoginAt: now })
        .where(eq(users.id, found.id))
        .returning();
      await recordAudit(tx, {
        actor: userActor(promoted),
        action: 'auth.sso_login',
        target: { type: 'user', id: found.id },
        ip: meta.ip,
        requestId: meta.requestId,
      });
      return updated!;
    });
  } else {
    row = await createFromHandoff(d, handoff.id, payload as RegisterPayload, input, meta);
  }
  const { token, expiresAt } = await d.ctx.tokens.sign(
    { sub: row.id, role: row.role as 'admin' | 'user', ver: row.tokenVersion },
    now,
  );
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: toUser(row, now),
    redirect: payload.redirect ?? null,
  };
}

async function createFromHandoff(
  d: SsoDeps,
  handoffId: string,
  p: RegisterPayload,
  input: { inviteCode?: string },
  meta: RequestMeta,
): Promise<UserRow> {
  const ctx = d.ctx;
  const now = ctx.now();
  const username = await pickUsername(ctx, p, { mediaServer: !p.admin });
  const linkAndAudit = async (tx: Tx, user: UserRow) => {
    await claimHandoff(tx, handoffId);
    await insertIdentity(tx, user.id, p, now);
    await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id));
    for (const action of ['auth.sso_link', 'auth.sso_login'] as const) {
      await recordAudit(tx, {
        actor: userActor(user),
        action,
        target: { type: 'user', id: user.id },
        details: { issuer: p.issuer, via: 'first_sign_in' },
        ip: meta.ip,
        requestId: meta.requestId,
      });
    }
  };
  if (p.admin) {
    // An administrator by group: no membership, no media account, no invite code.
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    return withTransaction(ctx, async (tx) => {
      const id = uuidv7();
      let inserted: UserRow;
      try {
        [inserted] = (await tx
          .insert(users)
          .values({
            id,
            username,
            email: p.email,
            passwordHash,
            hasPassword: false,
            role: 'admin',
            registeredVia: 'admin',
            createdAt: now,
            updatedAt: now,
          })
          .returning()) as [UserRow];
      } catch (err) {
        const constraint = uniqueViolation(err);
        if (constraint?.includes('email')) {
          throw new AppError(
            'EMAIL_TAKEN',
            'This email address is already used by another account',
          );
        }
        if (constraint?.includes('username')) {
          throw new AppError('USERNAME_TAKEN', 'This username is taken');
        }
        throw err;
      }
      await recordAudit(tx, {
        actor: { type: 'system', id: null, label: 'sso' },
        action: 'user.create',
        target: { type: 'user', id },
        details: { role: 'admin', via: 'sso_admin_group', issuer: p.issuer },
        ip: meta.ip,
        requestId: meta.requestId,
      });
      await linkAndAudit(tx, inserted);
      const [fresh] = await tx.select().from(users).where(eq(users.id, id));
      return fresh!;
    });
  }
  const registration = await readRegistrationSettings(ctx.settings.store);
  if (registration.mode === 'invite' && !input.inviteCode) {
    // The hand-off stays: the web app asks for the code and sends the same sign-in code again.
    throw new AppError('REGISTRATION_CODE_REQUIRED', 'An invite code is required to sign up', {
      details: { username },
    });
  }
  const created = await registerWithIdentity(
    ctx,
    d.registration,
    {
      username,
      email: p.email!,
      code: input.inviteCode,
      emailVerified: p.emailVerified,
    },
    { issuer: p.issuer, insert: linkAndAudit },
    meta,
  );
  const [fresh] = await ctx.db.select().from(users).where(eq(users.id, created.id));
  return fresh!;
}
