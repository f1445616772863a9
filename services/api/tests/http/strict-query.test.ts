import { errorBodySchema } from '@usher/contracts';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

/** 20-api.md §1: request schemas are strict, the query included, even where none is declared. */
describe(`query parameters on routes without a query schema (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let member: { id: string; token: string };
  let other: { id: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
    const row = await aUser().create(t.context.db);
    other = await aUser().create(t.context.db);
    member = {
      id: row.id,
      token: (await t.context.tokens.sign({ sub: row.id, role: 'user', ver: 0 })).token,
    };
  });
  afterAll(() => database.close());

  it('should refuse an unknown parameter with 400 and act on nobody', async () => {
    const res = await t.call('PUT', `/api/v1/calendar/follows/603?userId=${other.id}`, {
      token: member.token,
    });

    expect(res.status).toBe(400);
    expect(errorBodySchema.parse(await res.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: '', message: 'Unrecognized key: "userId"' }],
    });
    const follows = await t.call('GET', '/api/v1/calendar/follows', { token: member.token });
    expect(await follows.text()).not.toContain('603');
  });

  it('should refuse one on a read without a query schema too, and keep answering without', async () => {
    const withQuery = await t.call('GET', '/api/v1/me?debug=1', { token: member.token });
    const without = await t.call('GET', '/api/v1/me', { token: member.token });

    expect(withQuery.status).toBe(400);
    expect(without.status).toBe(200);
  });

  it('should document the webhook token as the one query parameter of the media-server webhook', async () => {
    const res = await t.call('POST', '/api/v1/webhooks/media-server?token=x&other=1', {
      body: {},
    });

    expect(res.status).toBe(400);
  });
});
