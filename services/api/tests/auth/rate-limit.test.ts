import { errorBodySchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { createTestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

describe(`login rate limit (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('should answer 429 with Retry-After after 10 failures, counted across two replicas', async () => {
    // Two app instances (replicas) behind one proxy, sharing only the database.
    const config = testConfig({ TRUST_PROXY_HOPS: '1' });
    const first = createTestApp(database.handle, { config, replicaId: 'a' });
    const second = createTestApp(await database.connectAnother(), { config, replicaId: 'b' });
    const user = await aUser().create(first.context.db);
    const attempt = (app: typeof first, password: string, ip = '203.0.113.9') =>
      app.call('POST', '/api/v1/auth/login', {
        body: { username: user.username, password },
        headers: { 'x-forwarded-for': ip },
      });

    for (let i = 0; i < 10; i++) {
      const res = await attempt(i % 2 === 0 ? first : second, `wrong-${i}`);
      expect(res.status).toBe(401);
    }
    const limited = await attempt(second, user.password);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const error = errorBodySchema.parse(await limited.json()).error;
    expect(error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: retryAfter },
    });
    expect((await attempt(first, user.password)).status).toBe(429);

    // The account limit is per account and address: the same account from elsewhere still works.
    expect((await attempt(first, user.password, '198.51.100.7')).status).toBe(200);
  });

  it('should clear the account counter after a successful login', async () => {
    const app = createTestApp(database.handle, { config: testConfig({ TRUST_PROXY_HOPS: '1' }) });
    const user = await aUser().create(app.context.db);
    const attempt = (password: string) =>
      app.call('POST', '/api/v1/auth/login', {
        body: { username: user.username, password },
        headers: { 'x-forwarded-for': '192.0.2.44' },
      });
    for (let i = 0; i < 9; i++) expect((await attempt('bad-password')).status).toBe(401);
    expect((await attempt(user.password)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await attempt('bad-password')).status).toBe(401);
    expect((await attempt(user.password)).status).toBe(200);
  });

  it('should answer 429 for 24 h after 100 failures from one IP, whatever the usernames', async () => {
    const app = createTestApp(database.handle, { config: testConfig({ TRUST_PROXY_HOPS: '1' }) });
    const member = await aUser().create(app.context.db);
    const ip = '203.0.113.77';
    const attempt = (username: string, password: string, from = ip) =>
      app.call('POST', '/api/v1/auth/login', {
        body: { username, password },
        headers: { 'x-forwarded-for': from },
      });

    // 100 failures spread over 20 unknown names (5 each), so the per-account limit (10) never
    // trips and only the per-IP counter can reach its limit.
    for (let i = 0; i < 100; i++) {
      const res = await attempt(`nobody-${i % 20}`, 'wrong-password');
      expect(res.status).toBe(401);
    }

    // The 101st attempt is refused before the password is checked, even a correct one for an
    // account that has no failures of its own.
    const limited = await attempt(member.username, member.password);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 300);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const error = errorBodySchema.parse(await limited.json()).error;
    expect(error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: retryAfter },
    });
    const [signedIn] = await app.context.db
      .select({ lastLoginAt: users.lastLoginAt })
      .from(users)
      .where(eq(users.id, member.id));
    expect(signedIn?.lastLoginAt).toBeNull();

    // The counter belongs to the address: the same account from another IP signs in.
    expect((await attempt(member.username, member.password, '198.51.100.78')).status).toBe(200);
    expect((await attempt(member.username, member.password)).status).toBe(429);
  });
});
