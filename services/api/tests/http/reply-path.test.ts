// How replies leave the process (issue 21): the headers every reply carries are set on the reply
// the handler built, so @hono/node-server writes it from its lightweight form (no WHATWG Response,
// no stream read), and the request's child logger is made only when something logs through it.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../../src/http/context.js';
import { handleError } from '../../src/http/errors.js';
import { API_CSP, REPLY_HEADERS } from '../../src/http/reply-headers.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';

/**
 * Whether @hono/node-server can write the reply without building a WHATWG Response: it checks for
 * its private `Symbol("cache")`, which is dropped the moment anything reads the reply's body.
 */
const isLightweight = (res: Response) =>
  Object.getOwnPropertySymbols(res).some((s) => s.description === 'cache');

/**
 * Whether the lightweight reply still holds its headers as the plain object the handler gave
 * (`[status, body, headers]` under that symbol): then @hono/node-server writes them as they are,
 * without building an undici Headers first.
 */
const hasPlainHeaders = (res: Response) => {
  const cache = Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  const headers = cache ? (res as unknown as Record<symbol, unknown[]>)[cache]![2] : undefined;
  return headers !== undefined && !(headers instanceof Headers) && !Array.isArray(headers);
};

describe(`replies over @hono/node-server (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let server: ServerType;
  let base: string;
  const replies: Response[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
    await new Promise<void>((ready) => {
      server = serve(
        {
          fetch: async (req, env) => {
            const res = await t.app.fetch(req, env);
            replies.push(res);
            return res;
          },
          port: 0,
          hostname: '127.0.0.1',
        },
        (info: AddressInfo) => {
          base = `http://127.0.0.1:${info.port}`;
          ready();
        },
      );
    });
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await database.close();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers });
    await res.arrayBuffer();
    return { res, reply: replies.at(-1)! };
  };

  it('should write a signed-in read, /health, a 404 and a refused token from the lightweight reply, with every header', async () => {
    const member = await aUser().create(t.context.db);
    const { token } = await t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 });
    const cases = [
      ['/api/v1/me', { authorization: `Bearer ${token}` }, 200],
      ['/health', {}, 200],
      ['/api/v1/nope', {}, 404],
      ['/api/v1/me', { authorization: 'Bearer a.b.c' }, 401],
    ] as const;
    for (const [path, headers, status] of cases) {
      const { res, reply } = await get(path, { ...headers, 'x-request-id': `rid-${status}` });
      expect([path, res.status, isLightweight(reply), hasPlainHeaders(reply)]).toEqual([
        path,
        status,
        true,
        true,
      ]);
      expect(res.headers.get('x-request-id')).toBe(`rid-${status}`);
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it("should send every header of hono's secureHeaders (with our two options) and the API CSP", async () => {
    const reference = new Hono();
    reference.use(
      secureHeaders({ crossOriginResourcePolicy: 'same-origin', referrerPolicy: 'no-referrer' }),
    );
    reference.get('/', (c) => c.json({}));
    const expected = [...(await reference.request('/')).headers]
      .filter(([name]) => name !== 'content-type')
      .concat([['content-security-policy', API_CSP]]);
    const { res } = await get('/health');
    const sent = Object.fromEntries(res.headers);
    for (const [name, value] of expected) expect([name, sent[name]]).toEqual([name, value]);
    expect(REPLY_HEADERS.map(([name]) => name.toLowerCase()).sort()).toEqual(
      expected.map(([name]) => name).sort(),
    );
  });

  it("should keep a page's own Content-Security-Policy", async () => {
    const { res, reply } = await get('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(isLightweight(reply)).toBe(true);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the request logger', () => {
  function app() {
    const logs = memoryLogger();
    const made: boolean[] = [];
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('requestId', 'req-7');
      c.set('appLogger', logs.logger);
      c.set('clientIp', null);
      await next();
      made.push(c.get('logger') !== undefined);
    });
    app.get('/ok', (c) => c.json({ ok: true }));
    app.get('/boom', () => {
      throw new Error('kaput');
    });
    app.onError(handleError);
    return { app, logs, made };
  }

  it('should not be made for a request that logs nothing', async () => {
    const { app: a, made } = app();
    expect((await a.request('/ok')).status).toBe(200);
    expect(made).toEqual([false]);
  });

  it("should carry the request id on a handler's error line", async () => {
    const { app: a, logs, made } = app();
    expect((await a.request('/boom')).status).toBe(500);
    expect(made).toEqual([true]);
    const line = logs.lines().find((l) => l.msg === 'unhandled error');
    expect(line).toMatchObject({ requestId: 'req-7', level: 'error' });
  });
});
