// The shared route core: what every handler receives (`meta`, and on user/admin routes `auth` and
// `actor`), the one error path for adapter failures, and transactions that join an open one.
import { errorBodySchema } from '@usher/contracts';
import { Hono } from 'hono';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import type { AppEnv } from '../../src/http/context.js';
import { handleError } from '../../src/http/errors.js';
import { IntegrationError, type IntegrationErrorKind } from '../../src/integrations/errors.js';
import { PolicyNotAppliedError } from '../../src/integrations/media-server/policy.js';
import { defineRoute, mountRoutes } from '../../src/http/route.js';
import { inTransaction, withTransaction } from '../../src/db/transaction.js';
import { createTestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

/** A bare app with the production error handler and request facts, for one throwing route. */
function appThrowing(make: () => unknown) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('requestId', 'req-1');
    c.set('logger', pino({ level: 'silent' }));
    c.set('clientIp', null);
    await next();
  });
  app.get('/boom', () => {
    throw make();
  });
  app.onError(handleError);
  return app;
}

describe('handleError maps adapter failures without a wrapper (20-api.md §1.5)', () => {
  const cases: [IntegrationErrorKind, number, string][] = [
    ['not_configured', 503, 'NOT_CONFIGURED'],
    ['auth', 502, 'UPSTREAM_AUTH_FAILED'],
    ['rejected', 422, 'UPSTREAM_REJECTED'],
    ['timeout', 502, 'UPSTREAM_UNAVAILABLE'],
    ['network', 502, 'UPSTREAM_UNAVAILABLE'],
    ['tls', 502, 'UPSTREAM_UNAVAILABLE'],
    ['http_5xx', 502, 'UPSTREAM_UNAVAILABLE'],
    ['http_4xx', 502, 'UPSTREAM_UNAVAILABLE'],
    ['invalid_response', 502, 'UPSTREAM_UNAVAILABLE'],
    ['not_found', 502, 'UPSTREAM_UNAVAILABLE'],
  ];
  it.each(cases)('should answer an unwrapped %s failure with %i %s', async (kind, status, code) => {
    const app = appThrowing(
      () => new IntegrationError('tmdb', 'search', kind, 'TMDB said no', 500, 'raw upstream'),
    );
    const res = await app.request('/boom');
    expect(res.status).toBe(status);
    expect(errorBodySchema.parse(await res.json())).toEqual({
      error: { code, message: 'TMDB said no', requestId: 'req-1', details: { system: 'tmdb' } },
    });
  });

  it('should answer a refused mail recipient as unavailable, not as a business refusal', async () => {
    const app = appThrowing(() => new IntegrationError('smtp', 'send', 'rejected', 'Refused'));
    const res = await app.request('/boom');
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      details: { system: 'smtp' },
    });
  });

  it('should keep the reason and fields of a policy the media server did not apply', async () => {
    const app = appThrowing(() => new PolicyNotAppliedError('Not applied', ['EnabledFolders']));
    const res = await app.request('/boom');
    expect(res.status).toBe(422);
    expect(errorBodySchema.parse(await res.json()).error.details).toEqual({
      system: 'media_server',
      reason: 'POLICY_NOT_APPLIED',
      fields: ['EnabledFolders'],
    });
  });

  it('should still hide anything else behind a generic 500', async () => {
    const app = appThrowing(() => new Error('secret internals'));
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const body = errorBodySchema.parse(await res.json());
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(body)).not.toContain('secret internals');
  });
});

describe(`route input and transactions (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('should hand handlers the request facts, and the caller with its audit actor', async () => {
    const t = createTestApp(database.handle);
    const seen: unknown[] = [];
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('requestId', 'req-in');
      c.set('logger', pino({ level: 'silent' }));
      c.set('clientIp', '203.0.113.9');
      await next();
    });
    mountRoutes(
      app,
      [
        defineRoute({
          method: 'get',
          path: '/open',
          auth: 'public',
          summary: 'test',
          tags: ['test'],
          responses: { 200: { description: 'ok' } },
          handler: (c, input) => {
            seen.push({ meta: input.meta, auth: input.auth, actor: input.actor });
            return c.json({});
          },
        }),
        defineRoute({
          method: 'get',
          path: '/mine',
          auth: 'user',
          summary: 'test',
          tags: ['test'],
          responses: { 200: { description: 'ok' } },
          handler: (c, { meta, auth, actor }) => {
            seen.push({ meta, userId: auth.userId, actor });
            return c.json({});
          },
        }),
      ],
      { db: database.handle.db, tokens: t.context.tokens, internalApiSecret: 'x'.repeat(64) },
    );
    app.onError(handleError);
    const member = await aUser().named('route_input_member').create(database.handle.db);
    const { token } = await t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 });

    expect((await app.request('/open')).status).toBe(200);
    const res = await app.request('/mine', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);

    expect(seen).toEqual([
      { meta: { ip: '203.0.113.9', requestId: 'req-in' }, auth: undefined, actor: undefined },
      {
        meta: { ip: '203.0.113.9', requestId: 'req-in' },
        userId: member.id,
        actor: { type: 'user', id: member.id, label: 'route_input_member' },
      },
    ]);
  });

  it('should join an open transaction, so an inner failure rolls back the outer work', async () => {
    const db = database.handle.db;
    await db.execute(sql`create table if not exists tx_probe (n int)`);
    await expect(
      withTransaction(db, async (outer) => {
        expect(inTransaction(outer)).toBe(true);
        await outer.execute(sql`insert into tx_probe values (1)`);
        await withTransaction(outer, async (inner) => {
          // The same handle: no second transaction, no savepoint.
          expect(inner).toBe(outer);
          await inner.execute(sql`insert into tx_probe values (2)`);
          throw new Error('inner step refused');
        });
      }),
    ).rejects.toThrow('inner step refused');
    const rows = await db.execute(sql`select count(*)::int as n from tx_probe`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    expect(inTransaction(db)).toBe(false);
  });

  it('should commit a new transaction when not inside one, taking a context too', async () => {
    const db = database.handle.db;
    await db.execute(sql`create table if not exists tx_probe2 (n int)`);
    await withTransaction({ db }, async (tx) => {
      await tx.execute(sql`insert into tx_probe2 values (7)`);
    });
    const rows = await db.execute(sql`select n from tx_probe2`);
    expect((rows as unknown as { rows: { n: number }[] }).rows).toEqual([{ n: 7 }]);
  });
});
