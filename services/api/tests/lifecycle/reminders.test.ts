import { NotifyMember } from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { dueThreshold, runReminders } from '../../src/modules/lifecycle/index.js';
import { ENGINE } from '../support/database.js';
import { memoryLogger } from '../support/logs.js';
import { createTestApp } from '../support/app.js';
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

describe(`expiry_reminders job (${ENGINE})`, () => {
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
    env.sink.calls.length = 0;
    await env.smtp.faults.clear();
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
  const lines = async (userId: string) =>
    (await env.noticesOf(userId)).map((n) => `${n.days}/${n.channel}/${n.status}/${n.attempts}`);

  it('should remind once per threshold on every channel, and not again on the next run', async () => {
    const m = await member(6.5);

    const first = await env.runJob();
    expect(first).toMatchObject({
      status: 'succeeded',
      summary: { checked: 1, reminded: 1, sent: 2, failed: 0, skipped: 0 },
    });
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
    expect(await lines(m.id)).toEqual(['7/email/sent/1', '7/messenger/sent/1']);
    expect((await env.noticesOf(m.id))[0]!.expiresAt).toEqual(m.expiresAt);

    const again = await env.runJob();
    expect(again).toMatchObject({ status: 'skipped', summary: { sent: 0, alreadyDone: 2 } });
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(1);

    env.advance(4 * DAY); // 2.5 days left: the 3-day threshold
    await env.runJob();
    await env.runJob();
    env.advance(2 * DAY); // 12 hours left: the 1-day threshold
    await env.runJob();
    expect(env.mailsTo(m.email!)).toHaveLength(3);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(3);
    expect(await lines(m.id)).toEqual([
      '7/email/sent/1',
      '7/messenger/sent/1',
      '3/email/sent/1',
      '3/messenger/sent/1',
      '1/email/sent/1',
      '1/messenger/sent/1',
    ]);
    env.advance(DAY); // ended: nothing more
    expect((await env.runJob()).summary).toMatchObject({ checked: 0, sent: 0 });
    expect(env.mailsTo(m.email!)).toHaveLength(3);
  });

  it('should send one reminder, for the tightest threshold, after an outage', async () => {
    const m = await member(8);
    expect((await env.runJob()).summary).toMatchObject({ checked: 0 });
    env.advance(6 * DAY); // five days without a run: the 7- and 3-day thresholds both passed
    await env.runJob();
    expect(await lines(m.id)).toEqual(['3/email/sent/1', '3/messenger/sent/1']);
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
  });

  it('should stop the old reminders after a renewal and start the new end cycle', async () => {
    const m = await member(2);
    await env.runJob();
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    const admin = await aUser().admin().create(env.t.context.db);
    const token = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;

    const renewed = await env.t.call('POST', `/api/v1/admin/users/${m.id}/extend`, {
      token,
      body: { days: 30 },
    });
    expect(renewed.status).toBe(200);
    env.advance(1.5 * DAY); // the old end's 1-day threshold would be due now: not sent
    await env.runJob();
    expect(env.mailsTo(m.email!)).toHaveLength(1);
    env.advance(24 * DAY); // 6.5 days left on the new end: its 7-day reminder
    await env.runJob();
    const rows = await env.noticesOf(m.id);
    expect(rows.filter((r) => r.channel === 'email').map((r) => r.days)).toEqual([7, 3]);
    expect(rows[0]!.expiresAt!.getTime()).toBe(m.expiresAt!.getTime() + 30 * DAY);
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
      expect(await env.noticesOf(m.id)).toEqual([]);
    }
    expect(env.mailsTo('boss@example.org')).toEqual([]);
    expect(admin.role).toBe('admin');
  });

  it("should write in the member's language, with the renew link, the Renew button and one-click unsubscribe", async () => {
    const zh = await member(0.5, { locale: 'zh-CN' });
    const en = await member(0.5);
    await env.runJob();

    const [zhMail] = env.mailsTo(zh.email!);
    expect(zhMail!.subject).toBe('Cinema Club：会员将在 1 天后到期');
    expect(zhMail!.text).toContain(`${zh.username}，你好`);
    expect(zhMail!.text).toContain('https://usher.example/console/renewal?from=reminder');
    expect(zhMail!.text).toContain('不再接收此类邮件: https://usher.example/unsubscribe?token=');
    const [dm] = env.dmsTo(zh.messengerId!);
    const body = NotifyMember.parse(dm);
    expect(body).toMatchObject({
      notice: 'membership_reminder',
      locale: 'zh-CN',
      userId: zh.id,
      renewUrl: 'https://usher.example/console/renewal?from=reminder',
    });
    expect(body.text).toContain('剩余 1 天');

    const [enMail] = env.mailsTo(en.email!);
    expect(enMail!.subject).toBe('Cinema Club: your membership ends in 1 day(s)');
    expect(enMail!.text).toContain(`Hi ${en.username},`);
    expect(enMail!.text).toMatch(/ends on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(enMail!.html).toContain('<h2>Cinema Club</h2>');
    expect(enMail!.html).toContain('>Stop these e-mails</a>');
    // RFC 8058: the one-click target is the API route, signed for this member.
    const header = enMail!.headers.get('list-unsubscribe')?.[0] ?? '';
    expect(header).toMatch(
      new RegExp(
        `^<https://usher\\.example/api/v1/public/unsubscribe\\?token=${en.id}\\.email\\.[\\w-]+>$`,
      ),
    );
    expect(enMail!.headers.get('list-unsubscribe-post')).toEqual(['List-Unsubscribe=One-Click']);
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
      expect(mail!.text!.split('\n')[0]).toBe(
        `${m.username} has 3d until ${end} UTC: https://usher.example/console/renewal?from=reminder`,
      );
    } finally {
      await env.set({ REMINDER_TEMPLATE_EN: null });
    }
  });

  it('should use only the channels switched on, and record the ones that cannot reach a member as skipped', async () => {
    await env.set({ REMINDER_CHANNELS: ['email', 'webhook'] });
    const both = await member(1);
    const telegramOnly = await member(1, { email: false });
    const run = await env.runJob();
    expect(run.summary).toMatchObject({ checked: 2, reminded: 1, sent: 1, skipped: 1 });
    expect(env.mailsTo(both.email!)).toHaveLength(1);
    expect(env.dmsTo(both.messengerId!)).toEqual([]);
    expect(env.dmsTo(telegramOnly.messengerId!)).toEqual([]);
    // What the member lacks is recorded; a channel not configured yet is not, but counted.
    expect(await env.noticesOf(telegramOnly.id)).toMatchObject([
      { days: 1, channel: 'email', status: 'skipped', detail: 'the member has no e-mail address' },
    ]);
    expect(run.summary).toMatchObject({ unconfigured: 2 });
    // Recorded once: the next run neither sends nor records again.
    expect((await env.runJob()).summary).toMatchObject({ sent: 0, skipped: 0, alreadyDone: 2 });
    // The webhook configured later reaches both members for the reminder still open.
    await env.set({ NOTIFY_WEBHOOK_URL: `${env.sink.url}/hook/late` });
    expect((await env.runJob()).summary).toMatchObject({ sent: 2, unconfigured: 0 });
    expect(env.sink.calls).toHaveLength(2);

    await env.set({ REMINDER_DAYS: [] });
    const off = await member(1);
    expect(await env.runJob()).toMatchObject({ status: 'skipped' });
    expect(env.mailsTo(off.email!)).toEqual([]);
  });

  it('should retry a failed channel on the next runs, three tries in all, without resending the others', async () => {
    await env.set({
      REMINDER_CHANNELS: ['email', 'webhook'],
      NOTIFY_WEBHOOK_URL: `${env.sink.url}/hook/secret-token-1234`,
    });
    const m = await member(1);
    env.sink.status = 500;
    const failed = await env.runJob();
    expect(failed.summary).toMatchObject({ reminded: 1, sent: 1, failed: 1 });
    expect(await env.noticesOf(m.id)).toMatchObject([
      { channel: 'email', status: 'sent', attempts: 1 },
      {
        channel: 'webhook',
        status: 'failed',
        attempts: 1,
        detail: 'the notification webhook answered 500',
      },
    ]);
    await env.runJob();
    await env.runJob();
    await env.runJob(); // a fourth run: out of tries
    expect(env.sink.calls).toHaveLength(3);
    expect(await lines(m.id)).toEqual(['1/email/sent/1', '1/webhook/failed/3']);
    expect(env.mailsTo(m.email!)).toHaveLength(1);

    // A failure that clears within the tries is delivered.
    const later = await member(0.9);
    await env.runJob();
    env.sink.status = 204;
    const retried = await env.runJob();
    expect(retried.summary).toMatchObject({ sent: 1 });
    expect(await lines(later.id)).toEqual(['1/email/sent/1', '1/webhook/sent/2']);
    // The address is a secret: neither the logs nor the run's summary carry it.
    expect(JSON.stringify(env.t.logs.lines())).not.toContain('secret-token');
    expect(JSON.stringify([failed, retried])).not.toContain('secret-token');
  });

  it('should record SMTP down as failed, retry it, then send', async () => {
    await env.set({ REMINDER_CHANNELS: ['email'] });
    const m = await member(2);
    await env.smtp.faults.down();
    expect((await env.runJob()).summary).toMatchObject({ failed: 1, sent: 0 });
    expect(await env.noticesOf(m.id)).toMatchObject([
      { channel: 'email', status: 'failed', attempts: 1 },
    ]);
    await env.smtp.faults.up();
    expect((await env.runJob()).summary).toMatchObject({ sent: 1 });
    expect(await lines(m.id)).toEqual(['3/email/sent/2']);
    expect(env.mailsTo(m.email!)).toHaveLength(1);
  });

  it("should honour the member's opt-out per channel", async () => {
    const m = await member(1);
    await env.t.context.db.update(users).set({ notifyEmail: false }).where(eq(users.id, m.id));
    await env.runJob();
    expect(env.mailsTo(m.email!)).toEqual([]);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
    expect(await env.noticesOf(m.id)).toMatchObject([
      { channel: 'email', status: 'skipped', detail: 'the member opted out of e-mail' },
      { channel: 'messenger', status: 'sent' },
    ]);
  });

  it('should remind each member once per channel when two runs race (two replicas)', async () => {
    const members = await Promise.all([1, 2, 3, 4].map(() => member(1)));
    const run = { signal: new AbortController().signal, logger: memoryLogger().logger };
    const [a, b] = await Promise.all([
      runReminders(env.t.context, run),
      runReminders(env.t.context, run),
    ]);
    expect((a.summary!.sent as number) + (b.summary!.sent as number)).toBe(8);
    for (const m of members) {
      expect(env.mailsTo(m.email!)).toHaveLength(1);
      expect(env.dmsTo(m.messengerId!)).toHaveLength(1);
    }
  });

  it('should send 7, 3 and 1 exactly once per channel while two replicas run every 15 minutes for 9 days', async () => {
    await env.set({
      REMINDER_CHANNELS: ['email', 'messenger', 'webhook'],
      NOTIFY_WEBHOOK_URL: `${env.sink.url}/hook/replicas`,
    });
    const m = await member(8);
    // A second replica: its own app on its own connection to the same database (PGlite has one).
    const replica = createTestApp(await env.database.connectAnother(), {
      config: env.t.config, // the same secrets, as replicas of one deployment share them
      now: env.now,
      replicaId: 'replica-b',
      settingsEnv: env.settingsEnv,
    });
    const run = { signal: new AbortController().signal, logger: memoryLogger().logger };
    for (let tick = 0; tick < 9 * 96; tick += 1) {
      await Promise.all([runReminders(env.t.context, run), runReminders(replica.context, run)]);
      env.advance(15 * 60_000);
    }
    await replica.context.notify.idle();
    // Each reminder once per channel. A delivery that failed on the way (a connection reset
    // under load) is tried again by the next run, so `attempts` may exceed 1; `sent` may not
    // happen twice.
    const notices = await env.noticesOf(m.id);
    expect(notices.map((n) => `${n.days}/${n.channel}/${n.status}`)).toEqual([
      '7/email/sent',
      '7/messenger/sent',
      '7/webhook/sent',
      '3/email/sent',
      '3/messenger/sent',
      '3/webhook/sent',
      '1/email/sent',
      '1/messenger/sent',
      '1/webhook/sent',
    ]);
    expect(env.mailsTo(m.email!)).toHaveLength(3);
    expect(env.dmsTo(m.messengerId!)).toHaveLength(3);
    expect(env.sink.calls.filter((c) => c.body.includes(m.id))).toHaveLength(3);
  }, 120_000);

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
