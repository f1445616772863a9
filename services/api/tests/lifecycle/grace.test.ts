// The grace period after a membership ends (docs/lifecycle.md): with
// MEDIA_ACCOUNT_DELETE_AFTER_DAYS the `media_account_cleanup` job warns an expired member three
// days before, then deletes the media-server account — never the Usher account — through the
// retry queue; a renewal in between keeps the account.
import { and, eq } from 'drizzle-orm';
import {
  auditLog,
  mediaServerRetryQueue,
  memberNotices,
  users,
} from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { DAY, HOUR, lifecycleEnv, type LifecycleEnv } from './harness.js';

describe(`grace period and media account deletion (${ENGINE})`, () => {
  let env: LifecycleEnv;
  let adminToken: string;
  let seq = 0;

  beforeAll(async () => {
    env = await lifecycleEnv(new Date('2026-12-07T10:00:00.000Z'), { media: true });
    const admin = await aUser().admin().create(env.t.context.db);
    adminToken = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    await env.set({ MEDIA_ACCOUNT_DELETE_AFTER_DAYS: 10 });
  }, 60_000);
  afterAll(async () => {
    await env.close();
  });

  const runGraceJob = async () => {
    const { runId, done } = await env.t.context.scheduler.runNow('media_account_cleanup');
    await done;
    return runId;
  };
  /** A member linked to a media account on the fake, ending `days` from the app's now. */
  const member = async (days: number) => {
    const name = `grace_${++seq}`;
    const server = await env.t.context.integrations.mediaServer.get();
    const media = await server.createUser(name, 'media-pw-1');
    const row = await aUser()
      .named(name)
      .withEmail(`${name}@example.org`)
      .linkedTo(media.id, { mediaDisabled: days < 0 })
      .expiresAt(new Date(env.now().getTime() + days * DAY))
      .create(env.t.context.db);
    await env.t.context.db
      .update(users)
      .set({ messengerId: 900_000 + seq })
      .where(eq(users.id, row.id));
    return { ...row, email: `${name}@example.org`, mediaUserId: media.id };
  };
  const rowOf = async (id: string) =>
    (await env.t.context.db.select().from(users).where(eq(users.id, id)))[0]!;
  const warningsOf = async (id: string) =>
    env.t.context.db
      .select()
      .from(memberNotices)
      .where(and(eq(memberNotices.userId, id), eq(memberNotices.kind, 'deletion_warning')));

  it('should warn three days before, then delete the media account and keep the Usher account', async () => {
    const m = await member(-1); // ended a day ago: deletion due in 9 days
    await runGraceJob();
    expect(env.mailsTo(m.email)).toEqual([]); // not yet within three days

    env.advance(6 * DAY + HOUR); // 2 days 23 hours before the deletion
    await runGraceJob();
    const [mail] = env.mailsTo(m.email);
    expect(mail!.subject).toMatch(/^Cinema Club: your media account will be deleted on \d{4}-/);
    expect(mail!.text).toContain('https://usher.example/console/renewal?from=reminder');
    expect(env.dmsTo(900_000 + seq)).toMatchObject([{ notice: 'deletion_warning' }]);
    expect((await warningsOf(m.id)).map((w) => `${w.channel}/${w.status}`).sort()).toEqual([
      'email/sent',
      'messenger/sent',
    ]);
    await runGraceJob(); // warned once per membership end
    expect(env.mailsTo(m.email)).toHaveLength(1);
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(true);

    env.advance(3 * DAY);
    await runGraceJob();
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(false);
    const after = await rowOf(m.id);
    expect(after).toMatchObject({ mediaUserId: null, username: m.username, isActive: true });
    const actions = await env.t.context.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, m.id));
    expect(actions.map((a) => a.action)).toContain('user.media_account_deleted');
    const [retry] = await env.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.userId, m.id));
    expect(retry).toMatchObject({ operation: 'delete', origin: 'grace_delete', status: 'done' });
  });

  it('should keep and re-enable the account when the member renews inside the grace period', async () => {
    const m = await member(-8); // warned at once: deletion in 3 days at the earliest
    await runGraceJob();
    expect(env.mailsTo(m.email)).toHaveLength(1);
    const renewed = await env.t.call('POST', `/api/v1/admin/users/${m.id}/extend`, {
      token: adminToken,
      body: { days: 30 },
    });
    expect(renewed.status).toBe(200);
    env.advance(5 * DAY);
    await runGraceJob();
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(true);
    expect(await rowOf(m.id)).toMatchObject({ mediaUserId: m.mediaUserId, mediaDisabled: false });
  });

  it('should give the warning its three days even when switched on long after the end', async () => {
    const m = await member(-40);
    await runGraceJob();
    expect(env.mailsTo(m.email)).toHaveLength(1);
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(true);
    env.advance(2 * DAY);
    await runGraceJob();
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(true);
    env.advance(DAY);
    await runGraceJob();
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(false);
  });

  it('should send the deletion warning in the words the operator saved, per language', async () => {
    const saved = await env.t.call('PUT', '/api/v1/admin/settings/lifecycle', {
      token: adminToken,
      body: {
        values: {
          DELETION_WARNING_SUBJECT_EN: '{username}, {siteName} deletes your account on {deleteAt}',
          DELETION_WARNING_TEMPLATE_EN: 'Ended {expiresAt}. Keep it: {renewUrl}',
          DELETION_WARNING_TEMPLATE_ZH_CN: '{username}：账号将于 {deleteAt} 删除',
        },
      },
    });
    expect(saved.status).toBe(200);
    try {
      const en = await member(-8); // warned at once: the deletion 3 days from now
      const zh = await member(-8);
      await env.t.context.db.update(users).set({ locale: 'zh-CN' }).where(eq(users.id, zh.id));
      await runGraceJob();
      const wallClock = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      const deleteAt = wallClock(new Date(env.now().getTime() + 3 * DAY));
      const [mail] = env.mailsTo(en.email);
      expect(mail!.subject).toBe(`${en.username}, Cinema Club deletes your account on ${deleteAt}`);
      expect(mail!.text).toMatch(
        /^Ended \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Keep it: https:\/\/usher\.example\/console\/renewal\?from=reminder\n/,
      );
      // The Chinese subject was not edited: its default stays.
      const [zhMail] = env.mailsTo(zh.email);
      expect(zhMail!.subject).toBe(`Cinema Club：你的媒体账号将于 ${deleteAt} 删除`);
      expect(zhMail!.text).toContain(`${zh.username}：账号将于 ${deleteAt} 删除`);
      const [dm] = env.dmsTo(900_000 + seq);
      expect(dm).toMatchObject({
        notice: 'deletion_warning',
        locale: 'zh-CN',
        text: `${zh.username}：账号将于 ${deleteAt} 删除`,
      });
    } finally {
      await env.set({
        DELETION_WARNING_SUBJECT_EN: null,
        DELETION_WARNING_TEMPLATE_EN: null,
        DELETION_WARNING_TEMPLATE_ZH_CN: null,
      });
    }
  });

  it('should leave the deletion to the retry queue when the media server is down', async () => {
    const m = await member(-20);
    await runGraceJob();
    env.advance(3 * DAY);
    await env.media!.down();
    try {
      await runGraceJob();
    } finally {
      await env.media!.up();
    }
    expect(await rowOf(m.id)).toMatchObject({ mediaUserId: null });
    const [retry] = await env.t.context.db
      .select()
      .from(mediaServerRetryQueue)
      .where(eq(mediaServerRetryQueue.userId, m.id));
    expect(retry).toMatchObject({ operation: 'delete', origin: 'grace_delete', status: 'pending' });
    expect(retry!.lastError).not.toBeNull();
    expect(env.media!.state.users.has(m.mediaUserId)).toBe(true);
  });

  it('should do nothing while MEDIA_ACCOUNT_DELETE_AFTER_DAYS is 0', async () => {
    await env.set({ MEDIA_ACCOUNT_DELETE_AFTER_DAYS: 0 });
    try {
      const m = await member(-400);
      await runGraceJob();
      expect(env.mailsTo(m.email)).toEqual([]);
      expect(await warningsOf(m.id)).toEqual([]);
      expect(env.media!.state.users.has(m.mediaUserId)).toBe(true);
    } finally {
      await env.set({ MEDIA_ACCOUNT_DELETE_AFTER_DAYS: 10 });
    }
  });
});
