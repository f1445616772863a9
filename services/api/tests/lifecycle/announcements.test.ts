// Announcements (docs/lifecycle.md): posted to an audience, shown in the console until read, sent
// by mail and by the bot once per recipient and channel, paced below Telegram's limits, failures
// retried by the next runs.
import { eventually } from '@usher/testkit';
import { eq } from 'drizzle-orm';
import {
  announcementRecipients,
  announcements,
  auditLog,
  memberNotices,
  users,
} from '../../src/db/schema/index.js';
import { runAnnouncements } from '../../src/modules/lifecycle/index.js';
import { ENGINE } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';
import { DAY, lifecycleEnv, type LifecycleEnv } from './harness.js';

describe(`announcements (${ENGINE})`, () => {
  let env: LifecycleEnv;
  let adminToken: string;
  let seq = 0;

  beforeAll(async () => {
    env = await lifecycleEnv();
    const admin = await aUser().admin().withEmail('boss@example.org').create(env.t.context.db);
    adminToken = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  }, 60_000);
  afterAll(async () => {
    await env.close();
  });
  afterEach(async () => {
    // Members of one test are not the next one's audience.
    await env.t.context.db.update(users).set({ isActive: false }).where(eq(users.role, 'user'));
    env.bot.reply = () => ({ ok: true, deliveries: [] });
    env.bot.status = 200;
  });

  /** The fields of the replies these tests read. */
  interface Reply {
    id: string;
    recipients: number;
    unread: number;
    data: Record<string, unknown>[];
    error: { code: string };
  }
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await env.t.call(method, path, { token, body });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Reply };
  };
  const member = async (days: number | null, linked = true) => {
    const name = `ann_${++seq}`;
    const builder = aUser().named(name).withEmail(`${name}@example.org`);
    if (days !== null) builder.expiresAt(new Date(env.now().getTime() + days * DAY));
    const row = await builder.create(env.t.context.db);
    const messengerId = linked ? 800_000 + seq : null;
    await env.t.context.db.update(users).set({ messengerId }).where(eq(users.id, row.id));
    const token = (await env.t.context.tokens.sign({ sub: row.id, role: 'user', ver: 0 })).token;
    return { ...row, email: `${name}@example.org`, messengerId, token };
  };
  const post = (body: Record<string, unknown>) =>
    call('POST', '/api/v1/admin/announcements', adminToken, {
      title: 'Maintenance',
      body: 'The server restarts on Sunday at 02:00.',
      audience: 'all',
      channels: [],
      ...body,
    });
  const finished = (id: string) =>
    eventually(
      async () => {
        const [row] = await env.t.context.db
          .select({ status: announcements.status })
          .from(announcements)
          .where(eq(announcements.id, id));
        expect(row?.status).toBe('done');
      },
      { timeoutMs: 20_000 },
    );

  it('should fix the recipients by audience when posted', async () => {
    const active = await member(30);
    const expiring = await member(5);
    const expired = await member(-2);
    const forever = await member(null);
    const inactive = await member(30);
    await env.t.context.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));

    const counts: Record<string, number> = {};
    for (const audience of ['all', 'active', 'expiring', 'expired']) {
      const res = await post({ audience });
      expect(res.status).toBe(202);
      counts[audience] = res.body.recipients;
    }
    expect(counts).toEqual({ all: 4, active: 3, expiring: 1, expired: 1 });
    const seen = async (m: { token: string }) =>
      (await call('GET', '/api/v1/me/announcements', m.token)).body.unread;
    expect(await seen(active)).toBe(2); // all, active
    expect(await seen(expiring)).toBe(3); // all, active, expiring
    expect(await seen(expired)).toBe(2); // all, expired
    expect(await seen(forever)).toBe(2);
    const inactiveRows = await env.t.context.db
      .select()
      .from(announcementRecipients)
      .where(eq(announcementRecipients.userId, inactive.id));
    expect(inactiveRows).toEqual([]);
    const audit = await env.t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'announcement.create'));
    expect(audit).toHaveLength(4);
  });

  it('should send it once per recipient by mail and by the bot, and count it', async () => {
    const linked = await member(30);
    const mailOnly = await member(30, false);
    const optedOut = await member(30);
    await env.t.context.db
      .update(users)
      .set({ notifyEmail: false })
      .where(eq(users.id, optedOut.id));

    const res = await post({ channels: ['email', 'messenger'], title: 'New library' });
    expect(res).toMatchObject({ status: 202, body: { recipients: 3 } });
    await finished(res.body.id);

    expect(env.mailsTo(linked.email)).toHaveLength(1);
    expect(env.mailsTo(linked.email)[0]!.subject).toBe('New library');
    expect(env.mailsTo(mailOnly.email)).toHaveLength(1);
    expect(env.mailsTo(optedOut.email)).toEqual([]);
    const [dm] = env.dmsTo(linked.messengerId!);
    expect(dm).toMatchObject({ notice: 'announcement', userId: linked.id });
    expect(dm!.text).toBe('📢 New library\n\nThe server restarts on Sunday at 02:00.');
    expect(env.dmsTo(optedOut.messengerId!)).toHaveLength(1);

    const list = await call('GET', '/api/v1/admin/announcements', adminToken);
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({
      id: res.body.id,
      status: 'done',
      recipients: 3,
      read: 0,
      email: { sent: 2, failed: 0, skipped: 1 },
      messenger: { sent: 2, failed: 0, skipped: 1 },
    });
    // A second run finds nothing to send.
    const again = await runAnnouncements(env.t.context, {
      signal: new AbortController().signal,
      logger: memoryLogger().logger,
    });
    expect(again.status).toBe('skipped');
    expect(env.mailsTo(linked.email)).toHaveLength(1);
  });

  it('should show it to the member until read', async () => {
    const m = await member(30);
    const other = await member(30);
    const res = await post({ title: 'Welcome' });
    await env.t.context.db.update(users).set({ isActive: false }).where(eq(users.id, other.id));
    const mine = await call('GET', '/api/v1/me/announcements', m.token);
    expect(mine.body).toMatchObject({ unread: 1 });
    expect(mine.body.data[0]).toMatchObject({ id: res.body.id, title: 'Welcome', read: false });

    const read = await call('POST', `/api/v1/me/announcements/${res.body.id}/read`, m.token);
    expect(read.status).toBe(204);
    expect(
      (await call('POST', `/api/v1/me/announcements/${res.body.id}/read`, m.token)).status,
    ).toBe(204);
    const after = await call('GET', '/api/v1/me/announcements', m.token);
    expect(after.body).toMatchObject({ unread: 0 });
    expect(after.body.data[0]).toMatchObject({ id: res.body.id, read: true });

    // Not a recipient: posted before the account existed.
    const late = await member(30);
    const notMine = await call('POST', `/api/v1/me/announcements/${res.body.id}/read`, late.token);
    expect(notMine.status).toBe(404);
    expect((await call('POST', '/api/v1/me/announcements/nope/read', late.token)).status).toBe(400);
  });

  it('should refuse a bad announcement and create nothing', async () => {
    const before = (await env.t.context.db.select().from(announcements)).length;
    for (const body of [
      { audience: 'everyone' },
      { title: '' },
      { title: '   ' },
      { body: 'x'.repeat(3001) },
      { channels: ['email', 'email'] },
      { channels: ['webhook'] },
      { extra: true },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await env.t.context.db.select().from(announcements)).toHaveLength(before);
    const m = await member(30);
    expect((await call('POST', '/api/v1/admin/announcements', m.token, {})).status).toBe(403);
  });

  it('should retry a failed bot delivery on the next runs, and finish', async () => {
    const m = await member(30);
    // What the bot answers when Telegram refused the only delivery.
    env.bot.status = 502;
    env.bot.reply = () => ({
      error: { code: 'DELIVERY_FAILED', message: 'Every delivery failed', details: [] },
    });
    const res = await post({ channels: ['messenger'] });
    await eventually(async () => {
      const rows = await env.t.context.db
        .select()
        .from(memberNotices)
        .where(eq(memberNotices.userId, m.id));
      expect(rows).toMatchObject([{ status: 'failed', attempts: 1 }]);
    });
    const [row] = await env.t.context.db
      .select({ status: announcements.status })
      .from(announcements)
      .where(eq(announcements.id, res.body.id));
    expect(row!.status).toBe('sending');

    env.bot.status = 200;
    env.bot.reply = () => ({ ok: true, deliveries: [] });
    const run = { signal: new AbortController().signal, logger: memoryLogger().logger };
    await runAnnouncements(env.t.context, run);
    await finished(res.body.id);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(2);
    const [notice] = await env.t.context.db
      .select()
      .from(memberNotices)
      .where(eq(memberNotices.userId, m.id));
    expect(notice).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('should pace the bot below 30 messages a second and reach each member once, with two runs racing', async () => {
    const members = [];
    for (let i = 0; i < 60; i += 1) members.push(await member(30));
    const at: number[] = [];
    env.bot.reply = () => {
      at.push(Date.now());
      return { ok: true, deliveries: [] };
    };
    // Inserted directly, so only the two runs below send it.
    const res = await post({ channels: [] });
    await env.t.context.db
      .update(announcements)
      .set({ channels: ['messenger'], status: 'sending' })
      .where(eq(announcements.id, res.body.id));
    const run = { signal: new AbortController().signal, logger: memoryLogger().logger };
    await Promise.all([runAnnouncements(env.t.context, run), runAnnouncements(env.t.context, run)]);
    // Two runs at once (the job lease prevents it in a deployment; the claims hold without it).
    for (const m of members) expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
    expect(at).toHaveLength(60);
    // One run keeps to 25 a second: in no second more than 26 sends (both ends of the window).
    at.length = 0;
    const more = await post({ channels: [] });
    await env.t.context.db
      .update(announcements)
      .set({ channels: ['messenger'], status: 'sending' })
      .where(eq(announcements.id, more.body.id));
    await runAnnouncements(env.t.context, run);
    expect(at).toHaveLength(60);
    const alone = Math.max(...at.map((t) => at.filter((u) => u >= t && u < t + 1000).length));
    expect(alone).toBeLessThanOrEqual(26);
    expect(at[at.length - 1]! - at[0]!).toBeGreaterThanOrEqual((59 * 1000) / 25 - 50);
  }, 30_000);
});
