import { okSchema, tokenResponseSchema } from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { verifyPassword } from '../../src/security/passwords.js';
import { auditLog, emailCodes, users } from '../../src/db/schema/index.js';
import { createTestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { TIMING_CHECK_NAME } from '../../src/modules/accounts/login-fallback.js';
import { aUser } from '../support/users.js';
import { accountsEnv, codeIn, errorOf, type AccountsEnv, mailTo } from './support.js';
import { domainFlavours } from '../support/flavours.js';

let ipCounter = 1;
const freshIp = () => `192.0.2.${ipCounter++}`;

// One flavour (support/flavours.ts): Jellyfin, where a password change ends the user's other tokens.
describe.each(domainFlavours('jellyfin'))(`passwords on %s (${ENGINE})`, (flavour) => {
  let env: AccountsEnv;

  beforeAll(async () => {
    env = await accountsEnv(flavour);
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(async () => {
    env.media.clearFaults();
    await env.set('email', { EMAIL_CODE_RESEND_SECONDS: 0, EMAIL_CODE_DAILY_LIMIT: 5 });
  });

  /** A member with a media account on the fake, password set on both sides. */
  const linkedMember = async (name: string, password: string, email?: string) => {
    const server = await env.t.context.integrations.mediaServer.get();
    const media = await server.createUser(name, password);
    const builder = aUser().named(name).withPassword(password).linkedTo(media.id);
    return (email ? builder.withEmail(email) : builder).create(env.t.context.db);
  };
  const tokenFor = async (u: { id: string; role: string; tokenVersion?: number }) =>
    (
      await env.t.context.tokens.sign({
        sub: u.id,
        role: u.role as 'user',
        ver: u.tokenVersion ?? 0,
      })
    ).token;
  const forgot = (email: string, ip = freshIp()) =>
    env.call('POST', '/api/v1/auth/password/forgot', { body: { email }, ip });
  const login = (username: string, password: string) =>
    env.call('POST', '/api/v1/auth/login', { body: { username, password }, ip: freshIp() });

  describe('forgot and reset', () => {
    it('should mail a code to a known address and reset both passwords with it', async () => {
      const member = await linkedMember('rs_alice', 'Old-Pass-111', 'rs-alice@example.org');
      const oldToken = await tokenFor(member);

      const res = await forgot('RS-Alice@example.org');
      expect(res.status).toBe(202);
      expect(okSchema.parse(await res.json())).toEqual({ ok: true });
      const mail = await mailTo(env, 'rs-alice@example.org');
      expect(mail.subject).toBe('Usher: your password reset code');
      const code = codeIn(mail);

      const reset = await env.call('POST', '/api/v1/auth/password/reset', {
        body: { email: 'rs-alice@example.org', code, newPassword: 'New-Pass-222' },
      });
      expect(reset.status).toBe(200);
      expect(okSchema.parse(await reset.json())).toEqual({ ok: true });
      expect(env.mediaUser('rs_alice')!.password).toBe('New-Pass-222');
      expect((await login('rs_alice', 'New-Pass-222')).status).toBe(200);
      expect((await env.call('GET', '/api/v1/me', { token: oldToken })).status).toBe(401);
      const again = await env.call('POST', '/api/v1/auth/password/reset', {
        body: { email: 'rs-alice@example.org', code, newPassword: 'Other-Pass-333' },
      });
      expect(await errorOf(again)).toMatchObject({ code: 'EMAIL_CODE_INVALID' });
      const [audit] = await env.t.context.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'user.password_reset'), eq(auditLog.targetId, member.id)));
      expect(audit).toMatchObject({ actorId: member.id, details: { via: 'email' } });
      expect(env.t.logs.text()).not.toContain(code);
      expect(env.t.logs.text()).not.toContain('New-Pass-222');
    }, 90_000);

    it('should give the same reply for an unknown address, send nothing, and spend the limits', async () => {
      const before = env.smtp.messages.length;
      const ip = freshIp();
      const res = await forgot('nobody@example.org', ip);
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ ok: true });
      const [row] = await env.t.context.db
        .select()
        .from(emailCodes)
        .where(eq(emailCodes.email, 'nobody@example.org'));
      expect(row).toMatchObject({ purpose: 'reset', sent: false, userId: null });

      // Nobody knows that code, but even a right guess must not work for an unknown address.
      const guess = await env.call('POST', '/api/v1/auth/password/reset', {
        body: { email: 'nobody@example.org', code: row!.code, newPassword: 'Whatever-123' },
      });
      expect(await errorOf(guess)).toMatchObject({ code: 'EMAIL_CODE_INVALID' });

      await env.set('email', { EMAIL_CODE_DAILY_LIMIT: 2 });
      await aUser().withEmail('known-lim@example.org').create(env.t.context.db);
      expect((await forgot('nobody@example.org')).status).toBe(202);
      expect((await forgot('known-lim@example.org')).status).toBe(202);
      expect((await forgot('known-lim@example.org')).status).toBe(202);
      const unknownLimited = await errorOf(await forgot('nobody@example.org'));
      const knownLimited = await errorOf(await forgot('known-lim@example.org'));
      expect(unknownLimited.code).toBe('RATE_LIMITED');
      expect({ ...unknownLimited, requestId: '', details: null }).toEqual({
        ...knownLimited,
        requestId: '',
        details: null,
      });
      await mailTo(env, 'known-lim@example.org');
      expect(
        env.smtp.messages.slice(before).some((m) => m.envelope.to.includes('nobody@example.org')),
      ).toBe(false);
    }, 90_000);

    it('should count a wrong guess and keep local state when the media server fails', async () => {
      const member = await linkedMember('rs_bob', 'Old-Pass-111', 'rs-bob@example.org');
      await forgot('rs-bob@example.org');
      const code = codeIn(await mailTo(env, 'rs-bob@example.org'));
      const wrong = await env.call('POST', '/api/v1/auth/password/reset', {
        body: {
          email: 'rs-bob@example.org',
          code: code === '000000' ? '999999' : '000000',
          newPassword: 'New-Pass-222',
        },
      });
      expect(wrong.status).toBe(422);

      env.media.fail(500, /Password/, { method: 'POST' });
      const down = await env.call('POST', '/api/v1/auth/password/reset', {
        body: { email: 'rs-bob@example.org', code, newPassword: 'New-Pass-222' },
      });
      expect(down.status).toBe(502);
      expect(await errorOf(down)).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        details: { system: 'media_server' },
      });
      const [row] = await env.t.context.db.select().from(users).where(eq(users.id, member.id));
      expect(await verifyPassword(row!.passwordHash, 'Old-Pass-111')).toBe(true);
      expect(row!.tokenVersion).toBe(0);
      expect(env.mediaUser('rs_bob')!.password).toBe('Old-Pass-111');

      env.media.clearFaults();
      const retry = await env.call('POST', '/api/v1/auth/password/reset', {
        body: { email: 'rs-bob@example.org', code, newPassword: 'New-Pass-222' },
      });
      expect(retry.status).toBe(200);
    });

    it('should reset an admin locally only, and lift a forced change', async () => {
      const admin = await aUser()
        .admin()
        .withEmail('rs-admin@example.org')
        .mustChangePassword()
        .create(env.t.context.db);
      env.media.fail(500); // the media server must not be asked at all
      await forgot('rs-admin@example.org');
      const code = codeIn(await mailTo(env, 'rs-admin@example.org'));
      const res = await env.call('POST', '/api/v1/auth/password/reset', {
        body: { email: 'rs-admin@example.org', code, newPassword: 'Admin-New-Pass' },
      });
      expect(res.status).toBe(200);
      const [row] = await env.t.context.db.select().from(users).where(eq(users.id, admin.id));
      expect(row).toMatchObject({ mustChangePassword: false, tokenVersion: 1 });
    });

    it('should answer 503 when email is not configured, for known and unknown addresses alike', async () => {
      await aUser().withEmail('rs-nomail@example.org').create(env.t.context.db);
      const bare = createTestApp(env.database.handle, { settingsEnv: {} });
      for (const email of ['rs-nomail@example.org', 'rs-unknown@example.org']) {
        const res = await bare.call('POST', '/api/v1/auth/password/forgot', { body: { email } });
        expect(res.status).toBe(503);
        expect(await errorOf(res)).toMatchObject({
          code: 'NOT_CONFIGURED',
          details: { system: 'smtp' },
        });
      }
    });
  });

  describe('PUT /me/password', () => {
    it('should set the media-server password first, then the local one', async () => {
      const member = await linkedMember('pw_carol', 'Old-Pass-111');
      const res = await env.call('PUT', '/api/v1/me/password', {
        token: await tokenFor(member),
        body: { currentPassword: 'Old-Pass-111', newPassword: 'New-Pass-222' },
      });
      expect(res.status).toBe(200);
      const { token } = tokenResponseSchema.parse(await res.json());
      expect(env.mediaUser('pw_carol')!.password).toBe('New-Pass-222');
      expect((await env.call('GET', '/api/v1/me', { token })).status).toBe(200);
      expect((await login('pw_carol', 'New-Pass-222')).status).toBe(200);
    });

    it('should change nothing and answer 502 when the media server fails', async () => {
      const member = await linkedMember('pw_dave', 'Old-Pass-111');
      const token = await tokenFor(member);
      env.media.fail(503, /Password/, { method: 'POST' });
      const res = await env.call('PUT', '/api/v1/me/password', {
        token,
        body: { currentPassword: 'Old-Pass-111', newPassword: 'New-Pass-222' },
      });
      expect(res.status).toBe(502);
      expect(await errorOf(res)).toMatchObject({ details: { system: 'media_server' } });
      expect((await env.call('GET', '/api/v1/me', { token })).status).toBe(200);
      const [row] = await env.t.context.db.select().from(users).where(eq(users.id, member.id));
      expect(await verifyPassword(row!.passwordHash, 'Old-Pass-111')).toBe(true);
      expect(env.mediaUser('pw_dave')!.password).toBe('Old-Pass-111');
    });

    it('should change an unlinked member or an admin locally without the media server', async () => {
      env.media.fail(500);
      env.media.clearRequests();
      for (const builder of [aUser(), aUser().admin()]) {
        const user = await builder.withPassword('Old-Pass-111').create(env.t.context.db);
        const res = await env.call('PUT', '/api/v1/me/password', {
          token: await tokenFor(user),
          body: { currentPassword: 'Old-Pass-111', newPassword: 'New-Pass-222' },
        });
        expect(res.status).toBe(200);
      }
      expect(env.media.requests('/Password')).toHaveLength(0);
    });
  });

  describe('login fallback', () => {
    it('should accept a password changed on the media server and store it', async () => {
      const member = await linkedMember('fb_erin', 'Old-Pass-111');
      const server = await env.t.context.integrations.mediaServer.get();
      await server.setPassword(member.mediaUserId!, 'Changed-In-App-9');

      const res = await login('fb_erin', 'Changed-In-App-9');
      expect(res.status).toBe(200);
      const [row] = await env.t.context.db.select().from(users).where(eq(users.id, member.id));
      expect(await verifyPassword(row!.passwordHash, 'Changed-In-App-9')).toBe(true);
      const [audit] = await env.t.context.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'auth.login'), eq(auditLog.targetId, member.id)));
      expect(audit!.details).toEqual({ via: 'media_server' });
      // The check's own media-server session was ended.
      expect(env.media.requests('/Sessions/Logout').length).toBeGreaterThan(0);
    });

    it("should refuse a password neither side knows, and never send an admin's name or password", async () => {
      await linkedMember('fb_frank', 'Old-Pass-111');
      const wrong = await login('fb_frank', 'Nope-Nope-000');
      expect(await errorOf(wrong)).toMatchObject({ code: 'INVALID_CREDENTIALS' });

      const admin = await aUser().admin().linkedTo('f'.repeat(32)).create(env.t.context.db);
      env.media.clearRequests();
      expect((await login(admin.username, 'Nope-Nope-000')).status).toBe(401);
      // The same round trip is made (equal timing), with the stand-in name and a random password.
      const checks = env.media.requests('/AuthenticateByName');
      expect(checks).toHaveLength(1);
      const sent = JSON.stringify(checks[0]!.body);
      expect(sent).toContain(TIMING_CHECK_NAME);
      expect(sent).not.toContain(admin.username);
      expect(sent).not.toContain('Nope-Nope-000');
    });
  });
});
