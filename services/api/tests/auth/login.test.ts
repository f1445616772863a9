import {
  errorBodySchema,
  loginResponseSchema,
  tokenResponseSchema,
  userSchema,
} from '@usher/contracts';
import { and, eq } from 'drizzle-orm';
import { bootstrapAdmin } from '../../src/bootstrap.js';
import { auditLog, users } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';

async function errorOf(res: Response) {
  return errorBodySchema.parse(await res.json()).error;
}

describe(`auth routes (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
  });
  afterAll(async () => {
    await database.close();
  });

  const login = (username: string, password: string) =>
    t.call('POST', '/api/v1/auth/login', { body: { username, password } });

  it('should sign in by username or email (any case) and return the token and profile', async () => {
    const user = await aUser().withEmail('Alice@Example.org').create(t.context.db);
    const res = await login(user.username.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    const body = loginResponseSchema.parse(await res.json());
    expect(body.user).toMatchObject({ id: user.id, username: user.username, role: 'user' });
    expect(body.user.lastLoginAt).not.toBeNull();
    const viaEmail = await login('alice@example.org', user.password);
    expect(viaEmail.status).toBe(200);

    const me = await t.call('GET', '/api/v1/me', { token: body.token });
    expect(me.status).toBe(200);
    expect(userSchema.parse(await me.json()).id).toBe(user.id);
    const audit = await t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.login'), eq(auditLog.actorId, user.id)));
    expect(audit).toHaveLength(2);
  });

  it('should answer 401 INVALID_CREDENTIALS for a wrong password or unknown user, alike', async () => {
    const user = await aUser().create(t.context.db);
    const wrong = await login(user.username, 'not-the-password');
    const unknown = await login('nobody_here', 'whatever-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await errorOf(wrong), await errorOf(unknown)];
    expect(a).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Wrong username or password' });
    expect(b.message).toBe(a.message);
    const failed = await t.context.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.login_failed'), eq(auditLog.actorId, user.id)));
    expect(failed).toHaveLength(1);
  });

  it('should answer 403 ACCOUNT_DISABLED only after a correct password', async () => {
    const user = await aUser().inactive().create(t.context.db);
    expect((await errorOf(await login(user.username, 'wrong-password'))).code).toBe(
      'INVALID_CREDENTIALS',
    );
    const res = await login(user.username, user.password);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('ACCOUNT_DISABLED');
  });

  it('should reject unknown fields and bad shapes with 400 VALIDATION_FAILED details', async () => {
    const res = await t.call('POST', '/api/v1/auth/login', {
      body: { username: '', password: 'x', extra: true },
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    const paths = (error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['username', '']));
    const malformed = await t.call('POST', '/api/v1/auth/login', { body: '{"username":' });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).code).toBe('VALIDATION_FAILED');
  });

  it('should force the bootstrap admin to change the password, then revoke the old token', async () => {
    const fresh = await createTestDatabase();
    const app = createTestApp(fresh.handle);
    const logs = memoryLogger();
    await bootstrapAdmin(fresh.handle.db, {
      adminPassword: 'Temporary-Pass-1',
      logger: logs.logger,
    });
    const res = await app.call('POST', '/api/v1/auth/login', {
      body: { username: 'admin', password: 'Temporary-Pass-1' },
    });
    const { token, user } = loginResponseSchema.parse(await res.json());
    expect(user.mustChangePassword).toBe(true);

    const blocked = await app.call('GET', '/api/v1/admin/current', { token });
    expect(blocked.status).toBe(403);
    expect(await errorOf(blocked)).toMatchObject({
      code: 'PASSWORD_CHANGE_REQUIRED',
      message: 'Change your password to continue',
    });
    expect((await app.call('GET', '/api/v1/me', { token })).status).toBe(200);

    const unchanged = await app.call('PUT', '/api/v1/me/password', {
      token,
      body: { currentPassword: 'Temporary-Pass-1', newPassword: 'Temporary-Pass-1' },
    });
    expect((await errorOf(unchanged)).code).toBe('PASSWORD_UNCHANGED');
    const wrongCurrent = await app.call('PUT', '/api/v1/me/password', {
      token,
      body: { currentPassword: 'nope-nope', newPassword: 'Brand-New-Pass-2' },
    });
    expect(wrongCurrent.status).toBe(422);
    expect((await errorOf(wrongCurrent)).code).toBe('CURRENT_PASSWORD_INVALID');

    const changed = await app.call('PUT', '/api/v1/me/password', {
      token,
      body: { currentPassword: 'Temporary-Pass-1', newPassword: 'Brand-New-Pass-2' },
    });
    expect(changed.status).toBe(200);
    const next = tokenResponseSchema.parse(await changed.json());

    const old = await app.call('GET', '/api/v1/me', { token });
    expect(old.status).toBe(401);
    expect((await errorOf(old)).code).toBe('TOKEN_REVOKED');
    const current = await app.call('GET', '/api/v1/admin/current', { token: next.token });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ username: 'admin', mustChangePassword: false });

    const [audit] = await fresh.handle.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.password_change'));
    expect(audit).toMatchObject({
      actorType: 'admin',
      actorLabel: 'admin',
      details: { forced: true },
    });
    expect(JSON.stringify(audit)).not.toContain('Brand-New-Pass-2');
    expect(app.logs.text()).not.toContain('Brand-New-Pass-2');
    expect(app.logs.text()).not.toContain('Temporary-Pass-1');
    await fresh.close();
  });

  it('should revoke every token on logout with allDevices, and none without', async () => {
    const user = await aUser().create(t.context.db);
    const a = loginResponseSchema.parse(await (await login(user.username, user.password)).json());
    const b = loginResponseSchema.parse(await (await login(user.username, user.password)).json());
    const plain = await t.call('POST', '/api/v1/auth/logout', { token: a.token });
    expect(plain.status).toBe(204);
    expect((await t.call('GET', '/api/v1/me', { token: b.token })).status).toBe(200);
    const all = await t.call('POST', '/api/v1/auth/logout', {
      token: a.token,
      body: { allDevices: true },
    });
    expect(all.status).toBe(204);
    for (const token of [a.token, b.token]) {
      const res = await t.call('GET', '/api/v1/me', { token });
      expect((await errorOf(res)).code).toBe('TOKEN_REVOKED');
    }
  });

  it('should treat a deactivated account or a changed role as revoked', async () => {
    const user = await aUser().create(t.context.db);
    const { token } = loginResponseSchema.parse(
      await (await login(user.username, user.password)).json(),
    );
    await t.context.db
      .update(users)
      .set({ role: 'admin', expiresAt: null })
      .where(eq(users.id, user.id));
    expect((await errorOf(await t.call('GET', '/api/v1/me', { token }))).code).toBe(
      'TOKEN_REVOKED',
    );
    await t.context.db
      .update(users)
      .set({ role: 'user', isActive: false })
      .where(eq(users.id, user.id));
    expect((await errorOf(await t.call('GET', '/api/v1/me', { token }))).code).toBe(
      'TOKEN_REVOKED',
    );
  });
});
