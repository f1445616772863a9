import { AUTH_LEVELS, errorBodySchema } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { TokenSigner } from '../../src/security/tokens.js';
import type { RouteDef } from '../../src/http/route.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

/** Fills path parameters with a well-formed id so the request reaches the guard. */
const concrete = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, () => uuidv7());

const database: { current?: TestDatabase } = {};
let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  database.current = await createTestDatabase();
  t = createTestApp(database.current.handle);
  const sign = async (u: { id: string; role: string; tokenVersion: number }, now?: Date) =>
    (await t.context.tokens.sign({ sub: u.id, role: u.role as 'user', ver: u.tokenVersion }, now))
      .token;
  const member = await aUser().create(t.context.db);
  const admin = await aUser().admin().create(t.context.db);
  const memberMustChange = await aUser().mustChangePassword().create(t.context.db);
  const adminMustChange = await aUser().admin().mustChangePassword().create(t.context.db);
  tokens.member = await sign(member);
  tokens.admin = await sign(admin);
  tokens.memberMustChange = await sign(memberMustChange);
  tokens.adminMustChange = await sign(adminMustChange);
  tokens.expired = await sign(member, new Date(Date.now() - 8 * 24 * 3600 * 1000));
  tokens.foreign = (
    await new TokenSigner('f'.repeat(16) + 'another-root-secret-0123456789abcdef').sign({
      sub: member.id,
      role: 'user',
      ver: 0,
    })
  ).token;
});
afterAll(async () => {
  await database.current?.close();
});

const codeOf = async (res: Response) => errorBodySchema.parse(await res.json()).error.code;

describe(`route table (${ENGINE})`, () => {
  it('should declare a known auth level on every route', () => {
    const undeclared = t.routes.filter(
      (r) => !(AUTH_LEVELS as readonly string[]).includes((r as RouteDef).auth),
    );
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(t.routes.length).toBeGreaterThan(5);
  });

  it('should register nothing on the router that bypasses the route table', () => {
    const declared = new Set(t.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    const mounted = t.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`);
    expect(mounted.filter((r) => !declared.has(r))).toEqual([]);
    expect(new Set(mounted).size).toBe(declared.size);
  });
});

describe(`security matrix (${ENGINE})`, () => {
  it('should answer 401 UNAUTHENTICATED / TOKEN_INVALID on every user and admin route', async () => {
    const routes = t.routes.filter((r) => r.auth === 'user' || r.auth === 'admin');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const path = concrete(route.path);
      const label = `${route.method} ${route.path}`;
      const none = await t.call(route.method, path);
      expect([label, none.status, await codeOf(none)]).toEqual([label, 401, 'UNAUTHENTICATED']);
      const malformed = await t.call(route.method, path, {
        headers: { authorization: 'Bearer x' },
      });
      expect([label, await codeOf(malformed)]).toEqual([label, 'UNAUTHENTICATED']);
      for (const bad of ['expired', 'foreign']) {
        const res = await t.call(route.method, path, { token: tokens[bad] });
        expect([label, bad, res.status, await codeOf(res)]).toEqual([
          label,
          bad,
          401,
          'TOKEN_INVALID',
        ]);
      }
    }
  });

  it('should answer 403 FORBIDDEN to members on every admin route', async () => {
    const routes = t.routes.filter((r) => r.auth === 'admin');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const res = await t.call(route.method, concrete(route.path), { token: tokens.member });
      const label = `${route.method} ${route.path}`;
      expect([label, res.status, await codeOf(res)]).toEqual([label, 403, 'FORBIDDEN']);
    }
  });

  it('should answer 403 PASSWORD_CHANGE_REQUIRED everywhere but the three allowed routes', async () => {
    const allowed = new Set([
      'get /api/v1/me',
      'put /api/v1/me/password',
      'post /api/v1/auth/logout',
    ]);
    for (const route of t.routes.filter((r) => r.auth === 'user' || r.auth === 'admin')) {
      const label = `${route.method} ${route.path}`;
      const token = route.auth === 'admin' ? tokens.adminMustChange : tokens.memberMustChange;
      const res = await t.call(route.method, concrete(route.path), { token });
      const code = res.status === 403 ? await codeOf(res) : null;
      if (allowed.has(label)) {
        expect([label, code]).toEqual([label, null]);
      } else {
        expect([label, res.status, code]).toEqual([label, 403, 'PASSWORD_CHANGE_REQUIRED']);
      }
    }
    const declared = t.routes
      .filter((r) => r.allowDuringPasswordChange)
      .map((r) => `${r.method} ${r.path}`);
    expect(declared.sort()).toEqual([...allowed].sort());
  });

  it('should answer 401 INTERNAL_AUTH_FAILED on every internal route without the right secret', async () => {
    const routes = t.routes.filter((r) => r.auth === 'internal');
    expect(routes.length).toBeGreaterThan(0);
    // The right secret with its last character changed (a random secret ending in "0" made
    // "…0" the right one: one CI run in sixteen).
    const secret = t.config.INTERNAL_API_SECRET;
    const wrongSecret = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
    expect(wrongSecret).not.toBe(secret);
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const path = concrete(route.path);
      const missing = await t.call(route.method, path);
      expect([label, missing.status, await codeOf(missing)]).toEqual([
        label,
        401,
        'INTERNAL_AUTH_FAILED',
      ]);
      const wrong = await t.call(route.method, path, {
        headers: { 'x-internal-secret': wrongSecret },
      });
      expect([label, wrong.status, await codeOf(wrong)]).toEqual([
        label,
        401,
        'INTERNAL_AUTH_FAILED',
      ]);
      const member = await t.call(route.method, path, { token: tokens.admin });
      expect([label, member.status]).toEqual([label, 401]);
    }
    const ok = await t.call('GET', '/api/v1/internal/ping', {
      headers: { 'x-internal-secret': t.config.INTERNAL_API_SECRET },
    });
    expect(ok.status).toBe(200);
  });
});
