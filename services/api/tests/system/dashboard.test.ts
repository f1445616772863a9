// `GET /admin/dashboard` (issue 36): membership figures and revenue by month in the business zone.
// Asia/Shanghai is 8 hours ahead, so "now" (30 November, 20:00 UTC) is already 1 December there:
// every month boundary below is only right if it is drawn in the business zone.
import { adminDashboardSchema, errorBodySchema } from '@usher/contracts';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { plans, payments, redeemCodes, redemptions } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

const NOW = new Date('2026-11-30T20:00:00.000Z');
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

describe(`GET /admin/dashboard (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  let userToken: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle, {
      now: () => NOW,
      settingsEnv: { SCHEDULE_TIMEZONE: 'Asia/Shanghai' },
    });
    const db = t.context.db;
    const admin = await aUser().admin().create(db);
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    // Joined 5 days ago, ends in 10: active, new and expiring.
    const fresh = await aUser().expiresAt(at(10)).create(db);
    await db.execute(
      sql`update users set created_at = ${at(-5).toISOString()} where id = ${fresh.id}`,
    );
    // Joined long ago: active for 60 more days.
    const steady = await aUser().expiresAt(at(60)).create(db);
    // Ended 3 days ago (lapsed), and 90 days ago (expired only); one that never ends.
    await aUser().expiresAt(at(-3)).create(db);
    await aUser().expiresAt(at(-90)).create(db);
    await aUser().neverExpires().create(db);
    await db.execute(sql`update users set created_at = ${at(-60).toISOString()}
      where id <> ${fresh.id} and role = 'user'`);
    userToken = (await t.context.tokens.sign({ sub: steady.id, role: 'user', ver: 0 })).token;

    const [plan] = await db
      .insert(plans)
      .values({ id: uuidv7(), name: 'Monthly', days: 30, price: 499, currency: 'usd' })
      .returning();
    const pay = (
      amount: number,
      completedAt: Date | null,
      currency = 'usd',
      status = 'completed',
    ) =>
      db.insert(payments).values({
        id: uuidv7(),
        userId: steady.id,
        planId: plan!.id,
        username: steady.username,
        planName: 'Monthly',
        amount,
        currency,
        days: 30,
        status,
        expiresAt: NOW,
        completedAt,
        createdAt: completedAt ?? NOW,
      });
    // 1 December 01:00 in Shanghai: this month.
    await pay(499, new Date('2026-11-30T17:00:00.000Z'));
    await pay(1000, new Date('2026-11-30T19:00:00.000Z'), 'eur');
    // 30 November 23:00 in Shanghai: last month, after this month's 4 hours.
    await pay(700, new Date('2026-11-30T15:00:00.000Z'));
    // 1 November 02:00 in Shanghai: last month, within its first 4 hours.
    await pay(300, new Date('2026-10-31T18:00:00.000Z'));
    // 31 October 23:00 in Shanghai: the month before; and payments not completed.
    await pay(5000, new Date('2026-10-31T15:00:00.000Z'));
    await pay(499, null, 'usd', 'pending');
    await pay(499, null, 'usd', 'failed');
    const [code] = await db
      .insert(redeemCodes)
      .values({ id: uuidv7(), code: 'ABCDEF0123456789', days: 7 })
      .returning();
    await db.insert(redemptions).values({
      id: uuidv7(),
      userId: steady.id,
      codeId: code!.id,
      code: code!.code,
      kind: 'renew',
      days: 7,
      newExpiresAt: at(67),
      createdAt: at(-2),
    });
  });
  afterAll(async () => {
    await database.close();
  });

  it('should count members joining, expiring, lapsed and renewing, and revenue by zoned month', async () => {
    const res = await t.call('GET', '/api/v1/admin/dashboard', { token });
    expect(res.status).toBe(200);
    const d = adminDashboardSchema.parse(await res.json());
    expect(d.generatedAt).toBe(NOW.toISOString());
    expect(d.timeZone).toBe('Asia/Shanghai');
    expect(d.members).toEqual({
      active: 2,
      expired: 2,
      joined30d: 1,
      expiring30d: 1,
      lapsed30d: 1,
      // Three payments completed in the last 30 days and one redemption.
      renewals30d: 4,
    });
    expect(d.revenue.thisMonth).toBe('2026-12-01');
    expect(d.revenue.lastMonth).toBe('2026-11-01');
    expect(d.revenue.currencies).toEqual([
      {
        currency: 'eur',
        thisMonth: 1000,
        thisMonthCount: 1,
        lastMonthToDate: 0,
        lastMonth: 0,
        lastMonthCount: 0,
      },
      {
        currency: 'usd',
        thisMonth: 499,
        thisMonthCount: 1,
        lastMonthToDate: 300,
        lastMonth: 1000,
        lastMonthCount: 2,
      },
    ]);
  });

  it('should refuse a member (403) and an anonymous caller (401)', async () => {
    const member = await t.call('GET', '/api/v1/admin/dashboard', { token: userToken });
    expect(member.status).toBe(403);
    expect(errorBodySchema.parse(await member.json()).error.code).toBe('FORBIDDEN');
    const anonymous = await t.call('GET', '/api/v1/admin/dashboard');
    expect(anonymous.status).toBe(401);
  });
});
