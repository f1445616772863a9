// Admin redeem-code list filters and batch creation limits (20-api.md "Redeem codes").
import { errorBodySchema, pageOf, redeemCodeSchema } from '@usher/contracts';
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { auditLog, redeemCodes } from '../../src/db/schema/index.js';
import { insertCodes } from '../../src/modules/redeem/queries.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

const DAY = 86_400_000;

describe(`admin redeem codes: list filters and batches (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let adminToken: string;
  let adminId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
    const admin = await aUser().admin().create(t.context.db);
    adminId = admin.id;
    adminToken = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  });
  afterAll(async () => {
    await database.close();
  });

  /** Inserts a code directly, so its use count and expiry can be any state. */
  const aCode = async (
    notes: string,
    fields: { maxUses?: number; usedCount?: number; expiresAt?: Date | null } = {},
  ) => {
    const id = uuidv7();
    await t.context.db.insert(redeemCodes).values({
      id,
      code: randomBytes(8).toString('hex').toUpperCase(),
      days: 30,
      notes,
      createdBy: adminId,
      ...fields,
    });
    return id;
  };
  const list = async (query: string) => {
    const res = await t.call('GET', `/api/v1/admin/redeem-codes?${query}`, { token: adminToken });
    expect([query, res.status]).toEqual([query, 200]);
    return pageOf(redeemCodeSchema).parse(await res.json());
  };
  const codeRows = async () => (await t.context.db.select({ n: count() }).from(redeemCodes))[0]!.n;
  const batchAudits = () =>
    t.context.db.select().from(auditLog).where(eq(auditLog.action, 'redeem_code.batch_create'));

  describe('GET /admin/redeem-codes?status=', () => {
    // Every code of this suite carries the tag in its notes; `search` keeps other tests out.
    const tag = 'status-matrix';
    let ids: Record<string, string>;

    beforeAll(async () => {
      const past = new Date(Date.now() - DAY);
      const future = new Date(Date.now() + DAY);
      ids = {
        fresh: await aCode(`${tag} fresh`),
        partlyUsed: await aCode(`${tag} partly used`, { maxUses: 3, usedCount: 2 }),
        notYetExpired: await aCode(`${tag} expires tomorrow`, { expiresAt: future }),
        usedUp: await aCode(`${tag} used up`, { maxUses: 2, usedCount: 2 }),
        expired: await aCode(`${tag} expired`, { expiresAt: past }),
        // Used up and expired: exhausted wins, so it is in exactly one list.
        usedUpAndExpired: await aCode(`${tag} both`, { usedCount: 1, expiresAt: past }),
      };
    });

    const byStatus = async (status: string | null) => {
      const page = await list(`search=${tag}${status ? `&status=${status}` : ''}`);
      return { ids: new Set(page.data.map((c) => c.id)), page };
    };

    it('should list active codes: unused, partly used or not yet expired', async () => {
      const { ids: got, page } = await byStatus('active');
      expect(got).toEqual(new Set([ids.fresh, ids.partlyUsed, ids.notYetExpired]));
      expect(page.total).toBe(3);
      expect(page.data.every((c) => c.status === 'active')).toBe(true);
    });

    it('should default to active', async () => {
      const { ids: got } = await byStatus(null);
      expect(got).toEqual(new Set([ids.fresh, ids.partlyUsed, ids.notYetExpired]));
    });

    it('should list exhausted codes, including used-up ones past their expiry', async () => {
      const { ids: got, page } = await byStatus('exhausted');
      expect(got).toEqual(new Set([ids.usedUp, ids.usedUpAndExpired]));
      expect(page.total).toBe(2);
      expect(page.data.every((c) => c.status === 'exhausted')).toBe(true);
    });

    it('should list expired codes that still had uses left', async () => {
      const { ids: got, page } = await byStatus('expired');
      expect(got).toEqual(new Set([ids.expired]));
      expect(page.data[0]).toMatchObject({ status: 'expired', usedCount: 0 });
    });

    it('should list all of them with status=all', async () => {
      const { ids: got, page } = await byStatus('all');
      expect(got).toEqual(new Set(Object.values(ids)));
      expect(page.total).toBe(6);
    });

    it('should refuse an unknown status with 400 (there is no "disabled" status)', async () => {
      const res = await t.call('GET', '/api/v1/admin/redeem-codes?status=disabled', {
        token: adminToken,
      });
      expect(res.status).toBe(400);
      const { error } = errorBodySchema.parse(await res.json());
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'The request is not valid',
      });
      expect(error.details).toEqual([expect.objectContaining({ path: 'status' })]);
    });
  });

  describe('POST /admin/redeem-codes/batch', () => {
    const batch = (body: Record<string, unknown>) =>
      t.call('POST', '/api/v1/admin/redeem-codes/batch', { token: adminToken, body });

    it('should refuse 101 codes (and 0) with the shared 400 body and create nothing', async () => {
      const rowsBefore = await codeRows();
      const auditsBefore = (await batchAudits()).length;
      for (const n of [101, 0]) {
        const res = await batch({ count: n, days: 30, notes: 'too many' });
        expect([n, res.status]).toEqual([n, 400]);
        const { error } = errorBodySchema.parse(await res.json());
        expect(error).toMatchObject({
          code: 'VALIDATION_FAILED',
          message: 'The request is not valid',
          requestId: expect.any(String),
        });
        expect(error.details).toEqual([expect.objectContaining({ path: 'count' })]);
      }
      // A past expiry fails after parsing, before the transaction: nothing either.
      const past = await batch({ count: 5, days: 30, expiresAt: '2020-01-01T00:00:00.000Z' });
      expect(past.status).toBe(400);
      expect(errorBodySchema.parse(await past.json()).error.details).toEqual([
        { path: 'expiresAt', message: 'must be in the future' },
      ]);
      expect(await codeRows()).toBe(rowsBefore);
      expect(await batchAudits()).toHaveLength(auditsBefore);
    });

    it('should create exactly the 100 requested codes in one go, with one audit row', async () => {
      const rowsBefore = await codeRows();
      const expiresAt = new Date(Date.now() + 7 * DAY).toISOString();
      const res = await batch({ count: 100, days: 14, maxUses: 2, expiresAt, notes: 'batch-100' });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { data: unknown[]; count: number };
      const created = body.data.map((c) => redeemCodeSchema.parse(c));
      expect(body.count).toBe(100);
      expect(created).toHaveLength(100);
      expect(new Set(created.map((c) => c.code)).size).toBe(100);
      for (const c of created) {
        expect(c).toMatchObject({
          days: 14,
          maxUses: 2,
          usedCount: 0,
          expiresAt,
          status: 'active',
          notes: 'batch-100',
          createdBy: { id: adminId },
        });
        expect(c.code).toMatch(/^[0-9A-F]{16}$/);
      }
      expect(await codeRows()).toBe(rowsBefore + 100);
      const stored = await t.context.db
        .select({ id: redeemCodes.id })
        .from(redeemCodes)
        .where(eq(redeemCodes.notes, 'batch-100'));
      expect(new Set(stored.map((r) => r.id))).toEqual(new Set(created.map((c) => c.id)));
      const audits = (await batchAudits()).filter(
        (a) => (a.details as { count?: number }).count === 100,
      );
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({ actorType: 'admin', actorId: adminId });
      expect(new Set((audits[0]!.details as { ids: string[] }).ids)).toEqual(
        new Set(created.map((c) => c.id)),
      );
    });
  });
  describe('insertCodes on a clash', () => {
    it('should regenerate codes that clash with a stored one or within the batch', async () => {
      const taken = 'C1A500000000DA4E';
      await t.context.db.insert(redeemCodes).values({
        id: uuidv7(),
        code: taken,
        days: 1,
        notes: 'clash',
        createdBy: adminId,
      });
      // The first round draws the stored code twice and one fresh code; later rounds are fresh.
      const draws = [taken, taken, 'C1A50000000F0001', 'C1A50000000F0002', 'C1A50000000F0003'];
      const rows = await insertCodes(
        t.context.db,
        { days: 7, maxUses: 1, notes: 'clash batch' },
        3,
        adminId,
        () => draws.shift()!,
      );
      expect(rows.map((r) => r.code).sort()).toEqual([
        'C1A50000000F0001',
        'C1A50000000F0002',
        'C1A50000000F0003',
      ]);
      const stored = await t.context.db
        .select({ n: count() })
        .from(redeemCodes)
        .where(eq(redeemCodes.notes, 'clash batch'));
      expect(stored[0]!.n).toBe(3);
    });

    it('should fail, writing nothing in its transaction, when no unused code can be drawn', async () => {
      const before = await codeRows();
      await expect(
        t.context.db.transaction((tx) =>
          insertCodes(
            tx,
            { days: 7, maxUses: 1, notes: 'never' },
            2,
            adminId,
            () => 'C1A500000000DA4E',
          ),
        ),
      ).rejects.toThrow(/could not generate 2 unused redeem codes/);
      expect(await codeRows()).toBe(before);
    });
  });
});
