// Route matrix generated from the route table: every route × every kind of caller → the status
// its auth level promises. A route without a declared level fails the suite.
import { createHmac } from 'node:crypto';
import { AUTH_LEVELS } from '@usher/contracts';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { users } from '../src/db/schema/index.js';
import type { RouteDef } from '../src/http/route.js';
import { recordFigures } from './figures.js';
import {
  fillPath,
  isErrorShape,
  reliabilityEnv,
  secretFindings,
  type ReliabilityEnv,
} from './harness.js';

const AUTH_CODES = new Set([
  'UNAUTHENTICATED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'INTERNAL_AUTH_FAILED',
  'FORBIDDEN',
  'PASSWORD_CHANGE_REQUIRED',
]);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

interface Case {
  caller: string;
  headers: Record<string, string>;
  /** `allowed`: past the guard (any status but an auth refusal or a 500). */
  expect: { status: number; code: string | string[] } | 'allowed' | 'allowed-or-401' | 'refused';
}

let env: ReliabilityEnv;
afterAll(() => env.close());

describe('route matrix', () => {
  it('should answer every route × caller as its auth level says', async () => {
    env = await reliabilityEnv();
    const { t } = env;
    const routes = t.routes as RouteDef[];
    const undeclared = routes.filter((r) => !(AUTH_LEVELS as readonly string[]).includes(r.auth));
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);

    const member = await env.member();
    const admin = await env.admin();
    const revokedUser = await env.member();
    await t.context.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, revokedUser.id));
    const memberRow = (await t.context.db.select().from(users).where(eq(users.id, member.id)))[0]!;
    const expired = (
      await t.context.tokens.sign(
        { sub: member.id, role: 'user', ver: memberRow.tokenVersion },
        new Date(Date.now() - 8 * 86_400_000),
      )
    ).token;
    const [h, p, s] = member.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${b64({ ...claims, role: 'admin' })}.${s}`;
    const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, role: 'admin' })}.`;
    // Signed with the real key, but no exp.
    const { exp: _exp, ...noExpClaims } = claims;
    void _exp;
    const key = (t.context.tokens as unknown as { key: Uint8Array }).key;
    const noExpHead = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(noExpClaims)}`;
    const noExp = `${noExpHead}.${createHmac('sha256', key).update(noExpHead).digest('base64url')}`;
    const secret = t.config.INTERNAL_API_SECRET;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    const casesFor = (route: RouteDef): Case[] => {
      switch (route.auth) {
        case 'user':
        case 'admin': {
          const invalid = { status: 401, code: 'TOKEN_INVALID' };
          return [
            { caller: 'no token', headers: {}, expect: { status: 401, code: 'UNAUTHENTICATED' } },
            {
              caller: 'malformed',
              headers: { authorization: 'Bearer not.a-token' },
              expect: { status: 401, code: 'UNAUTHENTICATED' },
            },
            { caller: 'expired', headers: bearer(expired), expect: invalid },
            { caller: 'tampered', headers: bearer(tampered), expect: invalid },
            {
              // An unsigned token is malformed (no signature part) or invalid: 401 either way.
              caller: 'alg=none',
              headers: bearer(algNone),
              expect: { status: 401, code: ['UNAUTHENTICATED', 'TOKEN_INVALID'] },
            },
            { caller: 'no exp', headers: bearer(noExp), expect: invalid },
            {
              caller: 'revoked',
              headers: bearer(revokedUser.token),
              expect: { status: 401, code: 'TOKEN_REVOKED' },
            },
            {
              caller: 'internal secret only',
              headers: { 'x-internal-secret': secret },
              expect: { status: 401, code: 'UNAUTHENTICATED' },
            },
            {
              caller: 'member',
              headers: bearer(member.token),
              expect: route.auth === 'admin' ? { status: 403, code: 'FORBIDDEN' } : 'allowed',
            },
            { caller: 'admin', headers: bearer(admin.token), expect: 'allowed' },
          ];
        }
        case 'internal': {
          const failed = { status: 401, code: 'INTERNAL_AUTH_FAILED' };
          return [
            { caller: 'secret missing', headers: {}, expect: failed },
            {
              caller: 'secret wrong',
              headers: {
                'x-internal-secret': `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`,
              },
              expect: failed,
            },
            { caller: 'admin token', headers: bearer(admin.token), expect: failed },
            { caller: 'secret right', headers: { 'x-internal-secret': secret }, expect: 'allowed' },
          ];
        }
        case 'public':
          return [
            { caller: 'no token', headers: {}, expect: 'allowed' },
            // A public route may check an optional bearer itself (the poster proxy): a broken one
            // may be refused with 401, never with a 500.
            {
              caller: 'malformed',
              headers: { authorization: 'Bearer x' },
              expect: 'allowed-or-401',
            },
          ];
        case 'webhook':
          return [{ caller: 'no credential', headers: {}, expect: 'refused' }];
        default:
          throw new Error(`route ${route.method} ${route.path} has no known auth level`);
      }
    };

    const failures: string[] = [];
    let cases = 0;
    // Refusals first, then the callers that get through (whose effects must not revoke anyone).
    const all = routes.flatMap((route) => casesFor(route).map((c) => ({ route, c })));
    const ordered = [
      ...all.filter((x) => !String(x.c.expect).startsWith('allowed')),
      ...all.filter((x) => String(x.c.expect).startsWith('allowed')),
    ];
    for (const { route, c } of ordered) {
      cases++;
      const path = fillPath(route.path, () => uuidv7());
      const { res, text } = await env.send(route.method, path, { headers: c.headers });
      const label = `${route.method.toUpperCase()} ${route.path} [${c.caller}]`;
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      } catch {
        // A non-JSON reply (metrics, docs page): no code.
      }
      if (res.status >= 400 && !isErrorShape(res, text))
        failures.push(`${label}: not the error shape`);
      if (c.expect === 'allowed-or-401') {
        if (res.status === 500 || (code && AUTH_CODES.has(code) && res.status !== 401)) {
          failures.push(`${label}: ${res.status} ${code ?? ''}`);
        }
      } else if (c.expect === 'allowed') {
        if (res.status === 500 || (code && AUTH_CODES.has(code))) {
          failures.push(`${label}: ${res.status} ${code ?? ''}`);
        }
      } else if (c.expect === 'refused') {
        if (res.status < 400 || res.status === 500) failures.push(`${label}: ${res.status}`);
      } else if (res.status !== c.expect.status || ![c.expect.code].flat().includes(code ?? '')) {
        failures.push(
          `${label}: ${res.status} ${code ?? ''}, expected ${c.expect.status} ${c.expect.code}`,
        );
      }
    }
    const byLevel = Object.fromEntries(
      AUTH_LEVELS.map((level) => [level, routes.filter((r) => r.auth === level).length]),
    );
    recordFigures('route matrix', {
      routes: routes.length,
      routesByLevel: byLevel,
      cases,
      failures: failures.length,
    });
    expect(failures).toEqual([]);
    expect(secretFindings(env)).toEqual([]);
  });
});
