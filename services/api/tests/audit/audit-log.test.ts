import { auditEntrySchema, cappedPageOf } from '@usher/contracts';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditLog } from '../../src/db/schema/index.js';
import { nextDay, startOfZonedDay } from '../../src/time/zoned-day.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

describe('startOfZonedDay', () => {
  it('should give the UTC instant a calendar day starts in the zone, across DST', () => {
    expect(startOfZonedDay('2026-05-01', 'UTC').toISOString()).toBe('2026-05-01T00:00:00.000Z');
    expect(startOfZonedDay('2026-05-01', 'Asia/Shanghai').toISOString()).toBe(
      '2026-04-30T16:00:00.000Z',
    );
    // New York switches to daylight time on 2026-03-08 at 02:00 local.
    expect(startOfZonedDay('2026-03-08', 'America/New_York').toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
    expect(startOfZonedDay('2026-03-09', 'America/New_York').toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});

describe(`GET /api/v1/admin/audit-log (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  let adminId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle, { settingsEnv: { SCHEDULE_TIMEZONE: 'Asia/Shanghai' } });
    const admin = await aUser().admin().create(t.context.db);
    adminId = admin.id;
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    const row = (action: string, at: string, actorId: string | null = null) => ({
      id: uuidv7(),
      at: new Date(at),
      actorType: actorId ? 'admin' : 'system',
      actorId,
      actorLabel: actorId ? 'boss' : 'job:x',
      action,
      targetType: 'user',
      targetId: 'u1',
    });
    await t.context.db.insert(auditLog).values([
      row('user.extend', '2026-04-30T15:59:59.000Z', adminId), // 23:59:59 on Apr 30 in Shanghai
      row('user.delete', '2026-04-30T16:00:00.000Z', adminId), // 00:00 on May 1 in Shanghai
      row('username_x.odd', '2026-05-01T15:59:00.000Z'), // still May 1 in Shanghai
      row('redeem.use', '2026-05-01T16:00:00.000Z'), // May 2 in Shanghai
    ]);
  });
  afterAll(async () => {
    await database.close();
  });

  const list = async (query: string) => {
    const res = await t.call('GET', `/api/v1/admin/audit-log?${query}`, { token });
    expect(res.status).toBe(200);
    return cappedPageOf(auditEntrySchema)
      .strict()
      .parse(await res.json());
  };

  it('should filter by action prefix (literal), actor and inclusive business-timezone days', async () => {
    expect((await list('action=user.')).data.map((e) => e.action)).toEqual([
      'user.delete',
      'user.extend',
    ]);
    // `_` is a LIKE wildcard; it must match only itself.
    expect((await list('action=user_')).data).toEqual([]);
    expect((await list(`actorId=${adminId}`)).total).toBe(2);
    const may1 = await list('from=2026-05-01&to=2026-05-01');
    expect(may1.data.map((e) => e.action)).toEqual(['username_x.odd', 'user.delete']);
    const page = await list('pageSize=1&page=2&targetType=user');
    expect(page).toMatchObject({ total: 4, page: 2, pageSize: 1, totalCapped: false });
    expect(page.data[0]!.action).toBe('username_x.odd');
  });

  it('should answer 400 for malformed filters', async () => {
    for (const q of ['from=2026-13-01', 'actorId=nope', 'pageSize=0', 'unknown=1']) {
      const res = await t.call('GET', `/api/v1/admin/audit-log?${q}`, { token });
      expect([q, res.status]).toEqual([q, 400]);
    }
  });

  it('should count at most 10 000 matching entries and say the count stopped there', async () => {
    // 10 001 more entries of one action, written by the database in one statement.
    await t.context.db.execute(sql`
      insert into audit_log (id, at, actor_type, actor_label, action, target_type, target_id)
      select gen_random_uuid(), timestamptz '2026-06-01 00:00:00+00' + k * interval '1 second',
             'system', 'job:bulk', 'bulk.entry', 'user', 'u' || k
      from generate_series(1, 10001) k`);
    const all = await list('pageSize=5');
    expect(all).toMatchObject({ total: 10_000, totalCapped: true, page: 1, pageSize: 5 });
    expect(all.data.map((e) => e.targetId)).toEqual([
      'u10001',
      'u10000',
      'u9999',
      'u9998',
      'u9997',
    ]);
    // A filter that matches fewer is counted exactly; the deepest pages still answer.
    expect(await list('action=user.')).toMatchObject({ total: 2, totalCapped: false });
    const deep = await list('action=bulk.&pageSize=100&page=101');
    expect(deep).toMatchObject({ total: 10_000, totalCapped: true });
    expect(deep.data.map((e) => e.targetId)).toEqual(['u1']);
  });
});
