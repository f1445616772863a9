import { createServer, type Server } from 'node:http';
import { startFakeMediaServer, type FakeMediaServer } from '@usher/testkit';
import { previewCron } from '../../../src/modules/settings/connection/schedule.js';
import { testConfig } from '../../support/config.js';
import { ENGINE } from '../../support/database.js';
import { check, connectionHarness, type ConnectionHarness } from './helpers.js';

const MEDIA_KEY = 'UsherTestKey0123456789abcdef';
/** Sunday 2026-03-01 12:00 UTC. */
const NOW = new Date('2026-03-01T12:00:00Z');

/** A stand-in for the bot's `/health` whose answer each test sets. */
let health: { status: number; body: unknown } | 'hang-up' = { status: 200, body: {} };

describe(`connection test: messenger, schedule, media server and the rest (${ENGINE})`, () => {
  let bot: Server;
  let media: FakeMediaServer;
  let h: ConnectionHarness;
  let bare: ConnectionHarness;

  beforeAll(async () => {
    bot = createServer((req, res) => {
      if (health === 'hang-up' || req.url !== '/health') return void res.socket?.destroy();
      res.writeHead(health.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(health.body));
    });
    await new Promise<void>((r) => bot.listen(0, '127.0.0.1', r));
    const botUrl = `http://127.0.0.1:${(bot.address() as { port: number }).port}/`;
    media = await startFakeMediaServer({ flavour: 'jellyfin', apiKey: MEDIA_KEY, seed: true });
    h = await connectionHarness(
      {
        MESSENGER_ADMIN_CHAT_ID: '-1001234567890',
        MEDIA_SERVER_KIND: 'jellyfin',
        MEDIA_SERVER_URL: media.url,
        MEDIA_SERVER_API_KEY: MEDIA_KEY,
        MEDIA_SERVER_TIMEOUT_SECONDS: '5',
      },
      { config: testConfig({ BOT_NOTIFY_URL: botUrl }), now: () => NOW },
    );
    bare = await connectionHarness({});
  });
  afterAll(async () => {
    await Promise.all([h.close(), bare.close(), media.close()]);
    await new Promise((r) => bot.close(r));
  });

  describe('messenger', () => {
    it('should report a running bot with its update mode and webhook state', async () => {
      health = {
        status: 200,
        body: { status: 'ok', updateMode: 'webhook', webhookRegistered: true },
      };
      const webhook = await h.test('messenger');
      health = {
        status: 200,
        body: {
          status: 'ok',
          updateMode: 'polling',
          webhookRegistered: false,
          lease: { held: true, expiresAt: '2026-03-01T12:01:00Z' },
        },
      };
      const polling = await h.test('messenger');

      expect(webhook.ok).toBe(true);
      expect(check(webhook, 'bot')).toMatchObject({
        status: 'ok',
        message: 'The bot is running (webhook mode, webhook registered)',
      });
      expect(check(polling, 'bot').message).toBe('The bot is running (polling mode, lease held)');
      expect(check(webhook, 'chats')).toMatchObject({
        status: 'ok',
        message:
          'admin chat -1001234567890; review cards go to the admin group, whose admins decide; ' +
          'rankings to the admin chat',
      });
    });

    it('should fail a degraded bot (503) with its last error', async () => {
      health = {
        status: 503,
        body: {
          status: 'degraded',
          updateMode: 'webhook',
          webhookRegistered: false,
          lastError: 'Bad Request: bad webhook: HTTPS url must be provided for webhook',
          attempts: 6,
        },
      };

      const res = await h.test('messenger');

      expect(res.ok).toBe(false);
      expect(check(res, 'bot')).toMatchObject({
        status: 'fail',
        message:
          'The bot is degraded (webhook mode, webhook not registered): ' +
          'Bad Request: bad webhook: HTTPS url must be provided for webhook',
      });
    });

    it('should fail an unreachable bot', async () => {
      health = 'hang-up';

      const res = await h.test('messenger');

      expect(check(res, 'bot')).toMatchObject({
        status: 'fail',
        message: 'The bot is unreachable',
      });
    });

    it('should warn without an admin chat or approvers, and count approvers', async () => {
      health = {
        status: 200,
        body: { status: 'ok', updateMode: 'webhook', webhookRegistered: true },
      };
      const none = await h.test('messenger', { values: { MESSENGER_ADMIN_CHAT_ID: '' } });
      const approvers = await h.test('messenger', {
        values: { MESSENGER_APPROVER_IDS: ['111', '222'], MESSENGER_GROUP_CHAT_ID: '-100777' },
      });

      expect(check(none, 'chats')).toMatchObject({
        status: 'warn',
        message:
          'no admin chat: registration and payment events are not posted; ' +
          'no approvers: review cards reach nobody (rankings to the admin chat)',
      });
      expect(none.ok).toBe(true);
      expect(check(approvers, 'chats').message).toBe(
        'admin chat -1001234567890; 2 approvers; rankings to group -100777',
      );
    });

    it('should warn when BOT_NOTIFY_URL is not set', async () => {
      const res = await bare.test('messenger');

      expect(check(res, 'bot')).toMatchObject({
        status: 'warn',
        message: 'BOT_NOTIFY_URL is not set: the API sends no events to the bot',
      });
    });
  });

  describe('schedule', () => {
    it('should preview the next three runs of each cron key in the business zone', async () => {
      const res = await h.test('schedule', {
        values: { SCHEDULE_TIMEZONE: 'Asia/Shanghai', EXPIRY_CHECK_CRON: '0 9 * * *' },
      });

      expect(res.ok).toBe(true);
      expect(res.checks).toHaveLength(7);
      expect(res.checks[6]!.message).toBe('BACKUP_CRON is empty: off');
      expect(res.checks.every((c) => c.target === 'preview' && c.status === 'ok')).toBe(true);
      expect(res.checks[0]!.message).toBe(
        'EXPIRY_CHECK_CRON "0 9 * * *": 2026-03-02 09:00 Mon, 2026-03-03 09:00 Tue, ' +
          '2026-03-04 09:00 Wed (Asia/Shanghai); drives expiry_check',
      );
      // Every preview names the job that follows the key; a switched-off feature says so.
      expect(res.checks[2]!.message).toMatch(
        /^RANKING_DAILY_CRON "0 20 \* \* \*": 2026-03-02 20:00 Mon, .*\(Asia\/Shanghai\); rankings are off; drives ranking_daily$/,
      );
      expect(res.checks.map((c) => c.message.split(' ')[0])).toEqual([
        'EXPIRY_CHECK_CRON',
        'CALENDAR_SYNC_CRON',
        'RANKING_DAILY_CRON',
        'RANKING_WEEKLY_CRON',
        'CLEANUP_CRON',
        'REMINDER_CRON',
        'BACKUP_CRON',
      ]);
      expect(res.checks[5]!.message).toMatch(
        /^REMINDER_CRON "15 \* \* \* \*": 2026-03-0\d \d\d:15 .*\(Asia\/Shanghai\); drives expiry_reminders$/,
      );
    });

    it('should warn when scheduled runs are switched off', async () => {
      const res = await h.test('schedule', { values: { JOBS_ENABLED: false } });

      expect(res.checks[0]).toMatchObject({
        target: 'preview',
        status: 'warn',
        message: 'JOBS_ENABLED is off: no timer fires (manual runs still work)',
      });
    });

    it('should refuse a bad draft cron (400) and fail one that slipped through', async () => {
      const body = await h.testError('schedule', { values: { CLEANUP_CRON: '61 * * * *' } }, 400);

      expect(body.error.code).toBe('SETTING_INVALID');
      expect(previewCron('CLEANUP_CRON', 'every day', 'UTC', NOW)).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/^CLEANUP_CRON: cannot parse "every day"/),
      });
    });
  });

  describe('media server', () => {
    it('should check server, libraries, Playback Reporting and webhook', async () => {
      const res = await h.test('media_server');

      expect(res.checks.map((c) => c.target)).toEqual([
        'server',
        'libraries',
        'playback_reporting',
        'webhook',
      ]);
      expect(check(res, 'server').status).toBe('ok');
      expect(check(res, 'libraries').status).toBe('ok');
      expect(check(res, 'webhook').status).toBe('warn');
      expect(res.ok).toBe(true);
    });

    it('should fail a refused key and an unknown member library id', async () => {
      const wrong = 'WrongKey0123456789abcdefXYZ';
      const key = await h.test('media_server', { values: { MEDIA_SERVER_API_KEY: wrong } });
      const library = await h.test('media_server', {
        values: { MEMBER_LIBRARY_IDS: ['doesnotexist'] },
      });

      expect(check(key, 'server')).toMatchObject({
        status: 'fail',
        reason: 'auth',
        message: expect.stringMatching(/refused the API key/),
      });
      expect(JSON.stringify(key)).not.toContain(wrong);
      expect(check(library, 'libraries')).toMatchObject({
        status: 'fail',
        message: expect.stringContaining('doesnotexist'),
      });
    });
  });

  describe('groups without a test, and nothing configured', () => {
    it.each(['general', 'deployment', 'nope'])('should answer 404 for %s', async (group) => {
      const body = await h.testError(group, {}, 404);

      expect(body.error.code).toBe('SETTING_TEST_UNSUPPORTED');
    });

    it('should fail every integration that is not configured, as data', async () => {
      const media = await bare.test('media_server');
      const metadata = await bare.test('metadata');
      const automation = await bare.test('automation');
      const half = await bare.test('automation', { values: { AUTOMATION_URL: 'http://mp:3001' } });
      const email = await bare.test('email');
      const payment = await bare.test('payment');

      expect(media.checks).toEqual([
        {
          target: 'server',
          status: 'fail',
          message:
            'The media server is not configured: set MEDIA_SERVER_URL and MEDIA_SERVER_API_KEY',
          reason: 'not_configured',
          latencyMs: 0,
        },
      ]);
      expect(check(metadata, 'tmdb')).toMatchObject({
        message: 'TMDB_API_KEY is not set',
        reason: 'not_configured',
      });
      expect(check(automation, 'moviepilot')).toMatchObject({
        status: 'warn',
        message: 'AUTOMATION_URL is empty: approved requests wait for manual action',
      });
      expect(check(automation, 'moviepilot').reason).toBeUndefined();
      expect(check(half, 'moviepilot')).toMatchObject({
        status: 'fail',
        message: 'Not configured: set MOVIEPILOT_USERNAME, MOVIEPILOT_PASSWORD',
        reason: 'not_configured',
      });
      expect(check(email, 'smtp').message).toBe(
        'Not configured: set SMTP_HOST, SMTP_FROM (or an address in SMTP_USERNAME)',
      );
      expect(payment.checks.map((c) => [c.target, c.status, c.message])).toEqual([
        ['stripe', 'fail', 'STRIPE_SECRET_KEY is not set'],
        ['webhook_secret', 'fail', 'STRIPE_WEBHOOK_SECRET is not set: Stripe webhooks are refused'],
        [
          'return_urls',
          'fail',
          'No return URL: set STRIPE_SUCCESS_URL (or PUBLIC_WEB_URL), ' +
            'STRIPE_CANCEL_URL (or PUBLIC_WEB_URL)',
        ],
      ]);
    });

    it('should need an admin', async () => {
      const res = await h.t.call('POST', '/api/v1/admin/settings/metadata/test', { body: {} });

      expect(res.status).toBe(401);
    });
  });
});
