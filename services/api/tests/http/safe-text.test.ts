import { errorBodySchema, isSafeJson, isSafeText } from '@usher/contracts';
import type { z } from 'zod';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

/** String formats whose own pattern admits ASCII only (no NUL, no surrogate). */
const ASCII_FORMATS = new Set(['email', 'uuid', 'guid', 'datetime', 'date', 'time', 'duration']);

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string; checks?: ZodInternals[] } };
}

const hasCheck = (schema: ZodInternals, fn: unknown) =>
  (schema._zod.def.checks ?? []).some((c) => c._zod.def.fn === fn);

/**
 * Paths (`body.notes`, `query.q`…) of every string leaf that does not run the shared safe-text
 * check, and of every free-form JSON leaf that no ancestor checks with `isSafeJson`.
 */
function unsafeLeaves(schema: ZodInternals, path: string, jsonChecked = false): string[] {
  const def = schema._zod.def;
  const json = jsonChecked || hasCheck(schema, isSafeJson);
  const inner = (key: string, p = path) => unsafeLeaves(def[key] as ZodInternals, p, json);
  switch (def.type) {
    case 'string':
      if (typeof def.format === 'string' && ASCII_FORMATS.has(def.format)) return [];
      return hasCheck(schema, isSafeText) ? [] : [path];
    case 'unknown':
    case 'any':
      return json ? [] : [path];
    case 'object':
      return Object.entries(def.shape as Record<string, ZodInternals>).flatMap(([k, v]) =>
        unsafeLeaves(v, `${path}.${k}`, json),
      );
    case 'array':
      return inner('element', `${path}[]`);
    case 'record':
      return [...inner('keyType', `${path}{key}`), ...inner('valueType', `${path}{}`)];
    case 'union':
      return (def.options as ZodInternals[]).flatMap((o) => unsafeLeaves(o, path, json));
    case 'intersection':
      return [...inner('left'), ...inner('right')];
    case 'tuple':
      return (def.items as ZodInternals[]).flatMap((o, i) =>
        unsafeLeaves(o, `${path}[${i}]`, json),
      );
    case 'pipe':
      return inner('in');
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner('innerType');
    case 'lazy':
      return unsafeLeaves((def.getter as () => ZodInternals)(), path, json);
    default:
      return [];
  }
}

const database: { current?: TestDatabase } = {};
let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  database.current = await createTestDatabase();
  t = createTestApp(database.current.handle);
  const admin = await aUser().admin().create(t.context.db);
  adminToken = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
});
afterAll(async () => {
  await database.current?.close();
});

describe('safe text (issue 16)', () => {
  it('should tell NUL and lone surrogates from ordinary and astral text', () => {
    expect(isSafeText('plain ü 漢字 😀')).toBe(true);
    expect(isSafeText('a\u0000b')).toBe(false);
    expect(isSafeText('a\uD800')).toBe(false);
    expect(isSafeText('\uDC00z')).toBe(false);
    expect(isSafeText('\uDBFF\uDFFF')).toBe(true);
    expect(isSafeJson({ a: ['x', { b: 'y\u0000' }] })).toBe(false);
    expect(isSafeJson({ ['k\u0000']: 1 })).toBe(false);
    expect(isSafeJson({ a: [1, true, null, 'ok'] })).toBe(true);
  });

  it('should check every string of every request schema with the shared safe string', () => {
    const unsafe = t.routes.flatMap((route) =>
      (['params', 'query', 'body'] as const).flatMap((part) => {
        const schema = route.request?.[part] as z.ZodType | undefined;
        if (!schema) return [];
        return unsafeLeaves(schema as unknown as ZodInternals, part).map(
          (leaf) => `${route.method} ${route.path} ${leaf}`,
        );
      }),
    );
    expect(unsafe).toEqual([]);
  });
});

describe(`NUL and surrogates over HTTP (${ENGINE})`, () => {
  const expect400 = async (res: Response) => {
    const body = errorBodySchema.parse(await res.json());
    expect([res.status, body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  };

  it('should refuse a NUL or a lone surrogate in the login body with 400, not 500', async () => {
    await expect400(
      await t.call('POST', '/api/v1/auth/login', { body: { username: 'a\u0000b', password: 'x' } }),
    );
    // JSON.stringify escapes a lone surrogate as \udXXX, which JSON.parse restores as is.
    await expect400(
      await t.call('POST', '/api/v1/auth/login', { body: { username: 'ab', password: 'x\uD800' } }),
    );
    expect(t.logs.lines().filter((l) => l.level === 'error')).toEqual([]);
  });

  it('should refuse a NUL in an admin search filter and in a setting value', async () => {
    await expect400(await t.call('GET', '/api/v1/admin/users?search=a%00b', { token: adminToken }));
    await expect400(
      await t.call('PUT', '/api/v1/admin/settings/general', {
        token: adminToken,
        body: { values: { SITE_NAME: 'Usher\u0000' } },
      }),
    );
    expect(t.logs.lines().filter((l) => l.level === 'error')).toEqual([]);
  });
});

describe(`body media type (${ENGINE})`, () => {
  it('should refuse a body that is not JSON with 415 and change nothing', async () => {
    const before = await t.call('GET', '/api/v1/me', { token: adminToken });
    const form = await t.app.request('/api/v1/me', {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${adminToken}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'locale=zh-CN',
    });
    const body = errorBodySchema.parse(await form.json());
    expect([form.status, body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const text = await t.app.request('/api/v1/me', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${adminToken}` },
      body: '{"locale":"zh-CN"}', // a string body travels as text/plain
    });
    expect(text.status).toBe(415);
    const after = await t.call('GET', '/api/v1/me', { token: adminToken });
    expect(await after.json()).toEqual(await before.json());
    // No body at all still means an empty object (logout without allDevices).
    const logout = await t.app.request('/api/v1/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(logout.status).toBe(204);
  });
});
