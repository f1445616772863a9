import { errorBodySchema, healthOkSchema } from '@usher/contracts';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';
import { SETTING_DEFINITIONS } from '../../src/settings-store/definitions.js';

describe(`HTTP core (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
  });
  afterAll(async () => {
    await database.close();
  });

  it('should echo a safe X-Request-Id, replace an unsafe one, and generate one when absent', async () => {
    const kept = await t.call('GET', '/health', { headers: { 'x-request-id': 'abc-123.X:y_z' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123.X:y_z');
    const unsafe = await t.call('GET', '/health', {
      headers: { 'x-request-id': 'bad id with "quotes" & spaces' },
    });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await t.call('GET', '/health', { headers: { 'x-request-id': 'a'.repeat(65) } });
    expect(tooLong.headers.get('x-request-id')).not.toBe('a'.repeat(65));
    const none = await t.call('GET', '/health');
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should answer unknown routes with the shared 404 body carrying the request id', async () => {
    const res = await t.call('GET', '/api/v1/nope', { headers: { 'x-request-id': 'req-404' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No such route', requestId: 'req-404' },
    });
  });

  it('should report health with version and uptime', async () => {
    const res = await t.call('GET', '/health');
    expect(res.status).toBe(200);
    expect(healthOkSchema.parse(await res.json())).toMatchObject({ version: '9.9.9-test' });
  });

  it('should answer 413 PAYLOAD_TOO_LARGE above 64 KiB of JSON and change nothing', async () => {
    const res = await t.call('POST', '/api/v1/auth/login', {
      body: { username: 'x', password: 'y'.repeat(70 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(errorBodySchema.parse(await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('should log one JSON line per request with route template, status and duration', async () => {
    const before = t.logs.lines().length;
    await t.call('GET', '/api/v1/me', { headers: { 'x-request-id': 'log-check' } });
    const lines = t.logs
      .lines()
      .slice(before)
      .filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: 'log-check',
      method: 'GET',
      route: '/api/v1/me',
      status: 401,
    });
    expect(typeof lines[0]!.durationMs).toBe('number');
  });

  it('should never log passwords or tokens', async () => {
    const user = await aUser().create(t.context.db);
    const res = await t.call('POST', '/api/v1/auth/login', {
      body: { username: user.username, password: user.password },
    });
    const { token } = (await res.json()) as { token: string };
    await t.call('GET', '/api/v1/me', { token });
    await t.call('POST', '/api/v1/auth/login', {
      body: { username: user.username, password: 'wrong-secret-value' },
    });
    const text = t.logs.text();
    expect(text).not.toContain(user.password);
    expect(text).not.toContain('wrong-secret-value');
    expect(text).not.toContain(token);
    expect(text).not.toContain(t.config.JWT_SECRET);
  });

  it('should label HTTP metrics with the route template, never the raw path', async () => {
    await t.call('GET', '/api/v1/admin/openapi.json');
    await t.call('GET', '/api/v1/some/raw/path-123');
    const res = await t.call('GET', '/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(
      'usher_http_request_duration_seconds_count{method="GET",route="/api/v1/admin/openapi.json",status="401"} 1',
    );
    expect(text).toContain('route="(unmatched)",status="404"');
    expect(text).not.toContain('path-123');
  });

  it('should send the secure headers', async () => {
    const res = await t.call('GET', '/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});

describe(`OpenAPI document (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
  });
  afterAll(async () => {
    await database.close();
  });

  it('should describe every route with its auth level from the same zod schemas', async () => {
    const res = await t.call('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { 'x-usher-auth': string; security: unknown[] }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of t.routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect([route.path, doc.paths[path]?.[route.method]?.['x-usher-auth']]).toEqual([
        route.path,
        route.auth,
      ]);
    }
    expect(doc.paths['/api/v1/me']!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['User', 'AdminUser', 'ErrorBody']),
    );
    expect(Object.keys(doc.components.schemas.User!.properties!)).toEqual(
      expect.arrayContaining(['id', 'username', 'mustChangePassword', 'media', 'messenger']),
    );
    const login = (
      doc.paths['/api/v1/auth/login']!.post as unknown as {
        requestBody: {
          content: {
            'application/json': { schema: { additionalProperties: boolean; required: string[] } };
          };
        };
      }
    ).requestBody.content['application/json'].schema;
    expect(login.required).toEqual(['username', 'password']);
    expect(login.additionalProperties).toBe(false);
  });

  it('should document every settings key from the registry in the settings update body', async () => {
    const res = await t.call('GET', '/api/v1/openapi.json');
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, unknown> } }>>;
    };
    const body = doc.paths['/api/v1/admin/settings/{group}']!.put!.requestBody.content[
      'application/json'
    ] as {
      schema: { properties: { values: { properties: Record<string, Record<string, unknown>> } } };
    };
    const keys = body.schema.properties.values.properties;
    expect(Object.keys(keys).sort()).toEqual(SETTING_DEFINITIONS.map((d) => d.key).sort());
    for (const def of SETTING_DEFINITIONS) {
      const entry = keys[def.key]!;
      expect([def.key, entry['x-usher-group'], entry['x-usher-sensitive']]).toEqual([
        def.key,
        def.group,
        def.sensitive === true,
      ]);
      // A secret's default never appears; a plain key documents its default.
      expect([def.key, 'default' in entry]).toEqual([def.key, def.sensitive !== true]);
    }
    const integer = SETTING_DEFINITIONS.find((d) => d.type === 'integer' && d.max !== undefined)!;
    expect(keys[integer.key]!.anyOf).toEqual([
      expect.objectContaining({ type: 'integer', maximum: integer.max }),
      { type: 'null' },
    ]);
    const enumDef = SETTING_DEFINITIONS.find((d) => d.type === 'enum')!;
    expect(keys[enumDef.key]!.anyOf).toEqual([
      { type: 'string', enum: [...enumDef.options!] },
      { type: 'null' },
    ]);
  });

  it('should serve a readable docs page listing the routes', async () => {
    const res = await t.call('GET', '/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<code>/api/v1/auth/login</code>');
    expect(html).toContain('auth: <b>admin</b>');
  });
});
