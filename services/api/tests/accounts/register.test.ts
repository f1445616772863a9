import {
  emailCodeSentSchema,
  registerModeSchema,
  registerResponseSchema,
  userSchema,
} from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import {
  auditLog,
  emailCodes,
  mediaServerRetryQueue,
  redeemCodes,
  redemptions,
  users,
} from '../../src/db/schema/index.js';
import { createTestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { accountsEnv, aRedeemCode, codeIn, errorOf, type AccountsEnv, mailTo } from './support.js';
import { domainFlavours } from '../support/flavours.js';

const DAY = 86_400_000;
const PASSWORD = 'Register-Pass-42';
let ipCounter = 1;
/** A fresh client address per test, so the per-IP registration limit never interferes. */
const freshIp = () => `203.0.113.${ipCounter++}`;

// One flavour (support/flavours.ts): Emby, which creates a user in two calls, the password second
// (risk 3).
describe.each(domainFlavours('emby'))(`registration on %s (${ENGINE})`, (flavour) => {
  let env: AccountsEnv;
  const register = (body: Record<string, unknown>, ip = freshIp()) =>
    env.call('POST', '/api/v1/auth/register', { body, ip });
  const localUser = async (username: string) =>
    (
      await env.t.context.db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    )[0];

  beforeAll(async () => {
    env = await accountsEnv(flavour);
    // A trigger lets a test make the local insert fail after the media user exists (§8.1 step 6).
    await env.t.context.db.execute(
      sql.raw(`
      create function usher_test_fail_insert() returns trigger language plpgsql as $$
      begin
        if new.username like 'boom%' then raise exception 'simulated insert failure'; end if;
        if new.username like 'race%' then
          raise exception using errcode = 'unique_violation', constraint = 'users_email_uq',
            message = 'duplicate key value violates unique constraint "users_email_uq"';
        end if;
        return new;
      end $$`),
    );
    await env.t.context.db.execute(
      sql.raw(`create trigger usher_test_fail before insert on users
               for each row execute function usher_test_fail_insert()`),
    );
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(async () => {
    env.media.clearFaults();
    await env.set('general', {
      REGISTRATION_MODE: 'open',
      DEFAULT_TRIAL_DAYS: 7,
      EMAIL_VERIFICATION: false,
      REGISTRATION_EMAIL_DOMAINS: [],
    });
  });

  it('should describe the sign-up rules', async () => {
    await env.set('general', {
      DEFAULT_TRIAL_DAYS: 14,
      EMAIL_VERIFICATION: true,
      REGISTRATION_EMAIL_DOMAINS: ['example.org'],
    });
    const open = registerModeSchema.parse(
      await (await env.call('GET', '/api/v1/auth/register/mode')).json(),
    );
    expect(open).toEqual({
      mode: 'open',
      defaultTrialDays: 14,
      emailVerification: true,
      allowedEmailDomains: ['example.org'],
      usernamePattern: '^[A-Za-z0-9_]+$',
      passwordMinLength: 8,
    });

    await env.set('general', { REGISTRATION_MODE: 'invite', EMAIL_VERIFICATION: false });
    const invite = registerModeSchema.parse(
      await (await env.call('GET', '/api/v1/auth/register/mode')).json(),
    );
    expect(invite).toMatchObject({
      mode: 'invite',
      defaultTrialDays: null,
      emailVerification: false,
    });
  });

  it('should register in open mode with the trial, on both sides, and tell the bot', async () => {
    const res = await register({
      username: 'Open_Alice',
      password: PASSWORD,
      email: 'Alice@Example.org',
    });

    expect(res.status).toBe(201);
    const body = registerResponseSchema.parse(await res.json());
    expect(body.user).toMatchObject({
      username: 'Open_Alice',
      email: 'alice@example.org',
      role: 'user',
      registeredVia: 'open',
      isExpired: false,
      media: { linked: true, state: 'enabled' },
    });
    expect(
      Math.abs(new Date(body.user.expiresAt!).getTime() - (Date.now() + 7 * DAY)),
    ).toBeLessThan(10_000);
    const media = env.mediaUser('open_alice')!;
    expect(media.password).toBe(PASSWORD);
    expect(media.policy).toMatchObject({
      IsDisabled: false,
      IsAdministrator: false,
      IsHidden: true,
    });
    expect(body.user.media.mediaUserId).toBe(media.id.replace(/-/g, '').toLowerCase());

    const me = await env.call('GET', '/api/v1/me', { token: body.token });
    expect(userSchema.parse(await me.json()).id).toBe(body.user.id);
    const login = await env.call('POST', '/api/v1/auth/login', {
      body: { username: 'open_alice', password: PASSWORD },
    });
    expect(login.status).toBe(200);

    const [audit] = await env.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.register'))
      .orderBy(sql`${auditLog.at} desc`)
      .limit(1);
    expect(audit).toMatchObject({ actorId: body.user.id, targetId: body.user.id });
    expect(JSON.stringify(audit!.details)).not.toContain(PASSWORD);

    await env.t.context.notify.idle();
    const push = env.botPushes.find((p) => p.body['userId'] === body.user.id);
    expect(push).toMatchObject({
      path: '/notify/registration',
      body: {
        username: 'Open_Alice',
        email: 'alice@example.org',
        mode: 'open',
        mediaUserId: body.user.media.mediaUserId,
      },
    });
  });

  it('should create a born-expired member with media access disabled when the trial is 0', async () => {
    await env.set('general', { DEFAULT_TRIAL_DAYS: 0 });

    const res = await register({
      username: 'zero_trial',
      password: PASSWORD,
      email: 'zero@example.org',
    });

    expect(res.status).toBe(201);
    const { user } = registerResponseSchema.parse(await res.json());
    expect(user).toMatchObject({
      isExpired: true,
      media: { linked: true, state: 'disabled_expired' },
    });
    expect(env.mediaUser('zero_trial')!.policy['IsDisabled']).toBe(true);
    expect((await localUser('zero_trial'))!.mediaDisabled).toBe(true);
  });

  it('should require a valid invite code in invite mode and grant its days', async () => {
    await env.set('general', { REGISTRATION_MODE: 'invite' });
    const missing = await register({
      username: 'inv_none',
      password: PASSWORD,
      email: 'n@example.org',
    });
    expect(missing.status).toBe(422);
    expect(await errorOf(missing)).toMatchObject({
      code: 'REGISTRATION_CODE_REQUIRED',
      message: 'An invite code is required to sign up',
    });

    const used = await aRedeemCode(env.t.context.db, { days: 30, maxUses: 1, usedCount: 1 });
    const exhausted = await register({
      username: 'inv_used',
      password: PASSWORD,
      email: 'u@example.org',
      code: used.code,
    });
    expect(await errorOf(exhausted)).toMatchObject({
      code: 'REDEEM_CODE_INVALID',
      details: { reason: 'exhausted' },
    });
    expect(env.mediaUser('inv_none')).toBeUndefined();
    expect(env.mediaUser('inv_used')).toBeUndefined();

    const good = await aRedeemCode(env.t.context.db, { days: 45, maxUses: 3 });
    const res = await register({
      username: 'inv_ok',
      password: PASSWORD,
      email: 'ok@example.org',
      code: good.code.toLowerCase(),
    });
    expect(res.status).toBe(201);
    const { user } = registerResponseSchema.parse(await res.json());
    expect(user.registeredVia).toBe('invite');
    expect(Math.abs(new Date(user.expiresAt!).getTime() - (Date.now() + 45 * DAY))).toBeLessThan(
      10_000,
    );
    const [code] = await env.t.context.db
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.id, good.id));
    expect(code!.usedCount).toBe(1);
    const [redemption] = await env.t.context.db
      .select()
      .from(redemptions)
      .where(eq(redemptions.userId, user.id));
    expect(redemption).toMatchObject({
      kind: 'register',
      days: 45,
      codeId: good.id,
      previousExpiresAt: null,
    });
    await env.t.context.notify.idle();
    expect(env.botPushes.find((p) => p.body['userId'] === user.id)?.body['mode']).toBe('invite');
  });

  it('should refuse an invalid code in open mode rather than ignore it, and honour a valid one', async () => {
    const bad = await register({
      username: 'open_bad',
      password: PASSWORD,
      email: 'bad@example.org',
      code: 'FFFFFFFFFFFFFFFF',
    });
    expect(await errorOf(bad)).toMatchObject({
      code: 'REDEEM_CODE_INVALID',
      details: { reason: 'not_found' },
    });

    const good = await aRedeemCode(env.t.context.db, { days: 90 });
    const res = await register({
      username: 'open_code',
      password: PASSWORD,
      email: 'code@example.org',
      code: good.code,
    });
    const { user } = registerResponseSchema.parse(await res.json());
    expect(user.registeredVia).toBe('invite');
    expect(new Date(user.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 89 * DAY);
  });

  it('should refuse taken usernames (here or on the media server) and emails, and foreign domains', async () => {
    await aUser().named('Taken_Here').withEmail('taken@example.org').create(env.t.context.db);
    const server = await env.t.context.integrations.mediaServer.get();
    await server.createUser('Taken_There', 'whatever-1');

    for (const username of ['taken_HERE', 'TAKEN_there']) {
      const res = await register({
        username,
        password: PASSWORD,
        email: `${username}@example.org`,
      });
      expect(res.status).toBe(409);
      expect(await errorOf(res)).toMatchObject({
        code: 'USERNAME_TAKEN',
        message: 'This username is already taken',
      });
    }
    const email = await register({
      username: 'fresh_one',
      password: PASSWORD,
      email: 'TAKEN@example.org',
    });
    expect(await errorOf(email)).toMatchObject({ code: 'EMAIL_TAKEN' });

    await env.set('general', { REGISTRATION_EMAIL_DOMAINS: ['example.org'] });
    const foreign = await register({
      username: 'fresh_two',
      password: PASSWORD,
      email: 'x@example.com',
    });
    expect(foreign.status).toBe(422);
    expect(await errorOf(foreign)).toMatchObject({
      code: 'EMAIL_DOMAIN_NOT_ALLOWED',
      details: { allowedDomains: ['example.org'] },
    });
    expect(env.mediaUser('fresh_one')).toBeUndefined();
    expect(env.mediaUser('fresh_two')).toBeUndefined();
  });

  it('should validate the body strictly', async () => {
    for (const body of [
      { username: 'ab', password: PASSWORD, email: 'a@example.org' },
      { username: 'bad name', password: PASSWORD, email: 'a@example.org' },
      { username: 'short_pw', password: 'short', email: 'a@example.org' },
      { username: 'no_email', password: PASSWORD, email: 'not-an-email' },
      { username: 'extra', password: PASSWORD, email: 'a@example.org', role: 'admin' },
      { username: 'bad_code', password: PASSWORD, email: 'a@example.org', emailCode: '12345' },
    ]) {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
  });

  describe('email verification', () => {
    beforeEach(async () => {
      await env.set('general', { EMAIL_VERIFICATION: true });
      await env.set('email', {
        EMAIL_CODE_RESEND_SECONDS: 60,
        EMAIL_CODE_DAILY_LIMIT: 5,
        EMAIL_CODE_IP_DAILY_LIMIT: 15,
      });
    });
    const sendCode = (email: string, ip = freshIp()) =>
      env.call('POST', '/api/v1/auth/register/send-code', { body: { email }, ip });

    it('should mail a code that the registration then requires and consumes', async () => {
      const none = await register({
        username: 'ver_a',
        password: PASSWORD,
        email: 'ver-a@example.org',
      });
      expect(await errorOf(none)).toMatchObject({ code: 'EMAIL_CODE_REQUIRED' });

      const sent = await sendCode('Ver-A@example.org');
      expect(sent.status).toBe(202);
      const reply = emailCodeSentSchema.parse(await sent.json());
      expect(reply.resendAfterSeconds).toBe(60);
      const mail = await mailTo(env, 'ver-a@example.org');
      expect(mail.subject).toBe('Usher: your sign-up code');
      const code = codeIn(mail);

      const wrong = await register({
        username: 'ver_a',
        password: PASSWORD,
        email: 'ver-a@example.org',
        emailCode: code === '000000' ? '111111' : '000000',
      });
      expect(await errorOf(wrong)).toMatchObject({
        code: 'EMAIL_CODE_INVALID',
        message: 'The code is wrong or has expired; ask for a new one',
      });
      expect(env.mediaUser('ver_a')).toBeUndefined();

      const ok = await register({
        username: 'ver_a',
        password: PASSWORD,
        email: 'ver-a@example.org',
        emailCode: code,
      });
      expect(ok.status).toBe(201);
      const [row] = await env.t.context.db
        .select()
        .from(emailCodes)
        .where(eq(emailCodes.email, 'ver-a@example.org'));
      expect(row).toMatchObject({ purpose: 'register', sent: true, attempts: 1 });
      expect(row!.consumedAt).not.toBeNull();
      expect(env.t.logs.text()).not.toContain(code);
    }, 90_000);

    it('should kill a code after 5 wrong guesses', async () => {
      await sendCode('ver-b@example.org');
      const code = codeIn(await mailTo(env, 'ver-b@example.org'));
      const wrongCode = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        await register({
          username: 'ver_b',
          password: PASSWORD,
          email: 'ver-b@example.org',
          emailCode: wrongCode,
        });
      }
      const late = await register({
        username: 'ver_b',
        password: PASSWORD,
        email: 'ver-b@example.org',
        emailCode: code,
      });
      expect(await errorOf(late)).toMatchObject({ code: 'EMAIL_CODE_INVALID' });
    }, 90_000);

    it('should refuse codes for taken or foreign addresses, and when verification is off', async () => {
      await aUser().withEmail('has-account@example.org').create(env.t.context.db);
      expect(await errorOf(await sendCode('has-account@example.org'))).toMatchObject({
        code: 'EMAIL_TAKEN',
      });
      await env.set('general', { REGISTRATION_EMAIL_DOMAINS: ['example.org'] });
      expect(await errorOf(await sendCode('a@example.net'))).toMatchObject({
        code: 'EMAIL_DOMAIN_NOT_ALLOWED',
      });
      const bare = createTestApp(env.database.handle, { settingsEnv: {} });
      const noSmtp = await bare.call('POST', '/api/v1/auth/register/send-code', {
        body: { email: 'c@example.org' },
      });
      expect(noSmtp.status).toBe(503);
      expect(await errorOf(noSmtp)).toMatchObject({
        code: 'NOT_CONFIGURED',
        details: { system: 'smtp' },
      });
      await env.set('general', { EMAIL_VERIFICATION: false });
      const off = await sendCode('c@example.org');
      expect(off.status).toBe(422);
      expect(await errorOf(off)).toMatchObject({ code: 'EMAIL_VERIFICATION_OFF' });
    });

    it('should answer 429 for the resend gap, the daily limit per address and per IP', async () => {
      const ip = freshIp();
      expect((await sendCode('lim@example.org', ip)).status).toBe(202);
      const gap = await sendCode('lim@example.org', ip);
      expect(gap.status).toBe(429);
      expect(Number(gap.headers.get('retry-after'))).toBeGreaterThan(50);
      expect(await errorOf(gap)).toMatchObject({
        code: 'RATE_LIMITED',
        details: { retryAfterSeconds: expect.any(Number) },
      });

      await env.set('email', { EMAIL_CODE_RESEND_SECONDS: 0, EMAIL_CODE_DAILY_LIMIT: 2 });
      expect((await sendCode('lim@example.org', freshIp())).status).toBe(202);
      const daily = await sendCode('lim@example.org', freshIp());
      expect(daily.status).toBe(429);
      expect(Number(daily.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);

      await env.set('email', { EMAIL_CODE_IP_DAILY_LIMIT: 3 });
      const shared = freshIp();
      for (const n of [1, 2, 3]) {
        expect((await sendCode(`ip${n}@example.org`, shared)).status).toBe(202);
      }
      expect((await sendCode('ip4@example.org', shared)).status).toBe(429);
      expect((await sendCode('ip4@example.org', freshIp())).status).toBe(202);
    }, 90_000);

    it('should answer 502 when the mail cannot be sent, without counting the code', async () => {
      await env.set('email', { SMTP_PORT: 1 });
      const res = await sendCode('down@example.org');
      await env.set('email', { SMTP_PORT: null });
      expect(res.status).toBe(502);
      expect(await errorOf(res)).toMatchObject({ details: { system: 'smtp' } });
      const rows = await env.t.context.db
        .select()
        .from(emailCodes)
        .where(eq(emailCodes.email, 'down@example.org'));
      expect(rows).toEqual([]);
      expect((await sendCode('down@example.org')).status).toBe(202);
    });
  });

  it('should answer 429 after 10 registration attempts from one address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await register(
        { username: 'ab', password: PASSWORD, email: 'x@example.org' },
        ip,
      );
      expect(res.status).toBe(400);
    }
    // Validation failures never reach the limiter: only real attempts count, refused or not.
    await aUser().named('limit_taken').create(env.t.context.db);
    for (let i = 0; i < 10; i++) {
      const res = await register(
        { username: 'limit_taken', password: PASSWORD, email: `l${i}@example.org` },
        ip,
      );
      expect(res.status).toBe(409);
    }
    const limited = await register(
      { username: 'limit_ok', password: PASSWORD, email: 'l@example.org' },
      ip,
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(env.mediaUser('limit_ok')).toBeUndefined();
  }, 90_000);

  describe('all or nothing', () => {
    it('should create nothing when the media server refuses the user', async () => {
      env.media.fail(500, /Users\/New/);
      const res = await register({
        username: 'ms_down',
        password: PASSWORD,
        email: 'msd@example.org',
      });
      expect(res.status).toBe(502);
      expect(await errorOf(res)).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        details: { system: 'media_server' },
      });
      expect(await localUser('ms_down')).toBeUndefined();
      expect(env.mediaUser('ms_down')).toBeUndefined();
    });

    it('should delete the media user when its policy cannot be written', async () => {
      env.media.fail(500, /Policy/, { method: 'POST' });
      const res = await register({
        username: 'ms_policy',
        password: PASSWORD,
        email: 'msp@example.org',
      });
      expect(res.status).toBe(502);
      expect(await localUser('ms_policy')).toBeUndefined();
      expect(env.mediaUser('ms_policy')).toBeUndefined();
    });

    it('should delete the media user when the local insert fails, and answer 500', async () => {
      const res = await register({
        username: 'boom_local',
        password: PASSWORD,
        email: 'boom@example.org',
      });
      expect(res.status).toBe(500);
      expect((await errorOf(res)).code).toBe('INTERNAL_ERROR');
      expect(await localUser('boom_local')).toBeUndefined();
      expect(env.mediaUser('boom_local')).toBeUndefined();
      expect(env.t.logs.text()).toContain('simulated insert failure');
      expect(env.t.logs.text()).not.toContain('$argon2id');
    });

    it('should answer 409 for a unique race and delete the media user', async () => {
      const code = await aRedeemCode(env.t.context.db, { days: 10 });
      const res = await register({
        username: 'race_email',
        password: PASSWORD,
        email: 'race@example.org',
        code: code.code,
      });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).code).toBe('EMAIL_TAKEN');
      expect(env.mediaUser('race_email')).toBeUndefined();
      const [row] = await env.t.context.db
        .select()
        .from(redeemCodes)
        .where(eq(redeemCodes.id, code.id));
      expect(row!.usedCount).toBe(0);
    });

    it('should queue a delete retry when the clean-up delete fails too', async () => {
      env.media.fail(503, /Users\//, { method: 'DELETE' });
      const res = await register({
        username: 'boom_orphan',
        password: PASSWORD,
        email: 'orph@example.org',
      });
      expect(res.status).toBe(500);
      const orphan = env.mediaUser('boom_orphan')!;
      const [retry] = await env.t.context.db
        .select()
        .from(mediaServerRetryQueue)
        .where(eq(mediaServerRetryQueue.mediaUserId, orphan.id.replace(/-/g, '').toLowerCase()));
      expect(retry).toMatchObject({
        operation: 'delete',
        origin: 'register_cleanup',
        status: 'pending',
      });
    });

    it('should let exactly one of two concurrent sign-ups with one name through', async () => {
      const [a, b] = await Promise.all([
        register({ username: 'Twin_Name', password: PASSWORD, email: 'twin-a@example.org' }),
        register({ username: 'twin_name', password: PASSWORD, email: 'twin-b@example.org' }),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      const loser = a.status === 409 ? a : b;
      expect((await errorOf(loser)).code).toBe('USERNAME_TAKEN');
      const onServer = [...env.media.state.users.values()].filter((u) =>
        /^twin_name$/i.test(u.name),
      );
      expect(onServer).toHaveLength(1);
      const local = await localUser('twin_name');
      expect(local!.mediaUserId).toBe(onServer[0]!.id.replace(/-/g, '').toLowerCase());
    }, 90_000);

    it('should answer 503 when the media server is not configured', async () => {
      // A second app on the same database whose environment names no media server.
      const bare = createTestApp(env.database.handle, { settingsEnv: {} });
      const res = await bare.call('POST', '/api/v1/auth/register', {
        body: { username: 'no_ms', password: PASSWORD, email: 'noms@example.org' },
      });
      expect(res.status).toBe(503);
      expect(await errorOf(res)).toMatchObject({
        code: 'NOT_CONFIGURED',
        details: { system: 'media_server' },
      });
      expect(await localUser('no_ms')).toBeUndefined();
    });
  });

  it('should never log passwords', () => {
    expect(env.t.logs.text()).not.toContain(PASSWORD);
  });
});
