// `GET /api/v1/admin/redemptions` (20-api.md "Redeem codes"): paging, every filter, auth, 400s.
import { errorBodySchema, cappedPageOf, redemptionSchema } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { redemptions, type UserRow } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

const PATH = '/api/v1/admin/redemptions';
const DAY = 86_400_000;

describe(`GET /api/v1/admin/redemptions (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    // A zone far from UTC, so the day filters must use it (20-api.md §1.1).
    t = createTestApp(database.handle, { settingsEnv: { SCHEDULE_TIMEZONE: 'Asia/Shanghai' } });
    const admin = await aUser().admin().create(t.context.db);
    adminToken = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  });
  afterAll(async () => {
    await database.close();
  });

  let codeSerial = 0;
  /** A unique 16-hex code per call. */
  const nextCode = () => `00C0DE${(++codeSerial).toString(16).toUpperCase().padStart(10, '0')}`;
  /** Inserts one redemption of `user` at `at`. */
  const aRedemption = async (
    user: Pick<UserRow, 'id'>,
    at: string,
    fields: { kind?: 'register' | 'renew'; days?: number; code?: string } = {},
  ) => {
    const createdAt = new Date(at);
    const days = fields.days ?? 30;
    const row = {
      id: uuidv7(),
      userId: user.id,
      code: fields.code ?? nextCode(),
      kind: fields.kind ?? 'renew',
      days,
      previousExpiresAt: fields.kind === 'register' ? null : createdAt,
      newExpiresAt: new Date(createdAt.getTime() + days * DAY),
      createdAt,
    };
    await t.context.db.insert(redemptions).values(row);
    return row;
  };
  const list = async (query: string) => {
    const res = await t.call('GET', `${PATH}?${query}`, { token: adminToken });
    expect([query, res.status]).toEqual([query, 200]);
    return cappedPageOf(redemptionSchema)
      .strict()
      .parse(await res.json());
  };

  it('should page every redemption newest first with the Redemption fields', async () => {
    const member = await aUser().create(t.context.db);
    const stamps = [1, 2, 3, 4, 5].map((d) => `2026-02-0${d}T08:00:00.000Z`);
    const rows = [];
    for (const at of stamps) rows.push(await aRedemption(member, at, { days: 7 }));
    const newestFirst = [...rows].reverse();

    const first = await list(`userId=${member.id}&pageSize=2`);
    expect(first).toMatchObject({ total: 5, totalCapped: false, page: 1, pageSize: 2 });
    expect(first.data.map((r) => r.id)).toEqual(newestFirst.slice(0, 2).map((r) => r.id));
    expect(first.data[0]).toEqual({
      id: rows[4]!.id,
      code: rows[4]!.code,
      kind: 'renew',
      days: 7,
      previousExpiresAt: '2026-02-05T08:00:00.000Z',
      newExpiresAt: '2026-02-12T08:00:00.000Z',
      createdAt: '2026-02-05T08:00:00.000Z',
      user: { id: member.id, username: member.username },
    });
    const last = await list(`userId=${member.id}&pageSize=2&page=3`);
    expect(last).toMatchObject({ total: 5, page: 3, pageSize: 2 });
    expect(last.data.map((r) => r.id)).toEqual([rows[0]!.id]);
    const beyond = await list(`userId=${member.id}&pageSize=2&page=4`);
    expect(beyond).toMatchObject({ data: [], total: 5, page: 4 });

    // Without filters the defaults apply and other members' rows are included.
    const other = await aUser().create(t.context.db);
    const theirs = await aRedemption(other, '2026-02-06T08:00:00.000Z');
    const all = await list('');
    expect(all).toMatchObject({ page: 1, pageSize: 20 });
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.data.map((r) => r.id)).toEqual(expect.arrayContaining([theirs.id, rows[0]!.id]));
  });

  it('should filter by user id, username (exact, any case), code (any case) and kind', async () => {
    const alice = await aUser().named('rx_alice').create(t.context.db);
    // `_` is a LIKE wildcard: a username filter must not match this one.
    const lookalike = await aUser().named('rxzalice').create(t.context.db);
    const shared = nextCode();
    const aliceRenew = await aRedemption(alice, '2026-03-01T08:00:00.000Z', { code: shared });
    const aliceRegister = await aRedemption(alice, '2026-02-01T08:00:00.000Z', {
      kind: 'register',
    });
    const otherRenew = await aRedemption(lookalike, '2026-03-02T08:00:00.000Z', { code: shared });

    const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);
    expect(ids(await list(`userId=${alice.id}`))).toEqual([aliceRenew.id, aliceRegister.id]);
    expect(ids(await list('username=RX_Alice'))).toEqual([aliceRenew.id, aliceRegister.id]);
    expect(ids(await list('username=rx_'))).toEqual([]);
    expect(ids(await list(`code=${shared.toLowerCase()}`))).toEqual([otherRenew.id, aliceRenew.id]);
    const registered = await list(`kind=register&userId=${alice.id}`);
    expect(registered).toMatchObject({
      total: 1,
      data: [{ id: aliceRegister.id, kind: 'register' }],
    });
    expect(registered.data[0]!.previousExpiresAt).toBeNull();
    expect(ids(await list(`kind=renew&username=rx_alice`))).toEqual([aliceRenew.id]);
    expect(ids(await list(`code=${shared}&userId=${lookalike.id}`))).toEqual([otherRenew.id]);
    expect((await list(`userId=${uuidv7()}`)).total).toBe(0);
  });

  it('should filter by inclusive days in the business timezone', async () => {
    const member = await aUser().create(t.context.db);
    const at = async (iso: string) => (await aRedemption(member, iso)).id;
    const apr30Late = await at('2026-04-30T15:59:59.000Z'); // 23:59:59 on Apr 30 in Shanghai
    const may1Start = await at('2026-04-30T16:00:00.000Z'); // 00:00 on May 1 in Shanghai
    const may1End = await at('2026-05-01T15:59:59.000Z'); // 23:59:59 on May 1 in Shanghai
    const may2Start = await at('2026-05-01T16:00:00.000Z'); // 00:00 on May 2 in Shanghai

    const ids = async (q: string) => (await list(`userId=${member.id}&${q}`)).data.map((r) => r.id);
    expect(await ids('from=2026-05-01&to=2026-05-01')).toEqual([may1End, may1Start]);
    expect(await ids('from=2026-05-01')).toEqual([may2Start, may1End, may1Start]);
    expect(await ids('to=2026-04-30')).toEqual([apr30Late]);
    expect(await ids('from=2026-05-03')).toEqual([]);
  });

  it('should answer 401 without a valid token and 403 to members', async () => {
    const none = await t.call('GET', PATH);
    expect(none.status).toBe(401);
    expect(errorBodySchema.parse(await none.json()).error.code).toBe('UNAUTHENTICATED');
    const bad = await t.call('GET', PATH, { token: 'not.a.jwt' });
    expect(bad.status).toBe(401);
    expect(errorBodySchema.parse(await bad.json()).error.code).toBe('TOKEN_INVALID');

    const member = await aUser().create(t.context.db);
    const token = (await t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 })).token;
    const forbidden = await t.call('GET', PATH, { token });
    expect(forbidden.status).toBe(403);
    expect(errorBodySchema.parse(await forbidden.json()).error.code).toBe('FORBIDDEN');
  });

  it('should answer 400 VALIDATION_FAILED naming the field for a bad query', async () => {
    for (const [query, field] of [
      ['pageSize=101', 'pageSize'],
      ['pageSize=0', 'pageSize'],
      ['page=0', 'page'],
      ['kind=gift', 'kind'],
      ['userId=nope', 'userId'],
      ['from=2026-13-01', 'from'],
      ['to=yesterday', 'to'],
      [`username=${'x'.repeat(33)}`, 'username'],
      [`code=${'A'.repeat(17)}`, 'code'],
      ['status=active', ''],
    ] as const) {
      const res = await t.call('GET', `${PATH}?${query}`, { token: adminToken });
      expect([query, res.status]).toEqual([query, 400]);
      const { error } = errorBodySchema.parse(await res.json());
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toBe('The request is not valid');
      if (field) {
        expect((error.details as { path: string }[]).map((d) => d.path)).toContain(field);
      }
    }
  });
});
