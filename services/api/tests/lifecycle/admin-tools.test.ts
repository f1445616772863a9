import {
  errorBodySchema,
  lifecyclePreviewReplySchema,
  lifecycleTestReplySchema,
  NotifyMember,
} from '@usher/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { lifecycleEnv, type LifecycleEnv } from './harness.js';

describe(`lifecycle preview and "send me a test" (${ENGINE})`, () => {
  let env: LifecycleEnv;
  let token: string;
  let adminId: string;

  beforeAll(async () => {
    env = await lifecycleEnv(new Date('2026-12-07T10:00:00.000Z'));
    const admin = await aUser()
      .admin()
      .named('boss')
      .withEmail('boss@example.org')
      .create(env.t.context.db);
    adminId = admin.id;
    await env.t.context.db.update(users).set({ messengerId: 777 }).where(eq(users.id, admin.id));
    token = (await env.t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  }, 60_000); // a PGlite database migrates slowly while other suites share the cores
  afterAll(async () => {
    await env.close();
  });

  const post = (path: string, body: unknown) =>
    env.t.call('POST', `/api/v1/admin/lifecycle/${path}`, { token, body });
  const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

  describe('preview', () => {
    it('should render the saved template with the admin as the sample member', async () => {
      const res = await post('preview', { locale: 'en' });
      expect(res.status).toBe(200);
      const body = lifecyclePreviewReplySchema.parse(await res.json());
      expect(body.kind).toBe('expiry_reminder');
      expect(body.subject).toBe('Cinema Club: your membership ends in 3 day(s)');
      expect(body.text).toContain('Hi boss,');
      expect(body.text).toContain('ends on 2026-12-10 10:00 UTC (3 day(s) left)');
      expect(body.sample).toEqual({
        username: 'boss',
        siteName: 'Cinema Club',
        daysLeft: 3,
        expiresAt: '2026-12-10T10:00:00.000Z',
        renewUrl: 'https://usher.example/console/renewal?from=reminder',
      });
    });

    it('should render a draft without saving it', async () => {
      const res = await post('preview', { locale: 'zh-CN', text: '{username} 还剩 {daysLeft} 天' });
      expect(lifecyclePreviewReplySchema.parse(await res.json()).text).toBe('boss 还剩 3 天');
      expect(await env.t.context.settings.store.getString('REMINDER_TEMPLATE_ZH_CN')).toContain(
        '{renewUrl}',
      );
    });

    it('should refuse an unknown placeholder with SETTING_INVALID as a save would', async () => {
      const res = await post('preview', { locale: 'en', subject: 'Hi {name}' });
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('SETTING_INVALID');
      expect(error.details).toEqual([
        {
          key: 'REMINDER_SUBJECT_EN',
          message:
            'unknown placeholder {name}; use {username}, {siteName}, {daysLeft}, {expiresAt}, {renewUrl}',
        },
      ]);
    });

    it('should render the deletion warning as the grace job would send it', async () => {
      const res = await post('preview', { kind: 'deletion_warning', locale: 'en' });
      expect(res.status).toBe(200);
      const body = lifecyclePreviewReplySchema.parse(await res.json());
      // Grace off (0): a sample of 30 days, so the end was 27 days ago, the deletion in 3.
      expect(body).toEqual({
        kind: 'deletion_warning',
        locale: 'en',
        subject: 'Cinema Club: your media account will be deleted on 2026-12-10 10:00 UTC',
        text: expect.stringContaining('ended on 2026-11-10 10:00 UTC'),
        sample: {
          username: 'boss',
          siteName: 'Cinema Club',
          expiresAt: '2026-11-10T10:00:00.000Z',
          deleteAt: '2026-12-10T10:00:00.000Z',
          renewUrl: 'https://usher.example/console/renewal?from=reminder',
        },
      });

      await env.set({ MEDIA_ACCOUNT_DELETE_AFTER_DAYS: 10 });
      try {
        const draft = await post('preview', {
          kind: 'deletion_warning',
          locale: 'zh-CN',
          text: '{username}：{expiresAt} 到期，{deleteAt} 删除',
        });
        expect(lifecyclePreviewReplySchema.parse(await draft.json()).text).toBe(
          'boss：2026-11-30 10:00 UTC 到期，2026-12-10 10:00 UTC 删除',
        );
      } finally {
        await env.set({ MEDIA_ACCOUNT_DELETE_AFTER_DAYS: null });
      }
    });

    it('should render the inactivity warning with the idle days and the switch-off date', async () => {
      await env.set({ INACTIVITY_DISABLE_DAYS: 45 });
      try {
        const res = await post('preview', {
          kind: 'inactivity_warning',
          locale: 'en',
          subject: '{username}, {days} days without a film',
        });
        const body = lifecyclePreviewReplySchema.parse(await res.json());
        expect(body).toMatchObject({
          kind: 'inactivity_warning',
          subject: 'boss, 45 days without a film',
          sample: { username: 'boss', days: 45, disableAt: '2026-12-14T10:00:00.000Z' },
        });
        expect(body.text).toContain('paused on 2026-12-14 10:00 UTC');
      } finally {
        await env.set({ INACTIVITY_DISABLE_DAYS: null });
      }
    });

    it("should refuse a placeholder the kind does not fill, naming that kind's setting", async () => {
      const res = await post('preview', {
        kind: 'inactivity_warning',
        locale: 'zh-CN',
        text: '{username} 续费：{renewUrl}',
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).details).toEqual([
        {
          key: 'INACTIVITY_WARNING_TEMPLATE_ZH_CN',
          message:
            'unknown placeholder {renewUrl}; use {username}, {siteName}, {days}, {disableAt}',
        },
      ]);
    });

    it('should refuse an unknown kind with VALIDATION_FAILED on both routes', async () => {
      for (const [path, body] of [
        ['preview', { kind: 'reminder', locale: 'en' }],
        ['test', { kind: 'announcement', channel: 'email' }],
      ] as const) {
        const res = await post(path, body);
        expect(res.status).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(JSON.stringify(error.details)).toContain('kind');
      }
      expect(env.mailsTo('boss@example.org')).toEqual([]);
    });

    it('should refuse an unknown locale with VALIDATION_FAILED', async () => {
      const res = await post('preview', { locale: 'fr' });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('VALIDATION_FAILED');
    });
  });

  describe('send me a test', () => {
    it('should mail the admin the saved reminder', async () => {
      const res = await post('test', { channel: 'email', locale: 'zh-CN' });
      expect(res.status).toBe(200);
      expect(lifecycleTestReplySchema.parse(await res.json())).toEqual({
        kind: 'expiry_reminder',
        channel: 'email',
        locale: 'zh-CN',
        status: 'sent',
      });
      const [mail] = env.mailsTo('boss@example.org');
      expect(mail!.subject).toBe('Cinema Club：会员将在 3 天后到期');
    });

    it('should mail the saved deletion warning, edited texts included', async () => {
      await env.set({ DELETION_WARNING_SUBJECT_ZH_CN: '{username}：{deleteAt} 删除' });
      try {
        const res = await post('test', {
          kind: 'deletion_warning',
          channel: 'email',
          locale: 'zh-CN',
        });
        expect(res.status).toBe(200);
        expect(lifecycleTestReplySchema.parse(await res.json())).toMatchObject({
          kind: 'deletion_warning',
          channel: 'email',
        });
        expect(env.mailsTo('boss@example.org').at(-1)!.subject).toBe(
          'boss：2026-12-10 10:00 UTC 删除',
        );
      } finally {
        await env.set({ DELETION_WARNING_SUBJECT_ZH_CN: null });
      }
    });

    it('should message the inactivity warning through the bot', async () => {
      const res = await post('test', { kind: 'inactivity_warning', channel: 'messenger' });
      expect(res.status).toBe(200);
      expect(NotifyMember.parse(env.dmsTo(777).at(-1))).toMatchObject({
        notice: 'test',
        locale: 'en',
        text: expect.stringContaining('nothing has played on your Cinema Club account for 60 days'),
      });
    });

    it('should message the admin through the bot', async () => {
      const res = await post('test', { channel: 'messenger' });
      expect(res.status).toBe(200);
      const [dm] = env.dmsTo(777);
      expect(NotifyMember.parse(dm)).toMatchObject({
        notice: 'test',
        userId: adminId,
        locale: 'en',
      });
    });

    it('should answer 503 NOT_CONFIGURED for the webhook until an address is set, then post to it', async () => {
      const before = await post('test', { channel: 'webhook' });
      expect(before.status).toBe(503);
      expect(await errorOf(before)).toMatchObject({
        code: 'NOT_CONFIGURED',
        details: { system: 'webhook' },
      });

      await env.set({
        NOTIFY_WEBHOOK_URL: `${env.sink.url}/topic/secret-token-99`,
        NOTIFY_WEBHOOK_FORMAT: 'ntfy',
      });
      const res = await post('test', { channel: 'webhook' });
      expect(res.status).toBe(200);
      expect(env.sink.calls.at(-1)).toMatchObject({ path: '/topic/secret-token-99' });
      expect(env.sink.calls.at(-1)!.body).toContain('Hi boss,');

      await env.set({ NOTIFY_WEBHOOK_FORMAT: 'json' });
      const inactivity = await post('test', { kind: 'inactivity_warning', channel: 'webhook' });
      expect(inactivity.status).toBe(200);
      // An inactivity warning is about no membership end.
      expect(JSON.parse(env.sink.calls.at(-1)!.body)).toMatchObject({
        event: 'test',
        username: 'boss',
        expiresAt: null,
        daysLeft: null,
        title: 'Cinema Club: we miss you — your access pauses on 2026-12-14 10:00 UTC',
      });

      env.sink.status = 500;
      const failed = await post('test', { channel: 'webhook' });
      expect(failed.status).toBe(502);
      const error = await errorOf(failed);
      expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { system: 'webhook' } });
      expect(error.message).toBe('The notification webhook answered 500');
      expect(JSON.stringify(env.t.logs.lines())).not.toContain('secret-token');
      env.sink.status = 204;
    });

    it('should answer 422 REMINDER_CHANNEL_UNAVAILABLE when the admin has no address', async () => {
      await env.t.context.db.update(users).set({ email: null }).where(eq(users.id, adminId));
      const res = await post('test', { channel: 'email' });
      expect(res.status).toBe(422);
      expect(await errorOf(res)).toMatchObject({
        code: 'REMINDER_CHANNEL_UNAVAILABLE',
        message: 'Your account has no e-mail address',
      });
    });

    it('should refuse members with 403', async () => {
      const member = await aUser().create(env.t.context.db);
      const memberToken = (
        await env.t.context.tokens.sign({ sub: member.id, role: 'user', ver: 0 })
      ).token;
      const res = await env.t.call('POST', '/api/v1/admin/lifecycle/test', {
        token: memberToken,
        body: { channel: 'email' },
      });
      expect(res.status).toBe(403);
    });
  });
});
