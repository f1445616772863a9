// Inactivity (docs/lifecycle.md): INACTIVITY_DISABLE_DAYS without playback (the Playback
// Reporting plugin on the Emby fake) → one warning, then media access switched off seven days
// later, unless the member played or an admin exempted them.
import { eq } from 'drizzle-orm';
import { auditLog, memberNotices, users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { DAY, lifecycleEnv, type LifecycleEnv } from './harness.js';

describe(`inactivity watch (${ENGINE})`, () => {
  let env: LifecycleEnv;
  let adminToken: string;
  let seq = 0;

  beforeAll(async () => {
    env = await lifecycleEnv(new Date('2026-12-07T10:00:00.000Z'), { media: true });
    const admin = await aUser().admin().create(env.t.context.db);
    adminToken = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    await env.set({ INACTIVITY_DISABLE_DAYS: 30 });
  }, 60_000);
  afterAll(async () => {
    await env.close();
  });
  afterEach(async () => {
    // Members of one test are no one else's concern.
    await env.t.context.db.update(users).set({ isActive: false }).where(eq(users.role, 'user'));
    env.media!.state.playback.installed = true;
  });

  const runWatch = async () => {
    const { runId, done } = await env.t.context.scheduler.runNow('inactivity_watch');
    return { runId, status: await done };
  };
  /** A linked member who joined `joinedDaysAgo` days ago. */
  const member = async (joinedDaysAgo = 60) => {
    const name = `idle_${++seq}`;
    const server = await env.t.context.integrations.mediaServer.get();
    const media = await server.createUser(name, 'media-pw-1');
    const row = await aUser()
      .named(name)
      .withEmail(`${name}@example.org`)
      .linkedTo(media.id)
      .expiresAt(new Date(env.now().getTime() + 365 * DAY))
      .create(env.t.context.db);
    await env.t.context.db
      .update(users)
      .set({ createdAt: new Date(env.now().getTime() - joinedDaysAgo * DAY) })
      .where(eq(users.id, row.id));
    return { ...row, email: `${name}@example.org`, mediaUserId: media.id };
  };
  /** A play as the plugin records it (`MEDIA_SERVER_TIMEZONE` is UTC here). */
  const play = (mediaUserId: string, daysAgo: number) => {
    const at = new Date(env.now().getTime() - daysAgo * DAY);
    env.media!.state.playback.insert({
      DateCreated: `${at.toISOString().replace('T', ' ').replace('Z', '')}0000`,
      UserId: mediaUserId,
      ItemId: '1',
      ItemType: 'Movie',
      ItemName: 'A film',
      PlaybackMethod: 'DirectPlay',
      ClientName: 'Emby Web',
      DeviceName: 'Firefox',
      PlayDuration: 3600,
    });
  };
  const rowOf = async (id: string) =>
    (await env.t.context.db.select().from(users).where(eq(users.id, id)))[0]!;
  const disabledOnServer = (mediaUserId: string) =>
    env.media!.state.users.get(mediaUserId)!.policy.IsDisabled;

  it('should warn once after the idle days and switch access off seven days later', async () => {
    const idle = await member();
    const watcher = await member();
    play(watcher.mediaUserId, 5);
    await runWatch();
    expect(env.mailsTo(watcher.email)).toEqual([]);
    const [mail] = env.mailsTo(idle.email);
    expect(mail!.subject).toMatch(/^Cinema Club: we miss you — your access pauses on \d{4}-/);
    expect(mail!.text).toContain('for 30 days');
    const notices = await env.t.context.db
      .select()
      .from(memberNotices)
      .where(eq(memberNotices.userId, idle.id));
    expect(notices.map((n) => `${n.kind}/${n.channel}/${n.status}`).sort()).toEqual([
      'inactivity_warning/email/sent',
      'inactivity_warning/messenger/skipped', // not linked to the bot
    ]);

    await runWatch(); // warned once
    env.advance(6 * DAY);
    await runWatch(); // a day early
    expect(env.mailsTo(idle.email)).toHaveLength(1);
    expect((await rowOf(idle.id)).mediaAccessDisabled).toBe(false);

    env.advance(DAY);
    await runWatch();
    expect(await rowOf(idle.id)).toMatchObject({ mediaAccessDisabled: true, isActive: true });
    expect(disabledOnServer(idle.mediaUserId)).toBe(true);
    expect(disabledOnServer(watcher.mediaUserId)).toBe(false);
    const audit = await env.t.context.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, idle.id));
    expect(audit.map((a) => a.action)).toContain('user.inactivity_disabled');

    // Switched back on by an admin: a new warning, and another week.
    const on = await env.t.call('PUT', `/api/v1/admin/users/${idle.id}/media-access`, {
      token: adminToken,
      body: { enabled: true },
    });
    expect(on.status).toBe(200);
    await runWatch();
    expect(env.mailsTo(idle.email)).toHaveLength(2);
    expect((await rowOf(idle.id)).mediaAccessDisabled).toBe(false);
  });

  it('should keep a member who plays after the warning', async () => {
    const m = await member();
    await runWatch();
    expect(env.mailsTo(m.email)).toHaveLength(1);
    env.advance(3 * DAY);
    play(m.mediaUserId, 1);
    env.advance(5 * DAY);
    await runWatch();
    expect((await rowOf(m.id)).mediaAccessDisabled).toBe(false);
    expect(env.mailsTo(m.email)).toHaveLength(1);
  });

  it('should leave new members and exempted members alone', async () => {
    const fresh = await member(10);
    const exempt = await member();
    await runWatch();
    expect(env.mailsTo(fresh.email)).toEqual([]);
    expect(env.mailsTo(exempt.email)).toHaveLength(1);
    const res = await env.t.call('PUT', `/api/v1/admin/users/${exempt.id}/inactivity-exempt`, {
      token: adminToken,
      body: { exempt: true },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ userId: exempt.id, exempt: true });
    env.advance(8 * DAY);
    await runWatch();
    expect(await rowOf(exempt.id)).toMatchObject({
      inactivityExempt: true,
      mediaAccessDisabled: false,
    });
    const bad = await env.t.call('PUT', `/api/v1/admin/users/${exempt.id}/inactivity-exempt`, {
      token: adminToken,
      body: { exempt: 'yes' },
    });
    expect(bad.status).toBe(400);
  });

  it('should send the inactivity warning in the words the operator saved', async () => {
    const saved = await env.t.call('PUT', '/api/v1/admin/settings/lifecycle', {
      token: adminToken,
      body: {
        values: {
          INACTIVITY_WARNING_SUBJECT_EN: '{username}: {days} quiet days',
          INACTIVITY_WARNING_TEMPLATE_EN: 'Play something on {siteName} before {disableAt}.',
        },
      },
    });
    expect(saved.status).toBe(200);
    try {
      const m = await member();
      await runWatch();
      const disableAt = new Date(env.now().getTime() + 7 * DAY);
      const [mail] = env.mailsTo(m.email);
      expect(mail!.subject).toBe(`${m.username}: 30 quiet days`);
      expect(mail!.text).toMatch(
        new RegExp(
          `^Play something on Cinema Club before ${disableAt.toISOString().slice(0, 16).replace('T', ' ')} UTC\\.\\n`,
        ),
      );
    } finally {
      await env.set({ INACTIVITY_WARNING_SUBJECT_EN: null, INACTIVITY_WARNING_TEMPLATE_EN: null });
    }
  });

  it('should do nothing without the Playback Reporting plugin', async () => {
    const m = await member();
    env.media!.state.playback.installed = false;
    const run = await runWatch();
    expect(run.status).toBe('skipped');
    expect(env.mailsTo(m.email)).toEqual([]);
    env.advance(8 * DAY);
    await runWatch();
    expect((await rowOf(m.id)).mediaAccessDisabled).toBe(false);
  });
});
