import { pageOf, planOrderSchema, planSchema } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditLog } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { errorOf, startHarness, type Harness } from './harness.js';

describe(`PUT /admin/plans/order (${ENGINE})`, () => {
  let h: Harness;
  let admin: Awaited<ReturnType<Harness['admin']>>;

  beforeAll(async () => {
    h = await startHarness();
    admin = await h.admin();
  });
  afterAll(() => h.close());

  const reorder = (ids: unknown, token = admin.token) =>
    h.t.call('PUT', '/api/v1/admin/plans/order', { token, body: { ids } });

  /** Every plan, in the admin list's order, as [name, sortOrder, isActive]. */
  const listed = async () => {
    const res = await h.t.call('GET', '/api/v1/admin/plans?pageSize=50', { token: admin.token });
    return pageOf(planSchema)
      .parse(await res.json())
      .data.map((p) => [p.name, p.sortOrder, p.isActive]);
  };

  it('should put the plans on sale in the given order in one write, audited, withdrawn ones untouched', async () => {
    const a = await h.plan(admin.token, { name: 'A', sortOrder: 5 });
    const b = await h.plan(admin.token, { name: 'B', sortOrder: 5 });
    const c = await h.plan(admin.token, { name: 'C', sortOrder: 9 });
    const old = await h.plan(admin.token, { name: 'Old', sortOrder: 0 });
    await h.t.call('DELETE', `/api/v1/admin/plans/${old.id}`, { token: admin.token });

    const res = await reorder([c.id, a.id, b.id]);

    expect(res.status).toBe(200);
    const reply = planOrderSchema.parse(await res.json());
    expect(reply.data.map((p) => [p.name, p.sortOrder])).toEqual([
      ['C', 1],
      ['A', 2],
      ['B', 3],
    ]);
    expect(await listed()).toEqual([
      ['C', 1, true],
      ['A', 2, true],
      ['B', 3, true],
      ['Old', 0, false],
    ]);
    const audits = await h.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'plan.reorder'));
    expect(audits.map((r) => r.details)).toEqual([
      { before: [a.id, b.id, c.id], after: [c.id, a.id, b.id] },
    ]);
    // The member's catalogue follows the new order.
    const member = await h.user();
    const plans = await h.t.call('GET', '/api/v1/plans', { token: member.token });
    expect(((await plans.json()) as { data: { name: string }[] }).data.map((p) => p.name)).toEqual([
      'C',
      'A',
      'B',
    ]);
  });

  it('should answer 422 PLAN_ORDER_MISMATCH for unknown, withdrawn, missing or repeated ids and change nothing', async () => {
    const before = await listed();
    const onSale = planOrderSchema
      .parse(
        await (
          await h.t.call('GET', '/api/v1/plans', {
            token: admin.token,
          })
        ).json(),
      )
      .data.map((p) => p.id);
    const withdrawn = await h.plan(admin.token, { name: 'Gone' });
    await h.t.call('DELETE', `/api/v1/admin/plans/${withdrawn.id}`, { token: admin.token });
    const stranger = uuidv7();
    const [first, second, third] = onSale as [string, string, string];
    const auditsBefore = (await h.t.context.db.select().from(auditLog)).length;

    const cases: [string[], { unknown: string[]; missing: string[]; duplicate: string[] }][] = [
      [[...onSale, stranger], { unknown: [stranger], missing: [], duplicate: [] }],
      [[...onSale, withdrawn.id], { unknown: [withdrawn.id], missing: [], duplicate: [] }],
      [[third, first], { unknown: [], missing: [second], duplicate: [] }],
      [[third, first, second, first], { unknown: [], missing: [], duplicate: [first] }],
    ];
    for (const [ids, details] of cases) {
      const res = await reorder(ids);
      expect(res.status).toBe(422);
      expect(await errorOf(res)).toMatchObject({
        code: 'PLAN_ORDER_MISMATCH',
        message: 'The order must name every plan on sale exactly once',
        details,
      });
    }

    expect((await listed()).filter(([name]) => name !== 'Gone')).toEqual(before);
    expect((await h.t.context.db.select().from(auditLog)).length).toBe(auditsBefore);
  });

  it('should refuse a malformed body with 400 and a member with 403', async () => {
    for (const ids of [[], ['not-a-uuid'], 'x', null]) {
      const res = await reorder(ids);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
    const member = await h.user();
    const res = await reorder([uuidv7()], member.token);
    expect(res.status).toBe(403);
  });
});
