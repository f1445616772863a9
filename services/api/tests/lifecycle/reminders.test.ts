import { NotifyMember } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { dueThreshold, runReminders } from '../../src/modules/lifecycle/index.js';
import { ENGINE } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { aUser } from '../support/users.js';
import { DAY, HOUR, lifecycleEnv, type LifecycleEnv } from './harness.js';

let seq = 0;

describe('dueThreshold', () => {
  const now = new Date('2026-12-07T00:00:00Z');
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  it('should pick the tightest threshold already reached, and none before the widest', () => {
    expect(dueThreshold(at(8), now, [7, 3, 1])).toBeNull();
    expect(dueThreshold(at(7), now, [7, 3, 1])).toBe(7);
    expect(dueThreshold(at(2.5), now, [7, 3, 1])).toBe(3);
    expect(dueThreshold(at(0.1), now, [1, 3, 7])).toBe(1);
    expect(dueThreshold(at(-0.1), now, [7, 3, 1])).toBeNull();
  });
});

describe(`membership_reminders job (${ENGINE})`, () => {
  let env: LifecycleEnv;

  beforeAll(async () => {
    env = await lifecycleEnv();
  }, 60_000); // a PGlite database migrates slowly while other suites share the cores
  afterAll(async () => {
    await env.close();
  });
  afterEach(async () => {
    // Each test starts from the defaults, with no member left due from an earlier one.
    await env.t.context.db.update(users).set({ expiresAt: null }).where(eq(users.role, 'user'));
    await env.set({
      REMINDER_DAYS: null,
      REMINDER_CHANNELS: null,
      NOTIFY_WEBHOOK_URL: null,
      NOTIFY_WEBHOOK_FORMAT: null,
    });
    env.sink.status = 204;
  });

  /** A member ending `days` from the app's now, with an address and a Telegram id. */
  const member = async (
    days: number,
    extra: { locale?: 'en' | 'zh-CN'; email?: boolean; messenger?: boolean } = {},
  ) => {
    const n = ++seq;
    const name = `member_${n}`;
    const builder = aUser()
      .named(name)
      .expiresAt(new Date(env.now().getTime() + days * DAY));
    if (extra.email !== false) builder.withEmail(`${name}@example.org`);
    const row = await builder.create(env.t.context.db);
    const messengerId = extra.messenger === false ? null : 500_000 + n;
    await env.t.context.db
      .update(users)
      .set({ messengerId, locale: extra.locale ?? null })
      .where(eq(users.id, row.id));
    return { ...row, email: extra.email === false ? null : `${name}@example.org`, messengerId };
  };

  it('should remind once per threshold over mail and messenger, and not again on the next run', async () => {
    const m = await member(6.5);

    const first = await env.runJob();
    expect(first).toMatchObject({ status: 'succeeded', summary: { reminded: 1, failed: 0 } });
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
    expect(await env.remindersOf(m.id)).toEqual([
      { days: 7, expiresAt: m.expiresAt, channels: { email: 'sent', messenger: 'sent' } },
    ]);

    const again = await env.runJob();
    expect(again.summary).toMatchObject({ reminded: 0, alreadyReminded: 1 });
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(1);

    env.advance(4 * DAY); // 2.5 days left: the 3-day threshold
    await env.runJob();
    await env.runJob();
    env.advance(2 * DAY); // 12 hours left: the 1-day threshold
    await env.runJob();
    expect(env.mailsTo(m.email!)).toHaveLength(3);
    expect((await env.remindersOf(m.id)).map((r) => r.days)).toEqual([7, 3, 1]);
    env.advance(DAY); // ended: nothing more
    expect((await env.runJob()).summary).toMatchObject({ reminded: 0 });
    expect(env.mailsTo(m.email!)).toHaveLength(3);
  });

  it('should send one reminder, for the tightest threshold, to a member found late', async () => {
    const m = await member(2);
    await env.runJob();
    expect(await env.remindersOf(m.id)).toMatchObject([{ days: 3 }]);
    expect(env.mailsTo(m.email!)).toHaveLength(1);
  });

  it('should remind again after a renewal moved the end', async () => {
    const m = await member(2);
    await env.runJob();
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    const admin = await aUser().admin().create(env.t.context.db);
    const token = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;

    const renewed = await env.t.call('POST', `/api/v1/admin/users/${m.id}/extend`, {
      token,
      body: { days: 3 },
    });
    expect(renewed.status).toBe(200);
    await env.runJob(); // 5 days left on the new end: its 7-day reminder
    const rows = await env.remindersOf(m.id);
    expect(rows.map((r) => r.days)).toEqual([7, 3]);
    expect(rows[0]!.expiresAt.getTime()).toBe(m.expiresAt!.getTime() + 3 * DAY);
    expect(env.mailsTo(m.email!)).toHaveLength(2);
  });

  it('should not remind never-expiring, expired, disabled, switched-off or admin accounts', async () => {
    const forever = await member(1);
    const expired = await member(-0.5);
    const inactive = await member(1);
    const switchedOff = await member(1);
    const admin = await aUser().admin().withEmail('boss@example.org').create(env.t.context.db);
    const { db } = env.t.context;
    await db.update(users).set({ expiresAt: null }).where(eq(users.id, forever.id));
    await db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    await db.update(users).set({ mediaAccessDisabled: true }).where(eq(users.id, switchedOff.id));

    const run = await env.runJob();
    expect(run).toMatchObject({ status: 'skipped', summary: { checked: 0, reminded: 0 } });
    for (const m of [forever, expired, inactive, switchedOff]) {
      expect(env.mailsTo(m.email!)).toEqual([]);
      expect(await env.remindersOf(m.id)).toEqual([]);
    }
    expect(env.mailsTo('boss@example.org')).toEqual([]);
    expect(admin.role).toBe('admin');
  });

  it("should write in the member's language, with the renew link and the site name", async () => {
    const zh = await member(0.5, { locale: 'zh-CN' });
    const en = await member(0.5);
    await env.runJob();

    const [zhMail] = env.mailsTo(zh.email!);
    expect(zhMail!.subject).toBe('Cinema Club：会员将在 1 天后到期');
    expect(zhMail!.text).toContain(`${zh.username}，你好`);
    expect(zhMail!.text).toContain('https://usher.example/console/renewal');
    const [dm] = env.dmsTo(zh.messengerId!);
    const body = NotifyMember.parse(dm);
    expect(body).toMatchObject({ notice: 'membership_reminder', locale: 'zh-CN', userId: zh.id });
    expect(body.text).toContain('剩余 1 天');

    const [enMail] = env.mailsTo(en.email!);
    expect(enMail!.subject).toBe('Cinema Club: your membership ends in 1 day(s)');
    expect(enMail!.text).toContain(`Hi ${en.username},`);
    expect(enMail!.text).toContain('ends on 2026-12-');
    expect(enMail!.html).toContain('<h2>Cinema Club</h2>');
  });

  it("should use the operator's template", async () => {
    await env.set({
      REMINDER_TEMPLATE_EN: '{username} has {daysLeft}d until {expiresAt}: {renewUrl}',
    });
    try {
      const m = await member(2.5);
      await env.runJob();
      const [mail] = env.mailsTo(m.email!);
      const end = m.expiresAt!.toISOString().slice(0, 16).replace('T', ' ');
      expect(mail!.text).toBe(
        `${m.username} has 3d until ${end} UTC: https://usher.example/console/renewal\n`,
      );
    } finally {
      await env.set({ REMINDER_TEMPLATE_EN: null });
    }
  });

  it('should use only the channels switched on, and skip members it cannot reach', async () => {
    await env.set({ REMINDER_CHANNELS: ['email'] });
    const both = await member(1);
    const telegramOnly = await member(1, { email: false });
    const run = await env.runJob();
    expect(run.summary).toMatchObject({ reminded: 1, unreachable: 1 });
    expect(env.mailsTo(both.email!)).toHaveLength(1);
    expect(env.dmsTo(both.messengerId!)).toEqual([]);
    expect(env.dmsTo(telegramOnly.messengerId!)).toEqual([]);
    expect(await env.remindersOf(telegramOnly.id)).toEqual([]);

    await env.set({ REMINDER_DAYS: [] });
    const off = await member(1);
    expect(await env.runJob()).toMatchObject({ status: 'skipped' });
    expect(env.mailsTo(off.email!)).toEqual([]);
  });

  it('should release the claim when every channel failed, and deliver on the next run', async () => {
    await env.set({
      REMINDER_CHANNELS: ['webhook'],
      NOTIFY_WEBHOOK_URL: `${env.sink.url}/hook/secret-token-1234`,
    });
    const m = await member(1);
    env.sink.status = 500;
    const failed = await env.runJob();
    expect(failed.summary).toMatchObject({ reminded: 0, failed: 1 });
    expect(await env.remindersOf(m.id)).toEqual([]);

    env.sink.status = 204;
    const retried = await env.runJob();
    expect(retried.summary).toMatchObject({ reminded: 1 });
    expect(await env.remindersOf(m.id)).toMatchObject([{ days: 1, channels: { webhook: 'sent' } }]);
    // The address is a secret: neither the logs nor the run's summary carry it.
    expect(JSON.stringify(env.t.logs.lines())).not.toContain('secret-token');
    expect(JSON.stringify([failed, retried])).not.toContain('secret-token');
  });

  it('should remind each member once when two runs race (two replicas)', async () => {
    const members = await Promise.all([1, 2, 3, 4].map(() => member(1)));
    const run = { signal: new AbortController().signal, logger: memoryLogger().logger };
    const [a, b] = await Promise.all([
      runReminders(env.t.context, run),
      runReminders(env.t.context, run),
    ]);
    expect((a.summary!.reminded as number) + (b.summary!.reminded as number)).toBe(4);
    for (const m of members) expect(env.mailsTo(m.email!)).toHaveLength(1);
  });

  it('should page through more members than one batch', async () => {
    await env.set({ REMINDER_CHANNELS: ['messenger'] });
    const many = [];
    for (let i = 0; i < 230; i += 1) {
      many.push(await member(1 - ((i % 5) * HOUR) / DAY, { email: false }));
    }
    const run = await env.runJob();
    expect(run.summary).toMatchObject({ checked: 230, reminded: 230 });
    for (const m of many) expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
  }, 60_000);
});
