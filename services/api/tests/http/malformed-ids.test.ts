import { errorBodySchema } from '@usher/contracts';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

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

describe(`malformed path ids (${ENGINE})`, () => {
  it('should never answer 500 to a path id that is not a uuid (20-api.md §1.1: not found)', async () => {
    const routes = t.routes.filter((r) => r.path.includes('/:') && r.auth === 'admin');
    expect(routes.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of routes) {
      for (const id of ['x'.repeat(300), 'not-a-uuid', '12345']) {
        const path = route.path.replace(/:([A-Za-z0-9_]+)/g, id);
        const res = await t.call(route.method, path, {
          token: adminToken,
          ...(route.method === 'get' || route.method === 'delete' ? {} : { body: {} }),
        });
        if (res.status === 500)
          failures.push(`${route.method} ${route.path} ${id.slice(0, 12)}: ${res.status}`);
        else if (res.status >= 400) errorBodySchema.parse(await res.json());
      }
    }
    expect(failures).toEqual([]);
  });
});
