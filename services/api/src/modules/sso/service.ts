// Single sign-on with an OpenID provider (issue 31, docs/sso.md): the start, the callback, the
// one-time exchange, and the account's linked sign-ins.
import { createHash, randomBytes } from 'node:crypto';
import type { SsoExchangeResponse, UserIdentitiesResponse } from '@usher/contracts';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit, type AuditActor } from '../../audit/audit.js';
import { hashPassword } from '../../auth/passwords.js';
import type { Tx } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import { ssoHandoffs, userIdentities, users, type UserRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import type { StoredLimiter } from '../../http/rate-limit.js';
import { readRegistrationSettings, registerWithIdentity } from '../accounts/index.js';
import type { ModuleContext, RequestMeta } from '../context.js';
import { toUser } from '../users/index.js';
import { pickUsername } from './username.js';
import { client, discover, providerFailure, stateInvalid, withinDeadline } from './provider.js';
import { passwordLoginAllowed, readSsoSettings, type SsoSettings } from './settings.js';
import { STATE_TTL_SECONDS, stateCookie, type SsoState, type StateSealer } from './state.js';

/** How long the web app has to exchange a sign-in code, and to type an invite code. */
const LOGIN_HANDOFF_SECONDS = 120;
const REGISTER_HANDOFF_SECONDS = 900;

export interface SsoDeps {
  ctx: ModuleContext;
  sealer: StateSealer;
  /** The registration limiter (shared with `POST /auth/register`: attempts per IP). */
  registration: StoredLimiter;
  /** Bound of the work at the provider per request (under 10 s). */
  deadlineMs: number;
}

/** What the provider said about the person, after every check passed. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
  name: string | null;
  groups: string[];
}

interface RegisterPayload {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
  name: string | null;
  admin: boolean;
  redirect: string | null;
}

export async function activeSettings(ctx: ModuleContext): Promise<SsoSettings> {
  const s = await readSsoSettings(ctx.settings.store);
  if (!s.active) throw new AppError('SSO_DISABLED', 'Single sign-on is not switched on');
  return s;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
const userActor = (row: UserRow): AuditActor => ({
  type: row.role === 'admin' ? 'admin' : 'user',
  id: row.id,
  label: row.username,
});

/** Whether the provider's groups name one of the admin groups. */
function inAdminGroup(s: SsoSettings, groups: string[]): boolean {
  return s.adminGroups.some((g) => groups.includes(g));
}

/**
 * `GET /auth/oidc/start` and `POST /me/identities/link`: the provider's authorization URL (code
 * flow, PKCE S256, state and nonce) and the sealed state cookie that goes with it.
 */
export async function beginSignIn(
  d: SsoDeps,
  input: { redirect: string | null; link?: { userId: string; tokenVersion: number } },
): Promise<{ url: string; cookie: string }> {
  const s = await activeSettings(d.ctx);
  const config = await withinDeadline(discover(s), d.deadlineMs).catch((err: unknown) => {
    throw providerFailure(err);
  });
  const codeVerifier = client.randomPKCECodeVerifier();
  const state: SsoState = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier,
    issuer: s.issuer,
    redirect: input.redirect,
    linkUserId: input.link?.userId ?? null,
    linkVersion: input.link?.tokenVersion ?? null,
    exp: Math.floor(d.ctx.now().getTime() / 1000) + STATE_TTL_SECONDS,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: s.redirectUri,
    scope: s.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state: state.state,
    nonce: state.nonce,
  });
  return {
    url: url.href,
    cookie: stateCookie(d.sealer.seal(state), s.webUrl.startsWith('https://')),
  };
}

/** Code → tokens (ID token checked by openid-client) → userinfo, within the deadline. */
async function verifyAtProvider(
  d: SsoDeps,
  s: SsoSettings,
  st: SsoState,
  query: Record<string, string>,
): Promise<VerifiedIdentity> {
  const work = (async () => {
    const config = await discover(s);
    const currentUrl = new URL(s.redirectUri);
    for (const [key, value] of Object.entries(query)) currentUrl.searchParams.set(key, value);
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: st.codeVerifier,
      expectedState: st.state,
      expectedNonce: st.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    let info: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint) {
      // Providers that keep the ID token small (Authelia, oidc-provider) give e-mail and groups
      // here; openid-client checks that `sub` is the ID token's.
      info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    }
    return { issuer: config.serverMetadata().issuer, all: { ...info, ...claims } };
  })().catch((err: unknown) => {
    throw providerFailure(err);
  });
  const { issuer, all } = await withinDeadline(work, d.deadlineMs);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const rawGroups = all[s.groupsClaim];
  const groups = Array.isArray(rawGroups)
    ? rawGroups.filter((g): g is string => typeof g === 'string')
    : typeof rawGroups === 'string'
      ? [rawGroups]
      : [];
  const email = text(all.email)?.toLowerCase() ?? null;
  return {
    issuer,
    subject: String(all.sub),
    email: email && email.length <= 254 && email.includes('@') ? email : null,
    emailVerified: all.email_verified === true || all.email_verified === 'true',
    preferredUsername: text(all.preferred_username),
    name: text(all.name),
    groups,
  };
}

async function findIdentityOwner(
  db: ModuleContext['db'],
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

async function insertIdentity(
  tx: Tx,
  userId: string,
  id: VerifiedIdentity | RegisterPayload,
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

const identityTaken = () =>
  new AppError('SSO_IDENTITY_TAKEN', 'This sign-in is already linked to another account');

async function createHandoff(
  d: SsoDeps,
  kind: 'login' | 'register',
  values: { userId?: string; payload: Record<string, unknown> },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = d.ctx.now();
  const ttl = kind === 'login' ? LOGIN_HANDOFF_SECONDS : REGISTER_HANDOFF_SECONDS;
  // Expired hand-offs are swept here, so the table stays as small as the sign-ins in flight.
  await d.ctx.db.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, now));
  await d.ctx.db.insert(ssoHandoffs).values({
    id: uuidv7(),
    codeHash: hashCode(code),
    kind,
    userId: values.userId ?? null,
    payload: values.payload,
    expiresAt: new Date(now.getTime() + ttl * 1000),
    createdAt: now,
  });
  return code;
}

export type CallbackOutcome = { kind: 'login'; code: string } | { kind: 'linked' };

/**
 * `GET /auth/oidc/callback`: checks the state cookie against `state`, redeems the code at the
 * provider (PKCE verifier, nonce, ID token checks), then either links the identity to the
 * account that started a link, or hands the sign-in to the web app through a one-time code.
 * A linked but disabled account is refused here, after the provider said yes.
 */
export async function finishCallback(
  d: SsoDeps,
  query: Record<string, string>,
  st: SsoState | null,
  meta: RequestMeta,
): Promise<CallbackOutcome> {
  const s = await activeSettings(d.ctx);
  if (!st || !query.state || st.state !== query.state || st.issuer !== s.issuer) {
    throw stateInvalid('This sign-in was not started here, or took too long; start again', 'state');
  }
  const identity = await verifyAtProvider(d, s, st, query);
  const now = d.ctx.now();
  if (st.linkUserId) {
    await linkIdentity(d, identity, { userId: st.linkUserId, tokenVersion: st.linkVersion }, meta);
    return { kind: 'linked' };
  }
  const owner = await findIdentityOwner(d.ctx.db, identity.issuer, identity.subject);
  if (owner) {
    if (!owner.user.isActive) {
      throw new AppError('ACCOUNT_DISABLED', 'This account is disabled; contact the operator');
    }
    await d.ctx.db
      .update(userIdentities)
      .set({ lastUsedAt: now, email: identity.email })
      .where(eq(userIdentities.id, owner.identityId));
    const admin = inAdminGroup(s, identity.groups);
    return {
      kind: 'login',
      code: await createHandoff(d, 'login', {
        userId: owner.user.id,
        payload: { redirect: st.redirect, admin },
      }),
    };
  }
  if (s.linkByVerifiedEmail && identity.email && identity.emailVerified) {
    const [byEmail] = await d.ctx.db
      .select()
      .from(users)
      .where(eq(users.email, identity.email))
      .limit(1);
    if (byEmail) {
      if (!byEmail.isActive) {
        throw new AppError('ACCOUNT_DISABLED', 'This account is disabled; contact the operator');
      }
      await withTransaction(d.ctx, async (tx) => {
        await insertIdentity(tx, byEmail.id, identity, now);
        await recordAudit(tx, {
          actor: userActor(byEmail),
          action: 'auth.sso_link',
          target: { type: 'user', id: byEmail.id },
          details: { issuer: identity.issuer, via: 'verified_email' },
          ip: meta.ip,
          requestId: meta.requestId,
        });
      });
      return {
        kind: 'login',
        code: await createHandoff(d, 'login', {
          userId: byEmail.id,
          payload: { redirect: st.redirect, admin: inAdminGroup(s, identity.groups) },
        }),
      };
    }
  }
  const admin = inAdminGroup(s, identity.groups);
  if (!admin && !s.allowRegistration) {
    throw new AppError(
      'SSO_REGISTRATION_CLOSED',
      'No account is linked to this sign-in; sign in with your password and link it from your account page',
      { details: { reason: 'registration_off' } },
    );
  }
  if (!admin && !identity.email) {
    throw new AppError(
      'SSO_REGISTRATION_CLOSED',
      'The identity provider gave no e-mail address, which a new account needs',
      { details: { reason: 'no_email' } },
    );
  }
  const payload: RegisterPayload = {
    issuer: identity.issuer,
    subject: identity.subject,
    email: identity.email,
    emailVerified: identity.emailVerified,
    preferredUsername: identity.preferredUsername,
    name: identity.name,
    admin,
    redirect: st.redirect,
  };
  return {
    kind: 'login',
    code: await createHandoff(d, 'register', { payload: payload as never }),
  };
}

/** The identity joins the account that started the link (callback of `POST /me/identities/link`). */
async function linkIdentity(
  d: SsoDeps,
  identity: VerifiedIdentity,
  link: { userId: string; tokenVersion: number | null },
  meta: RequestMeta,
): Promise<void> {
  const [user] = await d.ctx.db.select().from(users).where(eq(users.id, link.userId)).limit(1);
  if (!user || user.tokenVersion !== link.tokenVersion || !user.isActive) {
    throw stateInvalid('Your session changed while linking; sign in and try again', 'state');
  }
  const owner = await findIdentityOwner(d.ctx.db, identity.issuer, identity.subject);
  if (owner && owner.user.id !== user.id) throw identityTaken();
  if (owner) return; // Already linked to this very account: nothing to do.
  await withTransaction(d.ctx, async (tx) => {
    await insertIdentity(tx, user.id, identity, d.ctx.now());
    await recordAudit(tx, {
      actor: userActor(user),
      action: 'auth.sso_link',
      target: { type: 'user', id: user.id },
      details: { issuer: identity.issuer, via: 'account' },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}

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
      if (!found.isActive) {
        throw new AppError('ACCOUNT_DISABLED', 'This account is disabled; contact the operator');
      }
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
