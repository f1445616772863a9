// The lifecycle's routes around the notices (docs/lifecycle.md): the admin's log and upcoming
// view, the member's preferences, and the signed unsubscribe link of a reminder mail.
import { eq } from 'drizzle-orm';
import { auditLog, users } from '../../src/db/schema/index.js';
import { countUpcoming } from '../../src/modules/lifecycle/queries.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { DAY, lifecycleEnv, type LifecycleEnv } from './harness.js';

describe(`lifecycle notices, preferences and unsubscribe (${ENGINE})`, () => {
  let env: LifecycleEnv;
  let adminToken: string;
  let seq = 0;

  beforeAll(async () => {
    env = await lifecycleEnv();
    const admin = await aUser().admin().create(env.t.context.db);
    adminToken = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  }, 60_000);
  afterAll(async () => {
    await env.close();
  });
  afterEach(async () => {
    await env.t.context.db.update(users).set({ expiresAt: null }).where(eq(users.role, 'user'));
  });

  const member = async (days: number) => {
    const name = `notice_member_${++seq}`;
    const row = await aUser()
      .named(name)
      .withEmail(`${name}@example.org`)
      .expiresAt(new Date(env.now().getTime() + days * DAY))
      .create(env.t.context.db);
    await env.t.context.db
      .update(users)
      .set({ messengerId: 700_000 + seq })
      .where(eq(users.id, row.id));
    const token = (await env.t.context.tokens.sign({ sub: row.id, role: 'user', ver: 0 })).token;
    return { ...row, email: `${name}@example.org`, token };
  };
  /** A request through the app: its status and parsed JSON body. */
  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: unknown }> => {
    const res = await env.t.call(method, path, options);
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const admin = (path: string) => call('GET', path, { token: adminToken });

  describe('GET /admin/lifecycle/upcoming', () => {
    it('should list who gets which reminder, when and on which channel, soonest first', async () => {
      const eight = await member(8);
      const two = await member(2);
      const res = await admin('/api/v1/admin/lifecycle/upcoming?days=14');
      expect(res.status).toBe(200);
      const now = env.now().getTime();
      const at = (ms: number) => new Date(ms).toISOString();
      expect(res.body).toMatchObject({ total: 5, totalCapped: false, page: 1 });
      const items = (res.body as { data: Record<string, unknown>[] }).data;
      // The member 2 days out is past the 7-day threshold: only 3 (due now) and 1 remain; at the
      // same time, the membership that ends first comes first.
      expect(items.map((i) => [i.username, i.days, i.dueAt])).toEqual([
        [two.username, 3, at(now)],
        [two.username, 1, at(now + DAY)],
        [eight.username, 7, at(now + DAY)],
        [eight.username, 3, at(now + 5 * DAY)],
        [eight.username, 1, at(now + 7 * DAY)],
      ]);
      expect(items[0]!.channels).toEqual([
        { channel: 'email', status: 'pending', detail: null },
        { channel: 'messenger', status: 'pending', detail: null },
      ]);

      // After a run, the recorded outcome replaces "pending".
      await env.runJob();
      const after = await admin('/api/v1/admin/lifecycle/upcoming?days=3');
      const first = (after.body as { data: { days: number; channels: unknown }[] }).data[0]!;
      expect(first).toMatchObject({ days: 3 });
      expect(first.channels).toEqual([
        { channel: 'email', status: 'sent', detail: null },
        { channel: 'messenger', status: 'sent', detail: null },
      ]);
    });

    it('should page through the merged thresholds exactly as one long page, and cap its count', async () => {
      for (const days of [9, 1.5, 6, 2.5, 12, 4]) await member(days);
      const one = await admin('/api/v1/admin/lifecycle/upcoming?days=14&pageSize=100');
      const all = (one.body as { data: { userId: string; days: number }[] }).data;
      expect(all.length).toBe((one.body as { total: number }).total);
      const paged: { userId: string; days: number }[] = [];
      for (let page = 1; paged.length < all.length; page++) {
        const res = await admin(`/api/v1/admin/lifecycle/upcoming?days=14&pageSize=4&page=${page}`);
        const data = (res.body as { data: { userId: string; days: number }[] }).data;
        expect(data.length).toBeGreaterThan(0);
        paged.push(...data);
      }
      const key = (r: { userId: string; days: number }) => `${r.userId}/${r.days}`;
      expect(paged.map(key)).toEqual(all.map(key));
      // The count stops at its cap and says so.
      const now = env.now();
      const until = new Date(now.getTime() + 14 * DAY);
      const counted = (cap: number) => countUpcoming(env.t.context.db, now, until, [7, 3, 1], cap);
      await expect(counted(100)).resolves.toEqual({ n: all.length, capped: false });
      await expect(counted(5)).resolves.toEqual({ n: 5, capped: true });
    });

    it("should answer the same view at GET /admin/lifecycle/preview (the issue's name)", async () => {
      await member(8);
      await member(2);
      const upcoming = await admin('/api/v1/admin/lifecycle/upcoming?days=14');
      const preview = await admin('/api/v1/admin/lifecycle/preview?days=14');
      expect(preview.status).toBe(200);
      expect((preview.body as { total: number }).total).toBe(5);
      expect(preview.body).toEqual(upcoming.body);
      expect((await admin('/api/v1/admin/lifecycle/preview?days=61')).status).toBe(400);
      const m = await member(3);
      const res = await call('GET', '/api/v1/admin/lifecycle/preview', { token: m.token });
      expect(res.status).toBe(403);
    });

    it('should refuse a window out of range and a member token', async () => {
      expect((await admin('/api/v1/admin/lifecycle/upcoming?days=0')).status).toBe(400);
      expect((await admin('/api/v1/admin/lifecycle/upcoming?days=61')).status).toBe(400);
      const m = await member(3);
      const res = await call('GET', '/api/v1/admin/lifecycle/upcoming', { token: m.token });
      expect(res.status).toBe(403);
    });
  });

  describe('GET /admin/notices', () => {
    it('should page the log newest first and filter by member, channel and status', async () => {
      const a = await member(1);
      const b = await member(1);
      await env.t.context.db.update(users).set({ notifyEmail: false }).where(eq(users.id, b.id));
      await env.runJob();

      const mine = await admin(`/api/v1/admin/notices?userId=${a.id}`);
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ total: 2 });
      const rows = (mine.body as { data: Record<string, unknown>[] }).data;
      expect(rows.map((r) => [r.username, r.kind, r.channel, r.status, r.days])).toEqual(
        expect.arrayContaining([
          [a.username, 'expiry_reminder', 'email', 'sent', 1],
          [a.username, 'expiry_reminder', 'messenger', 'sent', 1],
        ]),
      );

      const skipped = await admin(`/api/v1/admin/notices?status=skipped&channel=email`);
      expect((skipped.body as { data: Record<string, unknown>[] }).data).toContainEqual(
        expect.objectContaining({
          userId: b.id,
          status: 'skipped',
          detail: 'the member opted out of e-mail',
          attempts: 0,
        }),
      );
      expect((await admin('/api/v1/admin/notices?status=lost')).status).toBe(400);
    });
  });

  describe('/me/notifications', () => {
    it('should read and save both preferences, audited, and refuse a bad body unchanged', async () => {
      const m = await member(5);
      const read = await call('GET', '/api/v1/me/notifications', { token: m.token });
      expect(read).toMatchObject({ status: 200, body: { email: true, messenger: true } });

      const saved = await call('PUT', '/api/v1/me/notifications', {
        token: m.token,
        body: { email: false, messenger: true },
      });
      expect(saved).toMatchObject({ status: 200, body: { email: false, messenger: true } });
      const audit = await env.t.context.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.targetId, m.id));
      expect(audit.map((r) => r.action)).toEqual(['user.notifications']);

      for (const body of [{ email: 'no', messenger: true }, { email: true }, {}]) {
        const bad = await call('PUT', '/api/v1/me/notifications', { token: m.token, body });
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
      }
      const again = await call('GET', '/api/v1/me/notifications', { token: m.token });
      expect(again.body).toEqual({ email: false, messenger: true });
      expect((await call('GET', '/api/v1/me/notifications')).status).toBe(401);
    });
  });

  describe('POST /public/unsubscribe', () => {
    /** The one-click target of the member's reminder mail. */
    const oneClickOf = async (email: string) => {
      await env.runJob();
      const mail = env.mailsTo(email).at(-1)!;
      const header = mail.headers.get('list-unsubscribe')![0]!;
      return new URL(header.slice(1, -1));
    };

    it("should stop reminder mails with the mail's one-click link, without signing in", async () => {
      const m = await member(6);
      const target = await oneClickOf(m.email);
      // What a mail client sends (RFC 8058): a form body, no cookies, no token.
      const res = await env.t.app.request(`${target.pathname}${target.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ channel: 'email', subscribed: false });
      const prefs = await call('GET', '/api/v1/me/notifications', { token: m.token });
      expect(prefs.body).toEqual({ email: false, messenger: true });
      // A second click answers the same.
      const twice = await env.t.app.request(`${target.pathname}${target.search}`, {
        method: 'POST',
      });
      expect(twice.status).toBe(200);

      // The next threshold reaches the member on the bot only.
      const mails = env.mailsTo(m.email).length;
      env.advance(4 * DAY);
      await env.runJob();
      expect(env.mailsTo(m.email)).toHaveLength(mails);
      expect(env.dmsTo(700_000 + seq)).not.toHaveLength(0);
    });

    it('should refuse a link not signed here and change nothing', async () => {
      const m = await member(6);
      const target = await oneClickOf(m.email);
      const token = target.searchParams.get('token')!;
      const other = await member(6);
      for (const forged of [
        token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'),
        token.replace(m.id, other.id),
        token.replace('.email.', '.messenger.'),
        `${token}.extra`,
      ]) {
        const res = await call(
          'POST',
          `/api/v1/public/unsubscribe?token=${encodeURIComponent(forged)}`,
        );
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: { code: 'UNSUBSCRIBE_LINK_INVALID' } });
      }
      expect((await call('POST', '/api/v1/public/unsubscribe')).status).toBe(400);
      for (const who of [m, other]) {
        const prefs = await call('GET', '/api/v1/me/notifications', { token: who.token });
        expect(prefs.body).toEqual({ email: true, messenger: true });
      }
    });
  });
});
