import { bindCodeSchema, emailCodeSentSchema, userSchema } from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { auditLog, messengerBindCodes, users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { accountsEnv, codeIn, errorOf, type AccountsEnv, mailTo } from './support.js';

let ipCounter = 1;
const freshIp = () => `198.18.0.${ipCounter++}`;

describe(`own profile, email change and messenger binding (${ENGINE})`, () => {
  let env: AccountsEnv;

  beforeAll(async () => {
    env = await accountsEnv('emby');
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(async () => {
    await env.set('general', { REGISTRATION_EMAIL_DOMAINS: [] });
    await env.set('email', { EMAIL_CODE_RESEND_SECONDS: 0 });
  });

  const member = async (email?: string) => {
    const b = aUser();
    const row = await (email ? b.withEmail(email) : b).create(env.t.context.db);
    const token = (await env.t.context.tokens.sign({ sub: row.id, role: 'user', ver: 0 })).token;
    return { row, token };
  };

  describe('PATCH /me', () => {
    it('should set and clear the language', async () => {
      const { token } = await member();
      const set = await env.call('PATCH', '/api/v1/me', { token, body: { locale: 'zh-CN' } });
      expect(userSchema.parse(await set.json()).locale).toBe('zh-CN');
      const cleared = await env.call('PATCH', '/api/v1/me', { token, body: { locale: null } });
      expect(userSchema.parse(await cleared.json()).locale).toBeNull();
    });

    it('should refuse unknown languages and fields', async () => {
      const { token } = await member();
      for (const body of [{ locale: 'fr' }, { locale: 'en', email: 'x@example.org' }, {}]) {
        const res = await env.call('PATCH', '/api/v1/me', { token, body });
        expect(res.status).toBe(400);
        expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
      }
      expect((await env.call('PATCH', '/api/v1/me', { body: { locale: 'en' } })).status).toBe(401);
    });
  });

  describe('email change', () => {
    const sendCode = (token: string, newEmail: string) =>
      env.call('POST', '/api/v1/me/email/send-code', {
        token,
        body: { newEmail },
        ip: freshIp(),
      });

    it('should confirm the new address with a code, audit, and notify the old address', async () => {
      const { row, token } = await member('old-addr@example.org');
      const sent = await sendCode(token, 'New-Addr@Example.org');
      expect(sent.status).toBe(202);
      emailCodeSentSchema.parse(await sent.json());
      const code = codeIn(await mailTo(env, 'new-addr@example.org'));

      const res = await env.call('PUT', '/api/v1/me/email', {
        token,
        body: { newEmail: 'new-addr@example.org', code },
      });
      expect(res.status).toBe(200);
      expect(userSchema.parse(await res.json()).email).toBe('new-addr@example.org');
      const notice = await mailTo(env, 'old-addr@example.org');
      expect(notice.subject).toBe('Usher: your email address was changed');
      expect(notice.text).toContain('new-addr@example.org');
      const [audit] = await env.t.context.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'user.email_change'), eq(auditLog.targetId, row.id)));
      expect(audit!.details).toEqual({
        before: 'old-addr@example.org',
        after: 'new-addr@example.org',
      });
      expect(env.t.logs.text()).not.toContain(code);
    });

    it('should refuse the same, a taken or a foreign address', async () => {
      const { token } = await member('same@example.org');
      await member('occupied@example.org');
      expect(await errorOf(await sendCode(token, 'SAME@example.org'))).toMatchObject({
        code: 'EMAIL_UNCHANGED',
      });
      const taken = await sendCode(token, 'occupied@example.org');
      expect(taken.status).toBe(409);
      expect(await errorOf(taken)).toMatchObject({ code: 'EMAIL_TAKEN' });
      await env.set('general', { REGISTRATION_EMAIL_DOMAINS: ['example.org'] });
      expect(await errorOf(await sendCode(token, 'x@elsewhere.net'))).toMatchObject({
        code: 'EMAIL_DOMAIN_NOT_ALLOWED',
      });
    });

    it('should refuse a wrong code, and a code another member asked for', async () => {
      const alice = await member('alice-ec@example.org');
      const mallory = await member('mallory-ec@example.org');
      await sendCode(alice.token, 'wanted@example.org');
      const code = codeIn(await mailTo(env, 'wanted@example.org'));
      const wrong = await env.call('PUT', '/api/v1/me/email', {
        token: alice.token,
        body: { newEmail: 'wanted@example.org', code: code === '000000' ? '111111' : '000000' },
      });
      expect(await errorOf(wrong)).toMatchObject({ code: 'EMAIL_CODE_INVALID' });
      const stolen = await env.call('PUT', '/api/v1/me/email', {
        token: mallory.token,
        body: { newEmail: 'wanted@example.org', code },
      });
      expect(stolen.status).toBe(422);
      const [row] = await env.t.context.db.select().from(users).where(eq(users.id, mallory.row.id));
      expect(row!.email).toBe('mallory-ec@example.org');
    });

    it('should refuse the change when the address was taken after the code was sent', async () => {
      const { token } = await member('late@example.org');
      await sendCode(token, 'contested@example.org');
      const code = codeIn(await mailTo(env, 'contested@example.org'));
      await member('contested@example.org');
      const res = await env.call('PUT', '/api/v1/me/email', {
        token,
        body: { newEmail: 'contested@example.org', code },
      });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).code).toBe('EMAIL_TAKEN');
    });
  });

  describe('messenger binding', () => {
    it('should issue a 6-digit code for 5 minutes, replacing the earlier one', async () => {
      const { row, token } = await member();
      const first = await env.call('POST', '/api/v1/me/messenger/bind-code', { token });
      expect(first.status).toBe(201);
      const a = bindCodeSchema.parse(await first.json());
      expect(a.code).toMatch(/^\d{6}$/);
      const ttl = new Date(a.expiresAt).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(4.5 * 60_000);
      expect(ttl).toBeLessThanOrEqual(5 * 60_000);

      const b = bindCodeSchema.parse(
        await (await env.call('POST', '/api/v1/me/messenger/bind-code', { token })).json(),
      );
      const rows = await env.t.context.db
        .select()
        .from(messengerBindCodes)
        .where(eq(messengerBindCodes.userId, row.id));
      expect(rows.map((r) => r.code)).toEqual([b.code]);
    });

    it('should refuse a code while bound, and unbind once', async () => {
      const { row, token } = await member();
      await env.t.context.db
        .update(users)
        .set({ messengerId: 777000111, messengerBoundAt: new Date() })
        .where(eq(users.id, row.id));
      const again = await env.call('POST', '/api/v1/me/messenger/bind-code', { token });
      expect(again.status).toBe(409);
      expect((await errorOf(again)).code).toBe('MESSENGER_ALREADY_BOUND');

      expect((await env.call('DELETE', '/api/v1/me/messenger', { token })).status).toBe(204);
      const [after] = await env.t.context.db.select().from(users).where(eq(users.id, row.id));
      expect(after).toMatchObject({ messengerId: null, messengerBoundAt: null });
      const [audit] = await env.t.context.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'user.messenger_unbind'), eq(auditLog.targetId, row.id)));
      expect(audit!.details).toEqual({ messengerId: 777000111 });

      const twice = await env.call('DELETE', '/api/v1/me/messenger', { token });
      expect(twice.status).toBe(422);
      expect(await errorOf(twice)).toMatchObject({
        code: 'MESSENGER_NOT_BOUND',
        message: 'No Telegram account is bound',
      });
    });
  });
});
