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
        channel: 'email',
        locale: 'zh-CN',
        status: 'sent',
      });
      const [mail] = env.mailsTo('boss@example.org');
      expect(mail!.subject).toBe('Cinema Club：会员将在 3 天后到期');
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
