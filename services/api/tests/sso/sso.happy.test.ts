import {
  publicSiteSchema,
  ssoLinkResponseSchema,
  userIdentitiesResponseSchema,
} from '@usher/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, redeemCodes, userIdentities, users } from '../../src/db/schema/index.js';
import { aRedeemCode, errorOf } from '../accounts/support.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import {
  atProvider,
  callback,
  exchange,
  signIn,
  signInCode,
  ssoEnv,
  start,
  WEB,
  type SsoEnv,
} from './support.js';

describe(`single sign-on against oidc-provider (${ENGINE})`, () => {
  let env: SsoEnv;
  const db = () => env.t.context.db;
  const tokenFor = async (row: { id: string; role: string; tokenVersion: number }) =>
    (
      await env.t.context.tokens.sign(
        { sub: row.id, role: row.role as 'admin' | 'user', ver: row.tokenVersion },
        new Date(),
      )
    ).token;
  const identitiesOf = (userId: string) =>
    db().select().from(userIdentities).where(eq(userIdentities.userId, userId));
  const auditActions = async (userId: string) =>
    (await db().select().from(auditLog).where(eq(auditLog.targetId, userId))).map((a) => a.action);

  beforeAll(async () => {
    env = await ssoEnv('jellyfin');
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    // Each test meets the provider's people as strangers.
    await db().execute(sql`delete from user_identities`);
    await db().execute(sql`delete from users where email like '%@idp.example'`);
    await env.configure();
    await env.set('general', { REGISTRATION_MODE: 'open', EMAIL_VERIFICATION: false });
  });

  it('should offer single sign-on on the public site', async () => {
    await env.configure({ OIDC_BUTTON_LABEL: 'Sign in with Authentik', OIDC_AUTO_REDIRECT: true });
    const site = publicSiteSchema.parse(
      await (await env.call('GET', '/api/v1/public/site')).json(),
    );
    expect(site.sso).toEqual({
      enabled: true,
      label: 'Sign in with Authentik',
      autoRedirect: true,
      passwordLogin: true,
    });
  });

  it('should send the browser to the provider with PKCE S256, state, nonce and a sealed cookie', async () => {
    const started = await start(env, '/console/requests');
    const url = new URL(started.location);
    expect(url.href.startsWith(`${env.idp.issuer}auth`)).toBe(true);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${WEB}/api/v1/auth/oidc/callback`);
    expect(started.setCookie).toMatch(
      /^usher_sso=[^;]+; Path=\/api\/v1\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    // The verifier never leaves the server in the clear: only its S256 challenge does.
    expect(started.location).not.toContain('code_verifier');
  });

  it('should create a member on the first sign-in in open mode, and sign the same member in again', async () => {
    const code = await signInCode(env, 'alice', '/console/calendar');
    const res = await exchange(env, code);
    expect(res.status).toBe(200);
    const first = (await res.json()) as {
      token: string;
      user: { id: string; username: string };
      redirect: string;
    };
    expect(first.redirect).toBe('/console/calendar');
    // The provider's preferred username, made unique (the media server may know an "alice").
    expect(first.user.username).toMatch(/^alice\d*$/);
    expect(first.user).toMatchObject({
      email: 'alice@idp.example',
      role: 'user',
      registeredVia: 'open',
      media: { linked: true, state: 'enabled' },
    });
    const [row] = await db().select().from(users).where(eq(users.id, first.user.id));
    expect(row!.hasPassword).toBe(false);
    expect(env.mediaUser(first.user.username)).toBeDefined();
    const links = await identitiesOf(row!.id);
    expect(links).toEqual([
      expect.objectContaining({ issuer: env.idp.issuer, subject: 'a1b2c3-alice' }),
    ]);
    expect(await auditActions(row!.id)).toEqual(
      expect.arrayContaining(['user.register', 'auth.sso_link', 'auth.sso_login']),
    );
    // The token works like a password session.
    const me = await env.call('GET', '/api/v1/me', { token: first.token });
    expect(me.status).toBe(200);

    const again = await signIn(env, 'alice');
    expect(again.user.id).toBe(first.user.id);
    expect(
      await db().select().from(users).where(eq(users.email, 'alice@idp.example')),
    ).toHaveLength(1);
  });

  it('should ask for an invite code once in invite mode, then create the member with it', async () => {
    await env.set('general', { REGISTRATION_MODE: 'invite' });
    const invite = await aRedeemCode(db(), { days: 30 });
    const code = await signInCode(env, 'alice');

    const asked = await exchange(env, code);
    expect(asked.status).toBe(422);
    expect(await errorOf(asked)).toMatchObject({
      code: 'REGISTRATION_CODE_REQUIRED',
      details: { username: expect.stringMatching(/^alice\d*$/) },
    });
    expect(await db().select().from(users).where(eq(users.email, 'alice@idp.example'))).toEqual([]);

    const wrong = await exchange(env, code, 'FFFFFFFFFFFFFFFF');
    expect(wrong.status).toBe(422);
    expect((await errorOf(wrong)).code).toBe('REDEEM_CODE_INVALID');

    const ok = await exchange(env, code, invite.code);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as {
      user: { id: string; registeredVia: string; expiresAt: string };
    };
    expect(body.user.registeredVia).toBe('invite');
    const [used] = await db().select().from(redeemCodes).where(eq(redeemCodes.id, invite.id));
    expect(used!.usedCount).toBe(1);

    // Once: the next sign-in needs no code.
    const later = await signIn(env, 'alice');
    expect(later.user.id).toBe(body.user.id);
  });

  it('should make a member of an admin group an administrator, without a media account', async () => {
    const session = await signIn(env, 'ada');
    expect(session.user).toMatchObject({ role: 'admin', expiresAt: null });
    expect(session.user.username).toMatch(/^ada\d*$/);
    expect(env.mediaUser('ada')).toBeUndefined();
    const admin = await env.call('GET', '/api/v1/admin/users', { token: session.token });
    expect(admin.status).toBe(200);
  });

  it('should promote a linked member who joined an admin group', async () => {
    const member = await signIn(env, 'alice');
    expect(member.user.role).toBe('user');
    await env.configure({ OIDC_ADMIN_GROUPS: ['media-members'] });
    const promoted = await signIn(env, 'alice');
    expect(promoted.user).toMatchObject({ id: member.user.id, role: 'admin', expiresAt: null });
    // The promotion revoked the member's earlier token (role change → token_version + 1).
    expect((await env.call('GET', '/api/v1/me', { token: member.token })).status).toBe(401);
  });

  it('should link a provider sign-in from the account page, list it and unlink it', async () => {
    const owner = await aUser().withEmail('owner@example.org').create(db());
    const token = await tokenFor(owner);
    const linkRes = await env.call('POST', '/api/v1/me/identities/link', { token });
    expect(linkRes.status).toBe(200);
    const { authorizationUrl } = ssoLinkResponseSchema.parse(await linkRes.json());
    const cookie = linkRes.headers.get('set-cookie')!.split(';')[0]!;
    const back = await callback(env, await atProvider(env, authorizationUrl, 'alice'), cookie);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${WEB}/console/account?section=sso&sso=linked`);

    const listed = userIdentitiesResponseSchema.parse(
      await (await env.call('GET', '/api/v1/me/identities', { token })).json(),
    );
    expect(listed).toMatchObject({ hasPassword: true, passwordLogin: true, canLink: true });
    expect(listed.data).toEqual([
      expect.objectContaining({ issuer: env.idp.issuer, email: 'alice@idp.example' }),
    ]);
    expect(await auditActions(owner.id)).toContain('auth.sso_link');

    // Signing in with the provider now opens the owner's account, not a new one.
    const session = await signIn(env, 'alice');
    expect(session.user.id).toBe(owner.id);

    const del = await env.call('DELETE', `/api/v1/me/identities/${listed.data[0]!.id}`, { token });
    expect(del.status).toBe(204);
    expect(await identitiesOf(owner.id)).toEqual([]);
    expect(await auditActions(owner.id)).toContain('auth.sso_unlink');
  });

  it('should link by a provider-verified e-mail only when OIDC_LINK_BY_VERIFIED_EMAIL is on', async () => {
    const owner = await aUser().withEmail('alice@idp.example').create(db());
    // Off (the default): the address is never used to find the account.
    const refused = await exchange(env, await signInCode(env, 'alice'));
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe('EMAIL_TAKEN');
    expect(await identitiesOf(owner.id)).toEqual([]);

    await env.configure({ OIDC_LINK_BY_VERIFIED_EMAIL: true });
    const session = await signIn(env, 'alice');
    expect(session.user.id).toBe(owner.id);
    expect(await identitiesOf(owner.id)).toHaveLength(1);
  });

  it('should never link by an address the provider did not verify', async () => {
    await env.configure({ OIDC_LINK_BY_VERIFIED_EMAIL: true });
    const owner = await aUser().withEmail('uma@idp.example').create(db());
    const res = await exchange(env, await signInCode(env, 'uma'));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('EMAIL_TAKEN');
    expect(await identitiesOf(owner.id)).toEqual([]);
  });

  it('should keep working after the provider rotates its signing key', async () => {
    const before = await signIn(env, 'alice');
    await env.idp.rotateKeys();
    const after = await signIn(env, 'alice');
    expect(after.user.id).toBe(before.user.id);
  });

  it('should discover from an explicit URL outside the issuer (Authentik-style issuer)', async () => {
    await env.configure({
      OIDC_DISCOVERY_URL: `${env.idp.origin}/.well-known/openid-configuration/application/o/usher`,
    });
    const session = await signIn(env, 'alice');
    expect(session.user.email).toBe('alice@idp.example');
    // The issuer keeps its trailing slash, exactly as the provider writes `iss`.
    const [link] = await identitiesOf(session.user.id);
    expect(link!.issuer.endsWith('/application/o/usher/')).toBe(true);
  });

  it("should keep the bootstrap admin's password as a break-glass when password sign-in is off", async () => {
    const bootstrap = await aUser().admin().create(db());
    await db().update(users).set({ registeredVia: 'bootstrap' }).where(eq(users.id, bootstrap.id));
    const member = await aUser().create(db());
    await env.configure({ OIDC_PASSWORD_LOGIN: false });

    const site = publicSiteSchema.parse(
      await (await env.call('GET', '/api/v1/public/site')).json(),
    );
    expect(site.sso.passwordLogin).toBe(false);
    const refused = await env.call('POST', '/api/v1/auth/login', {
      body: { username: member.username, password: member.password },
    });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: 'PASSWORD_LOGIN_DISABLED' });
    const breakGlass = await env.call('POST', '/api/v1/auth/login', {
      body: { username: bootstrap.username, password: bootstrap.password },
      ip: '198.51.100.99',
    });
    expect(breakGlass.status).toBe(200);
    // A wrong password still reads as wrong credentials (nothing revealed).
    const wrong = await env.call('POST', '/api/v1/auth/login', {
      body: { username: member.username, password: 'not-the-password' },
      ip: '198.51.100.98',
    });
    expect((await errorOf(wrong)).code).toBe('INVALID_CREDENTIALS');
    await db()
      .delete(users)
      .where(and(eq(users.id, bootstrap.id)));
  });
});
