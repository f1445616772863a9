// The one-time exchange (docs/sso.md): a hand-off for a session; a first sign-in creates the
// account here.
import { randomBytes } from 'node:crypto';
import type { SsoExchangeResponse } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { accountActor, auditCaller, type AuditActor } from '../../audit-log/audit.js';
import { hashPassword } from '../../security/passwords.js';
import type { Tx } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import type { UserRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import { readRegistrationSettings, registerWithIdentity } from '../accounts/index.js';
import type { RequestMeta } from '../context.js';
import { toUser } from '../users/index.js';
import {
  deleteHandoff,
  findLiveHandoff,
  findUser,
  insertAdminUser,
  insertIdentity,
  lockUser,
  promoteToAdmin,
  recordLogin,
} from './queries.js';
import { pickUsername } from './username.js';
import { stateInvalid } from '../../integrations/oidc/index.js';
import {
  activeSettings,
  hashCode,
  refuseDisabled,
  type RegisterPayload,
  type SsoDeps,
} from './records.js';

/** Who writes the rows of an account that single sign-on creates or promotes. */
const SSO_ACTOR: AuditActor = { type: 'system', id: null, label: 'sso' };

/** Claims a hand-off row: deleted inside the transaction, so a code works once. */
async function claimHandoff(tx: Tx, id: string): Promise<void> {
  if (!(await deleteHandoff(tx, id))) throw codeInvalid();
}

const codeInvalid = () =>
  stateInvalid('This sign-in code was used already or has expired; start again', 'code');

/** Promotes a member in an admin group (never demotes: docs/sso.md). */
async function promoteIfAdmin(tx: Tx, row: UserRow, admin: boolean, meta: RequestMeta, now: Date) {
  if (!admin || row.role === 'admin') return row;
  const updated = await promoteToAdmin(tx, row.id, now);
  await auditCaller(
    tx,
    { actor: SSO_ACTOR, meta },
    'user.update',
    { type: 'user', id: row.id },
    { role: { from: 'user', to: 'admin' }, via: 'sso_admin_group' },
  );
  return updated;
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
  await activeSettings(d.ctx);
  const now = d.ctx.now();
  const handoff = await findLiveHandoff(d.ctx.db, hashCode(input.code), now);
  if (!handoff) throw codeInvalid();
  const payload = handoff.payload as Partial<RegisterPayload> & { redirect?: string | null };
  let row: UserRow;
  if (handoff.kind === 'login') {
    row = await withTransaction(d.ctx, async (tx) => {
      await claimHandoff(tx, handoff.id);
      const found = await lockUser(tx, handoff.userId!);
      if (!found) throw codeInvalid();
      refuseDisabled(found);
      const promoted = await promoteIfAdmin(tx, found, payload.admin === true, meta, now);
      const updated = await recordLogin(tx, found.id, now);
      const caller = { actor: accountActor(promoted), meta };
      await auditCaller(tx, caller, 'auth.sso_login', { type: 'user', id: found.id });
      return updated;
    });
  } else {
    row = await createFromHandoff(d, handoff.id, payload as RegisterPayload, input, meta);
  }
  return {
    ...(await d.ctx.tokens.session(row, now)),
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
    await recordLogin(tx, user.id, now);
    for (const action of ['auth.sso_link', 'auth.sso_login'] as const) {
      await auditCaller(
        tx,
        { actor: accountActor(user), meta },
        action,
        { type: 'user', id: user.id },
        { issuer: p.issuer, via: 'first_sign_in' },
      );
    }
  };
  if (p.admin) {
    // An administrator by group: no membership, no media account, no invite code.
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    return withTransaction(ctx, async (tx) => {
      const id = uuidv7();
      let inserted: UserRow;
      try {
        inserted = await insertAdminUser(tx, { id, username, email: p.email, passwordHash }, now);
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
      await auditCaller(
        tx,
        { actor: SSO_ACTOR, meta },
        'user.create',
        { type: 'user', id },
        { role: 'admin', via: 'sso_admin_group', issuer: p.issuer },
      );
      await linkAndAudit(tx, inserted);
      return (await findUser(tx, id))!;
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
  return (await findUser(ctx.db, created.id))!;
}
