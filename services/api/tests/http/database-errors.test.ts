import { errorBodySchema } from '@usher/contracts';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { Hono } from 'hono';
import type { DatabaseHandle } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import type { AppEnv } from '../../src/http/context.js';
import { handleError } from '../../src/http/errors.js';
import { createTestApp } from '../support/app.js';
import { ENGINE } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { proxiedDatabase, type ProxiedDatabase } from '../support/proxied-database.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { aUser } from '../support/users.js';

describe('database error logs (issue 16)', () => {
  it('should log a failed query without its SQL text, parameters or the driver detail', () => {
    const driver = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (username)=(alice-the-member) already exists.',
      constraint: 'users_username_lower_uq',
    });
    const err = new DrizzleQueryError(
      'insert into "redeem_codes" ("code") values ($1)',
      ['0123456789abcdef', 'alice-the-member'],
      driver,
    );
    const logs = memoryLogger();
    logs.logger.error({ err }, 'unhandled error');
    logs.logger.error({ err: new Error('wrapper', { cause: err }) }, 'nested');
    const text = logs.text();
    expect(text).not.toContain('0123456789abcdef');
    expect(text).not.toContain('alice-the-member');
    expect(text).not.toContain('insert into');
    // What the operator needs stays: the driver's message and SQLSTATE.
    expect(text).toContain('duplicate key value violates unique constraint');
    expect(text).toContain('23505');
    expect(text).toContain('Failed query (text and parameters withheld)');

    const echoing = Object.assign(
      new Error('invalid input syntax for type uuid: "alice-typed-this-id"'),
      { code: '22P02' },
    );
    const more = memoryLogger();
    more.logger.error({ err: new DrizzleQueryError('select 1', [], echoing) }, 'unhandled error');
    expect(more.text()).not.toContain('alice-typed-this-id');
    expect(more.text()).toContain('invalid input syntax for type uuid: \\"[value withheld]\\"');
  });

  it('should tell connection failures from refused statements', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new DrizzleQueryError('select 1', [], refused))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
    // SQL text that happens to contain the words does not count.
    expect(
      isDatabaseUnavailable(
        new DrizzleQueryError("select 'Connection terminated'", [], new Error('x')),
      ),
    ).toBe(false);
  });
});

describe('SQLSTATEs of a database that is gone or closed', () => {
  const pgError = (code: string, message: string) =>
    new DrizzleQueryError('select 1', [], Object.assign(new Error(message), { code }));

  it.each([
    ['55000', 'database "usher" is not currently accepting connections'],
    ['57P04', 'terminating connection due to database drop'],
    ['57P05', 'terminating connection due to idle-session timeout'],
    ['3D000', 'database "usher" does not exist'],
  ])('should answer %s with 503 DATABASE_UNAVAILABLE and Retry-After', async (code, message) => {
    const app = new Hono<AppEnv>();
    app.get('/x', () => {
      throw pgError(code, message);
    });
    app.onError(handleError);

    const res = await app.request('/x');

    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      'DATABASE_UNAVAILABLE',
    );
  });

  it('should keep a 55000 about the statement itself a 500 (a bug, not an outage)', () => {
    expect(
      isDatabaseUnavailable(pgError('55000', 'currval of sequence "s" is not yet defined')),
    ).toBe(false);
  });
});

/**
 * The outage is a TCP proxy in front of the real server (TEST_DATABASE_URL) or of PGlite served
 * over the wire protocol, cut and restored while the app keeps its pool.
 */
describe(`routes during a database outage (${ENGINE})`, () => {
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let database: ProxiedDatabase;

  beforeAll(async () => {
    database = await proxiedDatabase(2);
    ({ proxy, handle } = database);
  });
  afterAll(async () => {
    await database.close();
  });

  it('should answer 503 DATABASE_UNAVAILABLE with Retry-After, and recover without a restart', async () => {
    const t = createTestApp(handle);
    const member = await aUser().create(t.context.db);
    const token = (await t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 })).token;
    const login = () =>
      t.call('POST', '/api/v1/auth/login', {
        body: { username: member.username, password: member.password },
      });
    expect((await t.call('GET', '/api/v1/me', { token })).status).toBe(200);

    await proxy.down();
    for (const res of [await t.call('GET', '/api/v1/me', { token }), await login()]) {
      const body = errorBodySchema.parse(await res.json());
      expect([res.status, body.error.code]).toEqual([503, 'DATABASE_UNAVAILABLE']);
      expect(res.headers.get('retry-after')).toBe('5');
    }
    const lines = t.logs.lines();
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.filter((l) => l.msg === 'database unavailable').length).toBeGreaterThan(0);

    await proxy.up();
    expect((await t.call('GET', '/api/v1/me', { token })).status).toBe(200);
    expect((await login()).status).toBe(200);
  });
});
