import {
  errorBodySchema,
  pageOf,
  redeemCodeSchema,
  redeemPreviewSchema,
  redeemResponseSchema,
  redemptionSchema,
  validateInviteCodeResponseSchema,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { auditLog, mediaServerRetryQueue, redeemCodes, users } from '../../src/db/schema/index.js';
import type { MediaAccessWriter } from '../../src/modules/membership/access-sync.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

const DAY = 86_400_000;

describe(`redeem codes (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let adminToken: string;
  const writes: [string, boolean][] = [];
  let failWrites = false;
  const writer: MediaAccessWriter = {
    setDisabled: async (id, disabled) => {
      if (failWrites) throw new Error('media server down');
      writes.push([id, disabled]);
    },
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle, { mediaAccess: async () => writer });
    const admin = await aUser().admin().named('codes_admin').create(t.context.db);
    adminToken = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  });
  afterAll(async () => {
    await database.close();
  });

  const tokenFor = async (u: { id: string; role: string }) =>
    (await t.context.tokens.sign({ sub: u.id, role: u.role as 'user', ver: 0 })).token;
  const newCode = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/v1/admin/redeem-codes', { token: adminToken, body });
    expect(res.status).toBe(201);
    return redeemCodeSchema.parse(await res.json());
  };
  const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

  it('should create, batch, list by status and search, update and delete codes, audited', async () => {
    const one = await newCode({ days: 30, notes: 'for alice' });
    expect(one).toMatchObject({ days: 30, maxUses: 1, usedCount: 0, status: 'active' });
    expect(one.code).toMatch(/^[0-9A-F]{16}$/);
    expect(one.createdBy).toMatchObject({ username: 'codes_admin' });

    const batch = await t.call('POST', '/api/v1/admin/redeem-codes/batch', {
      token: adminToken,
      body: { count: 25, days: 7, maxUses: 2 },
    });
    expect(batch.status).toBe(201);
    const created = (await batch.json()) as { data: unknown[]; count: number };
    expect(created.count).toBe(25);
    expect(new Set(created.data.map((c) => (c as { code: string }).code)).size).toBe(25);

    const search = pageOf(redeemCodeSchema).parse(
      await (
        await t.call('GET', '/api/v1/admin/redeem-codes?search=ALICE', { token: adminToken })
      ).json(),
    );
    expect(search.data.map((c) => c.id)).toEqual([one.id]);

    const patched = await t.call('PATCH', `/api/v1/admin/redeem-codes/${one.id}`, {
      token: adminToken,
      body: { maxUses: 3, expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(redeemCodeSchema.parse(await patched.json())).toMatchObject({
      maxUses: 3,
      status: 'expired',
    });
    const expired = pageOf(redeemCodeSchema).parse(
      await (
        await t.call('GET', '/api/v1/admin/redeem-codes?status=expired', { token: adminToken })
      ).json(),
    );
    expect(expired.data.map((c) => c.id)).toEqual([one.id]);

    expect(
      (await t.call('DELETE', `/api/v1/admin/redeem-codes/${one.id}`, { token: adminToken }))
        .status,
    ).toBe(204);
    const gone = await t.call('DELETE', `/api/v1/admin/redeem-codes/${one.id}`, {
      token: adminToken,
    });
    expect(await errorOf(gone)).toMatchObject({ code: 'REDEEM_CODE_NOT_FOUND' });
    expect(
      (
        await errorOf(
          await t.call('PATCH', '/api/v1/admin/redeem-codes/nope', { token: adminToken, body: {} }),
        )
      ).code,
    ).toBe('REDEEM_CODE_NOT_FOUND');
    const actions = (await t.context.db.select({ a: auditLog.action }).from(auditLog)).map(
      (r) => r.a,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'redeem_code.create',
        'redeem_code.batch_create',
        'redeem_code.update',
        'redeem_code.delete',
      ]),
    );
    const past = await t.call('POST', '/api/v1/admin/redeem-codes', {
      token: adminToken,
      body: { days: 5, expiresAt: '2020-01-01T00:00:00.000Z' },
    });
    expect(past.status).toBe(400);
  });

  it('should extend from max(now, expiry), re-enable media access and record the redemption', async () => {
    const member = await aUser()
      .expired()
      .linkedTo('a'.repeat(32), { mediaDisabled: true })
      .create(t.context.db);
    const code = await newCode({ days: 30 });
    const token = await tokenFor(member);
    const preview = redeemPreviewSchema.parse(
      await (
        await t.call('POST', '/api/v1/me/redeem/validate', {
          token,
          body: { code: code.code.toLowerCase() },
        })
      ).json(),
    );
    expect(
      Math.abs(new Date(preview.newExpiresAt).getTime() - (Date.now() + 30 * DAY)),
    ).toBeLessThan(5000);

    const res = await t.call('POST', '/api/v1/me/redeem', {
      token,
      body: { code: code.code.toLowerCase() },
    });
    expect(res.status).toBe(200);
    const body = redeemResponseSchema.parse(await res.json());
    expect(body).toMatchObject({ days: 30, mediaSync: 'applied' });
    expect(writes).toContainEqual(['a'.repeat(32), false]);
    const [row] = await t.context.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.mediaDisabled).toBe(false);

    // A second code stacks on the future end, not on now.
    const more = await newCode({ days: 10 });
    const again = redeemResponseSchema.parse(
      await (
        await t.call('POST', '/api/v1/me/redeem', { token, body: { code: more.code } })
      ).json(),
    );
    expect(new Date(again.expiresAt).getTime() - new Date(body.expiresAt).getTime()).toBe(10 * DAY);
    expect(again.mediaSync).toBe('none');

    const mine = pageOf(redemptionSchema).parse(
      await (await t.call('GET', '/api/v1/me/redemptions', { token })).json(),
    );
    expect(mine.data.map((r) => r.code)).toEqual([more.code, code.code]);
    const [used] = await t.context.db.select().from(redeemCodes).where(eq(redeemCodes.id, code.id));
    expect(used!.usedCount).toBe(1);
  });

  it('should queue a retry when the media server refuses the change, keeping the renewal', async () => {
    const member = await aUser()
      .expired()
      .linkedTo('b'.repeat(32), { mediaDisabled: true })
      .create(t.context.db);
    const code = await newCode({ days: 5 });
    failWrites = true;
    const res = await t.call('POST', '/api/v1/me/redeem', {
      token: await tokenFor(member),
      body: { code: code.code },
    });
    failWrites = false;
    expect(redeemResponseSchema.parse(await res.json()).mediaSync).toBe('queued');
    const [queued] = await t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.mediaUserId, 'b'.repeat(32)));
    expect(queued).toMatchObject({
      operation: 'enable',
      origin: 'renewal',
      status: 'pending',
      attempts: 0,
    });
    const [row] = await t.context.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.mediaDisabled).toBe(true);
    expect(row!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it('should refuse used, unknown, expired and exhausted codes, admins and never-expiring members', async () => {
    const member = await aUser().create(t.context.db);
    const token = await tokenFor(member);
    const code = await newCode({ days: 1, maxUses: 5 });
    expect(
      (await t.call('POST', '/api/v1/me/redeem', { token, body: { code: code.code } })).status,
    ).toBe(200);
    const twice = await t.call('POST', '/api/v1/me/redeem', { token, body: { code: code.code } });
    expect([twice.status, (await errorOf(twice)).code]).toEqual([409, 'REDEEM_CODE_ALREADY_USED']);
    const unknown = await t.call('POST', '/api/v1/me/redeem', {
      token,
      body: { code: 'not a code' },
    });
    expect(await errorOf(unknown)).toMatchObject({
      code: 'REDEEM_CODE_INVALID',
      details: { reason: 'not_found' },
    });
    const used = await newCode({ days: 1 });
    await t.call('POST', '/api/v1/me/redeem', {
      token: await tokenFor(await aUser().create(t.context.db)),
      body: { code: used.code },
    });
    expect(
      (
        await errorOf(
          await t.call('POST', '/api/v1/me/redeem', { token, body: { code: used.code } }),
        )
      ).details,
    ).toEqual({ reason: 'exhausted' });
    const old = await newCode({ days: 1 });
    await t.context.db
      .update(redeemCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(redeemCodes.id, old.id));
    expect(
      (
        await errorOf(
          await t.call('POST', '/api/v1/me/redeem', { token, body: { code: old.code } }),
        )
      ).details,
    ).toEqual({ reason: 'expired' });

    const fresh = await newCode({ days: 1, maxUses: 10 });
    const forever = await aUser().neverExpires().create(t.context.db);
    expect(
      (
        await errorOf(
          await t.call('POST', '/api/v1/me/redeem', {
            token: await tokenFor(forever),
            body: { code: fresh.code },
          }),
        )
      ).code,
    ).toBe('ACCOUNT_NEVER_EXPIRES');
    const admin = await aUser().admin().create(t.context.db);
    expect(
      (
        await errorOf(
          await t.call('POST', '/api/v1/me/redeem', {
            token: await tokenFor(admin),
            body: { code: fresh.code },
          }),
        )
      ).code,
    ).toBe('ACCOUNT_NOT_RENEWABLE');
    const [untouched] = await t.context.db
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.id, fresh.id));
    expect(untouched!.usedCount).toBe(0);
  });

  it('should answer 429 after 10 wrong codes in an hour', async () => {
    const token = await tokenFor(await aUser().create(t.context.db));
    for (let i = 0; i < 10; i++) {
      const res = await t.call('POST', '/api/v1/me/redeem', {
        token,
        body: { code: `${i}`.padStart(16, 'A') },
      });
      expect(res.status).toBe(422);
    }
    const limited = await t.call('POST', '/api/v1/me/redeem', {
      token,
      body: { code: 'B'.repeat(16) },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('should pre-validate invite codes publicly without using them', async () => {
    const code = await newCode({ days: 14, maxUses: 3 });
    const res = await t.call('POST', '/api/v1/auth/register/validate-code', {
      body: { code: code.code.toLowerCase() },
    });
    expect(validateInviteCodeResponseSchema.parse(await res.json())).toEqual({
      valid: true,
      days: 14,
      expiresAt: null,
      remainingUses: 3,
    });
    const bad = await t.call('POST', '/api/v1/auth/register/validate-code', {
      body: { code: 'ABCDEF' },
    });
    expect(bad.status).toBe(400);
  });

  it('should never let concurrent redemptions pass max_uses', async () => {
    // 40 at once through a pool of 5: every connection contends for the code's row. (200 at once
    // made the last requests wait past the pool's 5 s connect limit on a loaded machine, which
    // tests the pool, not the code's limit.)
    const code = await newCode({ days: 3, maxUses: 10 });
    const members = await Promise.all(
      Array.from({ length: 40 }, () => aUser().create(t.context.db)),
    );
    const tokens = await Promise.all(members.map(tokenFor));
    const results = await Promise.all(
      tokens.map((token) =>
        t.call('POST', '/api/v1/me/redeem', { token, body: { code: code.code } }),
      ),
    );
    const statuses: Record<number, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const others = await Promise.all(
      results.filter((r) => r.status !== 200 && r.status !== 422).map((r) => r.text()),
    );
    expect({ statuses, others }).toEqual({ statuses: { 200: 10, 422: 30 }, others: [] });
    const [row] = await t.context.db.select().from(redeemCodes).where(eq(redeemCodes.id, code.id));
    expect(row!.usedCount).toBe(10);
  }, 120_000);
});
