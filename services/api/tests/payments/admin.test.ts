import {
  adminPaymentListSchema,
  pageOf,
  paymentSchema,
  planSchema,
  type Plan,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditLog, payments } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { DAY, errorOf, startHarness, type Harness } from './harness.js';

describe(`plans and payment lists (${ENGINE})`, () => {
  let h: Harness;
  let admin: Awaited<ReturnType<Harness['admin']>>;

  beforeAll(async () => {
    h = await startHarness();
    admin = await h.admin();
  });
  afterAll(() => h.close());

  const get = async (path: string, token = admin.token) => {
    const res = await h.t.call('GET', path, { token });
    expect(res.status).toBe(200);
    return res.json();
  };

  /** A payment row in a given state, as checkout and the webhook would leave it. */
  async function payment(
    user: { id: string; username: string },
    plan: Plan,
    status: 'pending' | 'completed' | 'expired' | 'failed',
    createdAt = new Date(),
  ) {
    const [row] = await h.t.context.db
      .insert(payments)
      .values({
        id: uuidv7(),
        userId: user.id,
        planId: plan.id,
        username: user.username,
        planName: plan.name,
        amount: plan.price,
        currency: plan.currency,
        days: plan.days,
        status,
        checkoutUrl: status === 'pending' ? 'https://checkout.example/c/pay/cs_x' : null,
        expiresAt: new Date(createdAt.getTime() + 30 * 60_000),
        completedAt: status === 'completed' ? createdAt : null,
        createdAt,
      })
      .returning();
    return row!;
  }

  it('should create, list in display order, edit and withdraw plans, audited, admins only', async () => {
    const b = await h.plan(admin.token, { name: 'B', sortOrder: 2, description: 'second' });
    const a = await h.plan(admin.token, { name: 'A', sortOrder: 1, price: 900, currency: 'eur' });
    expect(a).toMatchObject({
      name: 'A',
      price: 900,
      currency: 'eur',
      isActive: true,
      sortOrder: 1,
    });
    const patched = await h.t.call('PATCH', `/api/v1/admin/plans/${b.id}`, {
      token: admin.token,
      body: { sortOrder: 0, price: 1200 },
    });
    expect(planSchema.parse(await patched.json())).toMatchObject({ sortOrder: 0, price: 1200 });
    await h.t.call('DELETE', `/api/v1/admin/plans/${a.id}`, { token: admin.token });

    const all = pageOf(planSchema).parse(await get('/api/v1/admin/plans'));
    const ids = all.data.map((p) => p.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id)); // active first, then withdrawn
    const active = pageOf(planSchema).parse(await get('/api/v1/admin/plans?includeInactive=false'));
    expect(active.data.map((p) => p.id)).not.toContain(a.id);

    const m = await h.user();
    const member = (await get('/api/v1/plans', m.token)) as { data: Plan[] };
    expect(member.data.map((p) => p.id)).toContain(b.id);
    expect(member.data.map((p) => p.id)).not.toContain(a.id);

    const audits = await h.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetType, 'plan'))
      .orderBy(auditLog.id);
    expect(audits.filter((r) => r.targetId === a.id).map((r) => r.action)).toEqual([
      'plan.create',
      'plan.withdraw',
    ]);
    expect(audits.find((r) => r.action === 'plan.update')?.details).toMatchObject({
      before: { sortOrder: 2, price: 500 },
      after: { sortOrder: 0, price: 1200 },
    });

    const forbidden = await h.t.call('POST', '/api/v1/admin/plans', {
      token: m.token,
      body: { name: 'x', days: 1, price: 1, currency: 'usd' },
    });
    expect(forbidden.status).toBe(403);
    for (const body of [
      { name: '', days: 30, price: 500, currency: 'usd' },
      { name: 'x', days: 0, price: 500, currency: 'usd' },
      { name: 'x', days: 30, price: 0, currency: 'usd' },
      { name: 'x', days: 30, price: 100_000_000, currency: 'usd' },
      { name: 'x', days: 30, price: 500, currency: 'xyz' },
      { name: 'x', days: 30, price: 5.5, currency: 'usd' },
      { name: 'x', days: 30, price: 500, currency: 'usd', extra: 1 },
    ]) {
      const res = await h.t.call('POST', '/api/v1/admin/plans', { token: admin.token, body });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
    const missing = await h.t.call('PATCH', `/api/v1/admin/plans/${uuidv7()}`, {
      token: admin.token,
      body: { name: 'x' },
    });
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ code: 'PLAN_NOT_FOUND' });
    const kwd = await h.t.call('PATCH', `/api/v1/admin/plans/${b.id}`, {
      token: admin.token,
      body: { currency: 'kwd', price: 1005 },
    });
    expect(kwd.status).toBe(400);
  });

  it('should list payments with filters and completed totals per currency, and show own ones only', async () => {
    const usd = await h.plan(admin.token, { price: 1999, currency: 'usd' });
    const jpy = await h.plan(admin.token, { price: 800, currency: 'jpy' });
    const alice = await h.user((b) => b.expiresAt(new Date(Date.now() + DAY)));
    const bob = await h.user();
    const early = new Date('2026-01-10T12:00:00Z');
    const p1 = await payment(alice, usd, 'completed');
    const p2 = await payment(alice, usd, 'completed');
    await payment(alice, jpy, 'completed');
    const pending = await payment(alice, jpy, 'pending');
    await payment(bob, jpy, 'completed', early);
    await payment(bob, usd, 'failed');

    const all = adminPaymentListSchema.parse(
      await get(`/api/v1/admin/payments?userId=${alice.id}`),
    );
    expect(all.total).toBe(4);
    expect(all.summary.completedAmountByCurrency).toEqual({ jpy: 800, usd: 3998 });
    expect(all.data[0]!.user).toEqual({ id: alice.id, username: alice.username });
    expect(all.data.every((p) => p.checkoutUrl === null)).toBe(true);

    const jpyOnly = adminPaymentListSchema.parse(
      await get(`/api/v1/admin/payments?planId=${jpy.id}`),
    );
    expect(jpyOnly.summary.completedAmountByCurrency).toEqual({ jpy: 1600 });
    const january = adminPaymentListSchema.parse(
      await get('/api/v1/admin/payments?from=2026-01-01&to=2026-01-31'),
    );
    expect(january.data.map((p) => p.user?.username)).toEqual([bob.username]);
    const pendingOnly = adminPaymentListSchema.parse(
      await get(`/api/v1/admin/payments?status=pending&userId=${alice.id}`),
    );
    expect(pendingOnly.data.map((p) => p.id)).toEqual([pending.id]);
    expect(pendingOnly.summary.completedAmountByCurrency).toEqual({});

    const mine = pageOf(paymentSchema).parse(await get('/api/v1/me/payments', alice.token));
    expect(mine.data.map((p) => p.id).sort()).toEqual(
      [
        p1.id,
        p2.id,
        pending.id,
        mine.data.find((p) => p.currency === 'jpy' && p.status === 'completed')!.id,
      ].sort(),
    );
    expect(mine.data.find((p) => p.id === pending.id)!.checkoutUrl).toMatch(/^https:/);
    expect(mine.data[0]!.user).toBeUndefined();
    const one = paymentSchema.parse(await get(`/api/v1/me/payments/${p1.id}`, alice.token));
    expect(one).toMatchObject({ id: p1.id, status: 'completed', amount: 1999 });
    const foreign = await h.t.call('GET', `/api/v1/me/payments/${p1.id}`, { token: bob.token });
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    expect(
      (await h.t.call('GET', '/api/v1/admin/payments/nope', { token: admin.token })).status,
    ).toBe(404);

    const detail = (await get(`/api/v1/admin/users/${alice.id}`)) as {
      counts: { payments: number };
    };
    expect(detail.counts.payments).toBe(4);
  });
});
