import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startFakeOidcProvider } from '@usher/testkit';
import { eq, sql } from 'drizzle-orm';
import { userIdentities, users, ssoHandoffs } from '../../src/db/schema/index.js';
import { errorOf } from '../accounts/support.js';
import { createTestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import {
  atProvider,
  callback,
  CLIENT_ID,
  CLIENT_SECRET,
  exchange,
  roundTrip,
  signIn,
  signInCode,
  ssoEnv,
  start,
  WEB,
  type SsoEnv,
} from './support.js';

describe(`single sign-on refusals against oidc-provider (${ENGINE})`, () => {
  let env: SsoEnv;
  const db = () => env.t.context.db;
  const countUsers = async () => (await db().select({ id: users.id }).from(users)).length;
  const expectRefused = async (res: Response, status: number, code: string, reason?: string) => {
    expect(res.status).toBe(status);
    const error = await errorOf(res);
    expect(error.code).toBe(code);
    if (reason) expect(error.details).toMatchObject({ reason });
    return error;
  };

  beforeAll(async () => {
    env = await ssoEnv('jellyfin');
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    env.idp.tamper(null);
    env.idp.fault(null);
    await db().execute(sql`delete from user_identities`);
    await db().execute(sql`delete from users where email like '%@idp.example'`);
    await env.configure();
    await env.set('general', { REGISTRATION_MODE: 'open', EMAIL_VERIFICATION: false });
  });

  it('should answer SSO_DISABLED while single sign-on is off', async () => {
    await env.configure({ OIDC_ENABLED: false });
    await expectRefused(await env.call('GET', '/api/v1/auth/oidc/start'), 404, 'SSO_DISABLED');
    await expectRefused(await exchange(env, 'x'.repeat(43)), 404, 'SSO_DISABLED');
    const site = (await (await env.call('GET', '/api/v1/public/site')).json()) as {
      sso: { enabled: boolean };
    };
    expect(site.sso.enabled).toBe(false);
  });

  it('should refuse a tampered state, a missing cookie and a forged cookie', async () => {
    const started = await start(env);
    const back = new URL(await atProvider(env, started.location, 'alice'));
    const before = await countUsers();

    const tampered = new URL(back);
    tampered.searchParams.set('state', 'attacker-state');
    await expectRefused(
      await callback(env, tampered.href, started.cookie),
      400,
      'SSO_STATE_INVALID',
      'state',
    );
    await expectRefused(await callback(env, back.href, ''), 400, 'SSO_STATE_INVALID', 'state');
    const [name, value] = started.cookie.split('=') as [string, string];
    const [body, mac] = value.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { state: string };
    forged.state = 'attacker-state';
    const forgedCookie = `${name}=${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
    tampered.searchParams.set('state', 'attacker-state');
    await expectRefused(
      await callback(env, tampered.href, forgedCookie),
      400,
      'SSO_STATE_INVALID',
      'state',
    );
    expect(await countUsers()).toBe(before);
    expect(await db().select().from(ssoHandoffs)).toEqual([]);
  });

  it('should refuse a replayed authorization code and a replayed sign-in code', async () => {
    const started = await start(env);
    const back = await atProvider(env, started.location, 'alice');
    const first = await callback(env, back, started.cookie);
    expect(first.status).toBe(302);
    // The same redirect and cookie again: the provider refuses the spent code.
    await expectRefused(
      await callback(env, back, started.cookie),
      400,
      'SSO_STATE_INVALID',
      'code_rejected',
    );
    const code = new URL(first.headers.get('location')!).searchParams.get('code')!;
    expect((await exchange(env, code)).status).toBe(200);
    await expectRefused(await exchange(env, code), 400, 'SSO_STATE_INVALID', 'code');
  });

  it.each([
    ['a wrong nonce', { claims: { nonce: 'not-the-nonce' } }],
    ['another issuer', { claims: { iss: 'https://evil.example/application/o/usher/' } }],
    ['another audience', { claims: { aud: 'some-other-client' } }],
    ['an expired ID token', { claims: { exp: Math.floor(Date.now() / 1000) - 3600 } }],
    ['alg none', { signature: 'none' as const }],
    ['a key that is not in the JWKS', { signature: 'foreign' as const }],
  ])('should refuse an ID token with %s', async (_label, change) => {
    const before = await countUsers();
    env.idp.tamper(change);
    await expectRefused(await roundTrip(env, 'alice'), 400, 'SSO_STATE_INVALID', 'id_token');
    expect(await countUsers()).toBe(before);
    expect(await db().select().from(ssoHandoffs)).toEqual([]);
  });

  it('should refuse a new account when OIDC_ALLOW_REGISTRATION is off', async () => {
    await env.configure({ OIDC_ALLOW_REGISTRATION: false });
    const before = await countUsers();
    await expectRefused(await roundTrip(env, 'alice'), 403, 'SSO_REGISTRATION_CLOSED');
    expect(await countUsers()).toBe(before);
  });

  it('should refuse a disabled member after the provider said yes', async () => {
    const session = await signIn(env, 'alice');
    await db().update(users).set({ isActive: false }).where(eq(users.id, session.user.id));
    await expectRefused(await roundTrip(env, 'alice'), 403, 'ACCOUNT_DISABLED');
    // A code handed out before the switch is refused at the exchange too.
    await db().update(users).set({ isActive: true }).where(eq(users.id, session.user.id));
    const code = await signInCode(env, 'alice');
    await db().update(users).set({ isActive: false }).where(eq(users.id, session.user.id));
    await expectRefused(await exchange(env, code), 403, 'ACCOUNT_DISABLED');
  });

  it('should send a browser to the web app with the error code instead of JSON', async () => {
    const started = await start(env);
    const back = new URL(await atProvider(env, started.location, 'alice'));
    back.searchParams.set('state', 'attacker-state');
    const res = await callback(env, back.href, started.cookie, { accept: 'text/html' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${WEB}/login/sso?error=SSO_STATE_INVALID`);
    // The state cookie is cleared whatever the outcome.
    expect(res.headers.get('set-cookie')).toMatch(/^usher_sso=; .*Max-Age=0/);
  });

  it('should refuse linking a sign-in that belongs to another account', async () => {
    const first = await signIn(env, 'alice');
    const other = await aUser().create(db());
    const { token } = await env.t.context.tokens.sign(
      { sub: other.id, role: 'user', ver: other.tokenVersion },
      new Date(),
    );
    const link = await env.call('POST', '/api/v1/me/identities/link', { token });
    const { authorizationUrl } = (await link.json()) as { authorizationUrl: string };
    const cookie = link.headers.get('set-cookie')!.split(';')[0]!;
    await expectRefused(
      await callback(env, await atProvider(env, authorizationUrl, 'alice'), cookie),
      409,
      'SSO_IDENTITY_TAKEN',
    );
    expect(
      await db().select().from(userIdentities).where(eq(userIdentities.userId, other.id)),
    ).toEqual([]);
    expect(
      await db().select().from(userIdentities).where(eq(userIdentities.userId, first.user.id)),
    ).toHaveLength(1);
  });

  it('should not remove the last way to sign in', async () => {
    const session = await signIn(env, 'alice');
    const [identity] = await db()
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, session.user.id));
    const del = () =>
      env.call('DELETE', `/api/v1/me/identities/${identity!.id}`, { token: session.token });
    await expectRefused(await del(), 422, 'LAST_SIGN_IN_METHOD');
    expect(
      await db().select().from(userIdentities).where(eq(userIdentities.id, identity!.id)),
    ).toHaveLength(1);

    // A password member with password sign-in switched off is in the same position.
    const member = await aUser().create(db());
    await db().insert(userIdentities).values({
      id: '01900000-0000-7000-8000-000000000001',
      userId: member.id,
      issuer: env.idp.issuer,
      subject: 'member-subject',
    });
    const { token } = await env.t.context.tokens.sign(
      { sub: member.id, role: 'user', ver: member.tokenVersion },
      new Date(),
    );
    await env.configure({ OIDC_PASSWORD_LOGIN: false });
    await expectRefused(
      await env.call('DELETE', '/api/v1/me/identities/01900000-0000-7000-8000-000000000001', {
        token,
      }),
      422,
      'LAST_SIGN_IN_METHOD',
    );
    // Someone else's link, or none at all: not found.
    await expectRefused(
      await env.call('DELETE', `/api/v1/me/identities/${identity!.id}`, { token }),
      404,
      'IDENTITY_NOT_FOUND',
    );
    await expectRefused(
      await env.call('DELETE', '/api/v1/me/identities/not-a-uuid', { token }),
      404,
      'IDENTITY_NOT_FOUND',
    );
  });

  it('should refuse a discovery document that names another issuer', async () => {
    const other = await startFakeOidcProvider({ issuerPath: '/application/o/other/' });
    try {
      await env.configure({ OIDC_DISCOVERY_URL: other.discoveryUrl });
      await expectRefused(
        await env.call('GET', '/api/v1/auth/oidc/start'),
        503,
        'SSO_UNAVAILABLE',
        'issuer_mismatch',
      );
    } finally {
      await other.stop();
    }
  });

  it('should answer SSO_UNAVAILABLE at once when the provider is down (closed port)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    await env.configure({ OIDC_ISSUER_URL: `http://127.0.0.1:${port}/application/o/usher/` });
    const started = performance.now();
    await expectRefused(
      await env.call('GET', '/api/v1/auth/oidc/start'),
      503,
      'SSO_UNAVAILABLE',
      'unreachable',
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('should answer SSO_UNAVAILABLE within its deadline when the provider hangs', async () => {
    // A second app on the same database with a short deadline, so the test does not sleep 8 s.
    const quick = createTestApp(env.database.handle, {
      config: env.t.config,
      ssoDeadlineMs: 300,
      settingsEnv: { PUBLIC_WEB_URL: WEB },
    });
    const started = await start(env);
    const back = await atProvider(env, started.location, 'alice');
    env.idp.fault('hang');
    const t0 = performance.now();
    const res = await quick.call('GET', new URL(back).pathname + new URL(back).search, {
      headers: { cookie: started.cookie },
    });
    expect(performance.now() - t0).toBeLessThan(5_000);
    await expectRefused(res, 503, 'SSO_UNAVAILABLE');
    const startRes = await quick.call('GET', '/api/v1/auth/oidc/start');
    await expectRefused(startRes, 503, 'SSO_UNAVAILABLE');
    env.idp.fault(null);
  });

  it('should answer SSO_UNAVAILABLE when the provider fails with 5xx', async () => {
    env.idp.fault('error');
    await expectRefused(await env.call('GET', '/api/v1/auth/oidc/start'), 503, 'SSO_UNAVAILABLE');
  });

  it('should check the configuration in the connection test without revealing the secret', async () => {
    const admin = await aUser().admin().create(db());
    const { token } = await env.t.context.tokens.sign(
      { sub: admin.id, role: 'admin', ver: admin.tokenVersion },
      new Date(),
    );
    const good = await env.call('POST', '/api/v1/admin/settings/sso/test', { token, body: {} });
    expect(good.status).toBe(200);
    const reply = (await good.json()) as {
      ok: boolean;
      checks: { target: string; status: string; message: string }[];
    };
    expect(reply.ok).toBe(true);
    expect(reply.checks.map((c) => [c.target, c.status])).toEqual([
      ['discovery', 'ok'],
      ['jwks', 'ok'],
      ['client', 'ok'],
      // http:// outside this machine: most providers insist on https.
      ['redirect_uri', 'warn'],
    ]);
    expect(JSON.stringify(reply)).not.toContain(CLIENT_SECRET);

    const other = await startFakeOidcProvider({ issuerPath: '/x/' });
    try {
      const bad = await env.call('POST', '/api/v1/admin/settings/sso/test', {
        token,
        body: {
          values: {
            OIDC_ISSUER_URL: env.idp.issuer,
            OIDC_DISCOVERY_URL: other.discoveryUrl,
            OIDC_CLIENT_SECRET: CLIENT_SECRET,
          },
        },
      });
      const badReply = (await bad.json()) as {
        ok: boolean;
        checks: { status: string; message: string }[];
      };
      expect(badReply.ok).toBe(false);
      expect(badReply.checks[0]).toMatchObject({ status: 'fail' });
      expect(badReply.checks[0]!.message).toContain('not the configured one');
    } finally {
      await other.stop();
    }

    const listing = await env.call('GET', '/api/v1/admin/settings', { token });
    const text = await listing.text();
    expect(text).toContain(`${WEB}/api/v1/auth/oidc/callback`);
    expect(text).not.toContain(CLIENT_SECRET);
    void CLIENT_ID;
  });
});
