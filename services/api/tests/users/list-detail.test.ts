import { adminUserDetailSchema, adminUserSchema, errorBodySchema, pageOf } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { redeemCodes, redemptions, users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { DAY, errorOf, startWorld, type World } from './helpers.js';

const listSchema = pageOf(adminUserSchema);

describe(`GET /admin/users and /admin/users/:id (${ENGINE})`, () => {
  let w: World;
  const get = async (query: string) => {
    const res = await w.t.call('GET', `/api/v1/admin/users${query}`, { token: w.adminToken });
    expect(res.status).toBe(200);
    return listSchema.parse(await res.json());
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    w = await startWorld('emby');
    const db = w.t.context.db;
    const make = async (key: string, build: ReturnType<typeof aUser>, createdAt: Date) => {
      const row = await build.create(db);
      await db.update(users).set({ createdAt }).where(eq(users.id, row.id));
      ids[key] = row.id;
    };
    const t0 = Date.now() - 100 * DAY;
    await make(
      'alice',
      aUser()
        .named('Alice_List')
        .withEmail('alice@list.example')
        .expiresAt(new Date(Date.now() + 5 * DAY)),
      new Date(t0 + DAY),
    );
    await make(
      'bob',
      aUser()
        .named('bob_list')
        .withEmail('bob@other.example')
        .expiresAt(new Date(Date.now() - DAY))
        .linkedTo('b'.repeat(32)),
      new Date(t0 + 2 * DAY),
    );
    await make(
      'carol',
      aUser().named('carol_list').neverExpires().inactive().linkedTo('c'.repeat(32)),
      new Date(t0 + 3 * DAY),
    );
    await make(
      'dave',
      aUser()
        .named('dave_100%_list')
        .expiresAt(new Date(Date.now() + 40 * DAY))
        .linkedTo('d'.repeat(32)),
      new Date(t0 + 4 * DAY),
    );
    await db.update(users).set({ mediaAccessDisabled: true }).where(eq(users.id, ids.dave!));
    await make('root', aUser().admin().named('root_list'), new Date(t0 + 5 * DAY));
  });
  afterAll(async () => {
    await w.close();
  });

  it('should list newest first with the list envelope and AdminUser items', async () => {
    const page = await get('?search=_list');
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    expect(page.data.map((u) => u.id)).toEqual([ids.root, ids.dave, ids.carol, ids.bob, ids.alice]);
    expect(page.data.find((u) => u.id === ids.dave)).toMatchObject({
      mediaAccessDisabled: true,
      media: { linked: true, state: 'disabled_by_admin' },
    });
  });

  it('should search username and email, case-insensitively, with LIKE characters taken literally', async () => {
    expect((await get('?search=ALICE')).data.map((u) => u.id)).toEqual([ids.alice]);
    expect((await get('?search=other.EXAMPLE')).data.map((u) => u.id)).toEqual([ids.bob]);
    expect((await get('?search=100%25')).data.map((u) => u.id)).toEqual([ids.dave]);
    // `_` is literal: as a LIKE wildcard `l_st` would match every `…_list` name. (`_1` matched
    // the world's admin, `u_<random hex>`, whenever its hex began with 1.)
    expect((await get('?search=l_st')).total).toBe(0);
    expect((await get('?search=e_1')).data.map((u) => u.id)).toEqual([ids.dave]);
    expect((await get('?search=%20')).total).toBeGreaterThanOrEqual(5);
  });

  it('should filter by role, isActive, status and media state', async () => {
    const only = async (q: string) => (await get(`?search=_list&${q}`)).data.map((u) => u.id);
    expect(await only('role=admin')).toEqual([ids.root]);
    expect(await only('isActive=false')).toEqual([ids.carol]);
    expect(await only('status=expired')).toEqual([ids.bob]);
    expect(await only('status=never')).toEqual([ids.root, ids.carol]);
    expect(await only('status=active')).toEqual([ids.dave, ids.alice]);
    expect(await only('mediaState=unlinked')).toEqual([ids.root, ids.alice]);
    expect(await only('mediaState=disabled_expired')).toEqual([ids.bob]);
    expect(await only('mediaState=disabled_by_admin')).toEqual([ids.dave]);
    expect(await only('mediaState=enabled')).toEqual([ids.carol]);
  });

  it('should filter by expiry bounds given as instants or business days', async () => {
    const only = async (q: string) => (await get(`?search=_list&${q}`)).data.map((u) => u.id);
    const in10 = new Date(Date.now() + 10 * DAY).toISOString();
    expect(await only(`expiresBefore=${in10}`)).toEqual([ids.bob, ids.alice]);
    expect(await only(`expiresAfter=${new Date().toISOString()}`)).toEqual([ids.dave, ids.alice]);
    const day = new Date(Date.now() + 5 * DAY).toISOString().slice(0, 10);
    // The day form is inclusive: Alice expires during that (UTC) day.
    expect(await only(`expiresBefore=${day}&expiresAfter=${day}`)).toEqual([ids.alice]);
  });

  it('should sort by username, expiry (never-expiring last) and page through', async () => {
    const byName = await get('?search=_list&sort=username&order=asc');
    expect(byName.data.map((u) => u.username)).toEqual([
      'Alice_List',
      'bob_list',
      'carol_list',
      'dave_100%_list',
      'root_list',
    ]);
    const byExpiry = await get('?search=_list&sort=expiresAt&order=asc');
    expect(byExpiry.data.map((u) => u.id).slice(0, 3)).toEqual([ids.bob, ids.alice, ids.dave]);
    const desc = await get('?search=_list&sort=expiresAt&order=desc');
    expect(desc.data.map((u) => u.id).slice(0, 3)).toEqual([ids.dave, ids.alice, ids.bob]);
    const second = await get('?search=_list&pageSize=2&page=2');
    expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(second.data.map((u) => u.id)).toEqual([ids.carol, ids.bob]);
  });

  it('should answer 400 VALIDATION_FAILED for bad list parameters', async () => {
    for (const q of [
      '?pageSize=101',
      '?page=0',
      '?status=gone',
      '?mediaState=off',
      '?isActive=yes',
      '?sort=password',
      '?expiresBefore=tomorrow',
      '?unknown=1',
    ]) {
      const res = await w.t.call('GET', `/api/v1/admin/users${q}`, { token: w.adminToken });
      expect([q, res.status]).toEqual([q, 400]);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    }
  });

  it('should show one account with its counts, and 404 USER_NOT_FOUND for unknown or malformed ids', async () => {
    const db = w.t.context.db;
    const [code] = await db
      .insert(redeemCodes)
      .values({ id: uuidv7(), code: 'ABCDEF0123456789', days: 5 })
      .returning();
    await db.insert(redemptions).values({
      id: uuidv7(),
      userId: ids.alice!,
      codeId: code!.id,
      code: code!.code,
      kind: 'renew',
      days: 5,
      newExpiresAt: new Date(),
    });
    const res = await w.t.call('GET', `/api/v1/admin/users/${ids.alice}`, {
      token: w.adminToken,
    });
    expect(res.status).toBe(200);
    const detail = adminUserDetailSchema.parse(await res.json());
    expect(detail).toMatchObject({
      id: ids.alice,
      username: 'Alice_List',
      email: 'alice@list.example',
      counts: { redemptions: 1, payments: 0, activeRequests: 0 },
    });
    for (const id of [uuidv7(), 'not-a-uuid']) {
      const missing = await w.t.call('GET', `/api/v1/admin/users/${id}`, {
        token: w.adminToken,
      });
      expect(missing.status).toBe(404);
      expect(errorBodySchema.parse(await missing.json()).error).toMatchObject({
        code: 'USER_NOT_FOUND',
        message: 'No such user',
      });
    }
  });
});
