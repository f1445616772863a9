import {
  startFakeMediaServer,
  startFakeMoviePilot,
  startFakeSmtp,
  startFakeTmdb,
  type FakeMediaServer,
  type FakeMoviePilot,
  type FakeSmtp,
  type FakeTmdb,
} from '@usher/testkit';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog } from '../../../src/db/schema/index.js';
import type { SettingKey } from '../../../src/settings-store/definitions.js';
import { ENGINE } from '../../support/database.js';
import { startRecordingListener, type RecordingListener } from '../../support/listener.js';
import { check, connectionHarness, type ConnectionHarness } from './helpers.js';

const MEDIA_KEY = 'UsherTestKey0123456789abcdef';
const TMDB_KEY = '0123456789abcdef0123456789abcdef';
const SMTP_PASS = 'mail-s3cret-pass';

/**
 * Every group with an outbound secret: a draft that moves its destination to an attacker's
 * listener without the secret is refused before any call (422 SECRET_REENTRY_REQUIRED), in a
 * test and in a save; with the secret typed again, the move works.
 */
describe(`a stored secret never leaves for a new destination (${ENGINE})`, () => {
  let listener: RecordingListener;
  let mediaB: FakeMediaServer;
  let tmdbB: FakeTmdb;
  let mpB: FakeMoviePilot;
  let smtpB: FakeSmtp;
  let h: ConnectionHarness;
  const stored: Record<string, string> = {};

  beforeAll(async () => {
    listener = await startRecordingListener();
    const [mediaA, tmdbA, mpA, smtpA] = await Promise.all([
      startFakeMediaServer({ flavour: 'jellyfin', apiKey: MEDIA_KEY }),
      startFakeTmdb({ apiKey: TMDB_KEY }),
      startFakeMoviePilot(),
      startFakeSmtp({ auth: { user: 'mailer', pass: SMTP_PASS } }),
    ]);
    [mediaB, tmdbB, mpB, smtpB] = await Promise.all([
      startFakeMediaServer({ flavour: 'jellyfin', apiKey: MEDIA_KEY }),
      startFakeTmdb({ apiKey: TMDB_KEY }),
      startFakeMoviePilot(),
      startFakeSmtp({ auth: { user: 'mailer', pass: SMTP_PASS } }),
    ]);
    // Only their addresses matter to the stored settings; the first fakes are never called.
    await Promise.all([mediaA.close(), tmdbA.close(), mpA.close(), smtpA.close()]);
    Object.assign(stored, {
      MEDIA_SERVER_KIND: 'jellyfin',
      MEDIA_SERVER_URL: mediaA.url,
      MEDIA_SERVER_API_KEY: MEDIA_KEY,
      TMDB_API_BASE: tmdbA.apiBase,
      TMDB_API_KEY: TMDB_KEY,
      AUTOMATION_KIND: 'moviepilot',
      AUTOMATION_URL: mpA.url,
      MOVIEPILOT_USERNAME: mpA.username,
      MOVIEPILOT_PASSWORD: mpA.password,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtpA.port),
      SMTP_SECURITY: 'none',
      SMTP_USERNAME: 'mailer',
      SMTP_PASSWORD: SMTP_PASS,
      SMTP_FROM: 'no-reply@usher.example',
    });
    h = await connectionHarness(stored);
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([listener.close(), mediaB.close(), tmdbB.close(), mpB.close()]);
    await smtpB.close();
  });

  const put = (group: string, values: Record<string, unknown>) =>
    h.t.call('PUT', `/api/v1/admin/settings/${group}`, { token: h.token, body: { values } });

  const cases: {
    group: string;
    secret: SettingKey;
    destination: SettingKey;
    value: () => string;
    toListener: () => Record<string, string | number>;
    toGood: () => Record<string, string | number>;
    target: string;
  }[] = [
    {
      group: 'media_server',
      secret: 'MEDIA_SERVER_API_KEY',
      destination: 'MEDIA_SERVER_URL',
      value: () => MEDIA_KEY,
      toListener: () => ({ MEDIA_SERVER_URL: listener.url }),
      toGood: () => ({ MEDIA_SERVER_URL: mediaB.url }),
      target: 'server',
    },
    {
      group: 'metadata',
      secret: 'TMDB_API_KEY',
      destination: 'TMDB_API_BASE',
      value: () => TMDB_KEY,
      toListener: () => ({ TMDB_API_BASE: listener.url }),
      toGood: () => ({ TMDB_API_BASE: tmdbB.apiBase }),
      target: 'tmdb',
    },
    {
      group: 'automation',
      secret: 'MOVIEPILOT_PASSWORD',
      destination: 'AUTOMATION_URL',
      value: () => mpB.password,
      toListener: () => ({ AUTOMATION_URL: listener.url }),
      toGood: () => ({ AUTOMATION_URL: mpB.url }),
      target: 'moviepilot',
    },
    {
      group: 'email',
      secret: 'SMTP_PASSWORD',
      destination: 'SMTP_PORT',
      value: () => SMTP_PASS,
      toListener: () => ({ SMTP_PORT: listener.port }),
      toGood: () => ({ SMTP_PORT: smtpB.port }),
      target: 'smtp',
    },
  ];

  describe.each(cases)('$group ($secret)', (c) => {
    const refusal = () => ({
      code: 'SECRET_REENTRY_REQUIRED',
      message: `${c.destination} changed: enter ${c.secret} again to use it there`,
      details: { keys: [c.secret], changed: [c.destination] },
    });

    it('should refuse a test that moves the destination, sending nothing there', async () => {
      const before = listener.connections;

      const body = await h.testError(c.group, { values: c.toListener() }, 422);

      expect(body.error).toMatchObject(refusal());
      expect(listener.connections).toBe(before);
      expect(listener.received).not.toContain(c.value());
    });

    it('should refuse a save that moves the destination, and change nothing', async () => {
      const res = await put(c.group, c.toListener());

      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: unknown }).error).toMatchObject(refusal());
      expect(await h.t.context.settings.store.getString(c.destination)).toBe(stored[c.destination]);
      expect(listener.connections).toBe(0);
    });

    it('should test and save the move once the secret is typed again', async () => {
      const draft = { ...c.toGood(), [c.secret]: c.value() };

      const reply = await h.test(c.group, { values: draft });
      const res = await put(c.group, draft);

      expect(check(reply, c.target).status).toBe('ok');
      expect(res.status).toBe(200);
      expect(await h.t.context.settings.store.getString(c.destination)).toBe(
        String(c.toGood()[c.destination]),
      );
      const [audit] = await h.t.context.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'settings.update'), eq(auditLog.targetId, c.group)))
        .orderBy(desc(auditLog.at))
        .limit(1);
      expect(audit!.details).toMatchObject({
        rebound: [{ secret: c.secret, changed: [c.destination] }],
      });
      expect(JSON.stringify(audit)).not.toContain(c.value());
      // Back to the stored pair for the next case.
      const restore = await put(c.group, {
        ...Object.fromEntries(Object.keys(draft).map((k) => [k, null])),
      });
      expect(restore.status).toBe(200);
    });
  });

  it('should send the SMTP password to no new host: the listener server sees no login', async () => {
    const before = smtpB.logins.length;

    await h.testError('email', { values: { SMTP_PORT: smtpB.port } }, 422);
    expect(smtpB.logins).toHaveLength(before);

    await h.test('email', { values: { SMTP_PORT: smtpB.port, SMTP_PASSWORD: SMTP_PASS } });
    expect(smtpB.logins.slice(before)).toEqual([{ user: 'mailer', method: 'PLAIN', ok: true }]);
  });

  it('should ask for the MoviePilot password when only the user name changes', async () => {
    const body = await h.testError('automation', { values: { MOVIEPILOT_USERNAME: 'eve' } }, 422);

    expect(body.error.details).toEqual({
      keys: ['MOVIEPILOT_PASSWORD'],
      changed: ['MOVIEPILOT_USERNAME'],
    });
  });

  it('should not count a destination typed again unchanged as a move', async () => {
    const reply = await h.test('metadata', { values: { TMDB_API_BASE: stored.TMDB_API_BASE } });

    expect(reply.checks[0]!.target).toBe('tmdb');
  });

  it('should let a move through when the bound secret is not set (nothing to send)', async () => {
    // AUTOMATION_API_KEY and AUTOMATION_SERIES_API_KEY are unset in this harness.
    const res = await put('automation', { AUTOMATION_SERIES_URL: listener.url });

    expect(res.status).toBe(200);
    expect((await put('automation', { AUTOMATION_SERIES_URL: null })).status).toBe(200);
  });

  it('should still ask when null would bring the env secret back to the new address', async () => {
    const body = await h.testError(
      'metadata',
      { values: { TMDB_API_BASE: listener.url, TMDB_API_KEY: null } },
      422,
    );

    expect(body.error.details).toEqual({ keys: ['TMDB_API_KEY'], changed: ['TMDB_API_BASE'] });
  });

  it('should give the payment secret no settable destination (the Stripe base is deployment)', async () => {
    const test = await h.testError('payment', { values: { STRIPE_API_BASE: listener.url } }, 422);
    const save = await put('payment', { STRIPE_API_BASE: listener.url });

    expect(test.error.code).toBe('SETTING_UNKNOWN_KEY');
    expect(save.status).toBe(422);
    expect(((await save.json()) as { error: { code: string } }).error.code).toBe(
      'SETTING_READ_ONLY',
    );
    expect(listener.connections).toBe(0);
  });

  it('should never put a secret in the logs', () => {
    for (const secret of [MEDIA_KEY, TMDB_KEY, SMTP_PASS]) {
      expect(h.t.logs.text()).not.toContain(secret);
    }
  });
});
