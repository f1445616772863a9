// Single sign-on with an OpenID provider (issue 31, docs/sso.md): the start and the callback.
import { accountActor, auditCaller } from '../../audit-log/audit.js';
import type { UserRow } from '../../db/schema/index.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestMeta } from '../context.js';
import {
  client,
  discover,
  providerFailure,
  stateInvalid,
  withinDeadline,
} from '../../integrations/oidc/index.js';
import type { SsoSettings } from '../../integrations/oidc/index.js';
import {
  findIdentityOwner,
  findUser,
  findUserByEmail,
  identityTaken,
  insertIdentity,
  touchIdentity,
} from './queries.js';
import { STATE_TTL_SECONDS, stateCookie, type SsoState } from './state.js';
import {
  activeSettings,
  createHandoff,
  inAdminGroup,
  refuseDisabled,
  type RegisterPayload,
  type SsoDeps,
  type VerifiedIdentity,
} from './records.js';

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
    refuseDisabled(owner.user);
    await touchIdentity(d.ctx.db, owner.identityId, identity.email, now);
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
    const byEmail = await findUserByEmail(d.ctx.db, identity.email);
    if (byEmail) {
      refuseDisabled(byEmail);
      await linkWithAudit(d, byEmail, identity, 'verified_email', meta, now);
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
  const user = await findUser(d.ctx.db, link.userId);
  if (!user || user.tokenVersion !== link.tokenVersion || !user.isActive) {
    throw stateInvalid('Your session changed while linking; sign in and try again', 'state');
  }
  const owner = await findIdentityOwner(d.ctx.db, identity.issuer, identity.subject);
  if (owner && owner.user.id !== user.id) throw identityTaken();
  if (owner) return; // Already linked to this very account: nothing to do.
  await linkWithAudit(d, user, identity, 'account', meta, d.ctx.now());
}

/** The identity row and its `auth.sso_link` audit row, in one transaction. */
async function linkWithAudit(
  d: SsoDeps,
  user: UserRow,
  identity: VerifiedIdentity,
  via: 'account' | 'verified_email',
  meta: RequestMeta,
  now: Date,
): Promise<void> {
  await withTransaction(d.ctx, async (tx) => {
    await insertIdentity(tx, user.id, identity, now);
    await auditCaller(
      tx,
      { actor: accountActor(user), meta },
      'auth.sso_link',
      { type: 'user', id: user.id },
      { issuer: identity.issuer, via },
    );
  });
}
