import { jest } from '@jest/globals';
import { errorBodySchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { loginIpDelaySeconds } from '../../src/http/rate-limit.js';
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
  afterEach(() => jest.useRealTimers());

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

  it('should evaluate at most 10 of 150 parallel attempts for one account', async () => {
    const app = createTestApp(database.handle, { config: testConfig({ TRUST_PROXY_HOPS: '1' }) });
    const user = await aUser().create(app.context.db);
    // The right password is among them; whichever 10 are evaluated, at most 10 get 401 or 200.
    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        app.call('POST', '/api/v1/auth/login', {
          body: { username: user.username, password: i === 75 ? user.password : `wrong-${i}` },
          headers: { 'x-forwarded-for': '203.0.113.150' },
        }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    const evaluated = statuses.filter((s) => s === 401 || s === 200).length;
    expect(evaluated).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBe(150 - evaluated);
  });

  it('should space out login attempts of an address past 20 failures instead of locking it', async () => {
    expect([0, 20, 21, 30, 31, 41, 51, 500].map(loginIpDelaySeconds)).toEqual([
      0, 0, 1, 1, 2, 4, 8, 60,
    ]);
    // Only Date is fake (timers, the database and password hashing run for real): "at once" holds
    // however slow a loaded machine hashes the 21 passwords, and the wait below costs nothing.
    jest.useFakeTimers({
      now: Date.now(),
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    const app = createTestApp(database.handle, { config: testConfig({ TRUST_PROXY_HOPS: '1' }) });
    const member = await aUser().create(app.context.db);
    const ip = '203.0.113.77';
    const attempt = (username: string, password: string, from = ip) =>
      app.call('POST', '/api/v1/auth/login', {
        body: { username, password },
        headers: { 'x-forwarded-for': from },
      });

    // 21 failures spread over unknown names, so the per-account lock (10) never trips.
    for (let i = 0; i < 21; i++) {
      expect((await attempt(`nobody-${i % 5}`, 'wrong-password')).status).toBe(401);
    }
    // Past 20 failures the address gets one attempt a second: the next one at once is refused
    // before any password is checked, even a correct one.
    const limited = await attempt(member.username, member.password);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(errorBodySchema.parse(await limited.json()).error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 1 },
    });
    const [untouched] = await app.context.db
      .select({ lastLoginAt: users.lastLoginAt })
      .from(users)
      .where(eq(users.id, member.id));
    expect(untouched?.lastLoginAt).toBeNull();
    // Another address is not slowed.
    expect((await attempt(member.username, member.password, '198.51.100.78')).status).toBe(200);

    // Slowed, not locked: after the wait a member behind the same address signs in, and that
    // success does not count as a failure of the address.
    jest.setSystemTime(Date.now() + 1000);
    expect((await attempt(member.username, member.password)).status).toBe(200);
    expect(await app.context.limiters.loginIp.failureCount(ip)).toBe(21);
  });
});
