import {
  errorBodySchema,
  internalSettingsSchema,
  settingsGroupReplySchema,
  settingsListSchema,
  type SettingItem,
} from '@usher/contracts';
import { eventually } from '@usher/testkit';
import { eq } from 'drizzle-orm';
import { auditLog, settings } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

const SECRET = 'a1B2c3D4e5F6g7H8i9J0kLmN'; // a valid MEDIA_SERVER_API_KEY

describe(`settings center routes (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  const env = {
    SITE_NAME: 'Env Cinema',
    MEDIA_SERVER_URL: 'http://jellyfin:8096/',
    SMTP_PORT: 'abc',
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle, { settingsEnv: env });
    const admin = await aUser().admin().named('boss').create(t.context.db);
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  });
  afterAll(async () => {
    await database.close();
  });

  const list = async (app = t) => {
    const res = await app.call('GET', '/api/v1/admin/settings', { token });
    expect(res.status).toBe(200);
    return settingsListSchema.parse(await res.json());
  };
  const item = (body: Awaited<ReturnType<typeof list>>, key: string): SettingItem =>
    body.groups.flatMap((g) => g.items).find((i) => i.key === key)!;
  const put = (group: string, values: Record<string, unknown>) =>
    t.call('PUT', `/api/v1/admin/settings/${group}`, { token, body: { values } });

  it('should report each key with its source: default, env, invalid env, unset', async () => {
    const body = await list();
    expect(body.groups.map((g) => g.group)).toEqual([
      'general',
      'media_server',
      'metadata',
      'automation',
      'email',
      'payment',
      'messenger',
      'schedule',
      'lifecycle',
      'sharing',
      'sso',
      'deployment',
    ]);
    expect(item(body, 'SITE_NAME')).toMatchObject({
      source: 'env',
      value: 'Env Cinema',
      default: 'Usher',
    });
    expect(item(body, 'MEDIA_SERVER_URL')).toMatchObject({
      source: 'env',
      value: 'http://jellyfin:8096',
    });
    expect(item(body, 'REGISTRATION_MODE')).toMatchObject({ source: 'default', value: 'invite' });
    expect(item(body, 'SMTP_PORT')).toMatchObject({
      source: 'default',
      value: 587,
      state: 'invalid',
    });
    expect(item(body, 'SMTP_HOST')).toMatchObject({ source: 'unset', hasValue: false });
    expect(item(body, 'MEDIA_SERVER_API_KEY')).toMatchObject({ sensitive: true, hasValue: false });
    expect(item(body, 'MEDIA_SERVER_API_KEY').value).toBeUndefined();
    expect(item(body, 'PORT')).toMatchObject({ editable: false, group: 'deployment' });
    expect(item(body, 'JWT_SECRET').value).toBe('set');
    expect(JSON.stringify(body)).not.toContain(t.config.JWT_SECRET);
    expect(body.encryption.keyId).toMatch(/^[0-9a-f]{8}$/);
  });

  it('should store values over env, mask secrets everywhere, and audit keys without secrets', async () => {
    const res = await put('media_server', {
      MEDIA_SERVER_URL: 'https://media.example.org/',
      MEDIA_SERVER_API_KEY: SECRET,
      MEMBER_STREAM_LIMIT: 5,
      MEMBER_LIBRARY_IDS: ['abc', 'abc', ' def '],
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const reply = settingsGroupReplySchema.parse(JSON.parse(text));
    const key = reply.items.find((i) => i.key === 'MEDIA_SERVER_API_KEY')!;
    expect(key).toMatchObject({ source: 'db', masked: `••••${SECRET.slice(-4)}`, state: 'ok' });
    expect(key.updatedBy).toMatchObject({ username: 'boss' });
    expect(reply.items.find((i) => i.key === 'MEMBER_LIBRARY_IDS')!.value).toEqual(['abc', 'def']);
    expect(reply.items.find((i) => i.key === 'MEDIA_SERVER_URL')).toMatchObject({
      source: 'db',
      value: 'https://media.example.org',
    });

    const [row] = await t.context.db
      .select()
      .from(settings)
      .where(eq(settings.key, 'MEDIA_SERVER_API_KEY'));
    expect(row).toMatchObject({ isEncrypted: true });
    expect(row!.value).not.toContain(SECRET);
    expect(await t.context.settings.store.get('MEDIA_SERVER_API_KEY')).toBe(SECRET);

    const [audit] = await t.context.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.update'));
    expect(audit).toMatchObject({
      targetType: 'setting',
      targetId: 'media_server',
      actorLabel: 'boss',
    });
    expect(audit!.details).toMatchObject({
      keys: [
        'MEDIA_SERVER_URL',
        'MEDIA_SERVER_API_KEY',
        'MEMBER_STREAM_LIMIT',
        'MEMBER_LIBRARY_IDS',
      ],
      changes: {
        MEMBER_STREAM_LIMIT: { from: 3, to: 5 },
        MEDIA_SERVER_API_KEY: { changed: true, cleared: false },
      },
    });
    expect(JSON.stringify(audit)).not.toContain(SECRET);
    expect(t.logs.text()).not.toContain(SECRET);
    expect(JSON.stringify(await list())).not.toContain(SECRET);
  });

  it('should keep an omitted secret, and fall back to env when a value is cleared with null', async () => {
    expect((await put('media_server', { MEMBER_STREAM_LIMIT: 4 })).status).toBe(200);
    expect(await t.context.settings.store.get('MEDIA_SERVER_API_KEY')).toBe(SECRET);
    // The stored key was saved with the other address: going back to env's needs it again.
    expect(
      (await put('media_server', { MEDIA_SERVER_URL: null, MEDIA_SERVER_API_KEY: SECRET })).status,
    ).toBe(200);
    expect(item(await list(), 'MEDIA_SERVER_URL')).toMatchObject({
      source: 'env',
      value: 'http://jellyfin:8096',
    });
  });

  it('should let an empty string win over env only for keys that allow empty', async () => {
    const app = createTestApp(database.handle, {
      config: t.config,
      settingsEnv: { MESSENGER_GROUP_CHAT_ID: '-100123' },
    });
    expect(item(await list(app), 'MESSENGER_GROUP_CHAT_ID')).toMatchObject({
      source: 'env',
      value: '-100123',
    });
    expect((await put('messenger', { MESSENGER_GROUP_CHAT_ID: '' })).status).toBe(200);
    // A second replica: it sees the write once it reloads (its timer does that within 10 s).
    await app.context.settings.store.reload();
    expect(item(await list(app), 'MESSENGER_GROUP_CHAT_ID')).toMatchObject({
      source: 'db',
      value: '',
    });
    const refused = await put('general', { SITE_NAME: '' });
    expect(errorBodySchema.parse(await refused.json()).error.details).toEqual([
      { key: 'SITE_NAME', message: 'must not be empty; send null to clear it' },
    ]);
  });

  it('should refuse invalid values per type with SETTING_INVALID and write nothing', async () => {
    const before = await t.context.db.select().from(settings);
    const res = await put('schedule', {
      JOBS_ENABLED: 'yes',
      RANKING_TOP_N: 2,
      SCHEDULE_TIMEZONE: 'Mars/Olympus',
      CLEANUP_CRON: '61 * * * *',
      RANKING_LIBRARY_IDS: 'abc',
      RANKING_DAILY_CRON: '0 21 * * *',
    });
    expect(res.status).toBe(400);
    const error = errorBodySchema.parse(await res.json()).error;
    expect(error.code).toBe('SETTING_INVALID');
    expect((error.details as { key: string }[]).map((d) => d.key).sort()).toEqual([
      'CLEANUP_CRON',
      'JOBS_ENABLED',
      'RANKING_LIBRARY_IDS',
      'RANKING_TOP_N',
      'SCHEDULE_TIMEZONE',
    ]);
    expect(await t.context.db.select().from(settings)).toEqual(before);

    const more = await put('general', { PUBLIC_WEB_URL: 'ftp://x', REGISTRATION_MODE: 'closed' });
    expect((errorBodySchema.parse(await more.json()).error.details as unknown[]).length).toBe(2);
    const urls = await put('general', { PUBLIC_WEB_URL: 'https://user:pw@example.org' });
    expect(JSON.stringify(await urls.json())).toContain('must not contain a user name or password');
    const chat = await put('messenger', { MESSENGER_ADMIN_CHAT_ID: '0123' });
    expect(chat.status).toBe(400);
    const welcome = await put('messenger', {
      MESSENGER_WELCOME_TEMPLATE: 'Hi {name} <div>x</div>',
    });
    expect(JSON.stringify(await welcome.json())).toContain('must contain {names}');
  });

  it('should refuse a bad secret and an over-long string with SETTING_INVALID and change nothing', async () => {
    // A stored secret and the current general values, which the refused PUTs must leave alone.
    const storedKey = 'sk_test_Seeded0123456789';
    expect((await put('payment', { STRIPE_SECRET_KEY: storedKey })).status).toBe(200);
    const rowsBefore = await t.context.db.select().from(settings);
    const auditBefore = await t.context.db.select().from(auditLog);
    const modeBefore = await t.context.settings.store.get('REGISTRATION_MODE');
    const otherMode = modeBefore === 'open' ? 'invite' : 'open';
    const wrongPrefix = 'pk_live_PublishableNotSecret';
    const overLongWebhook = `whsec_${'a'.repeat(4091)}`; // 4097 characters; the pattern alone passes
    const overLongApiKey = 'k'.repeat(4097);
    const cases: [string, Record<string, unknown>, { key: string; message: string }[]][] = [
      [
        'payment',
        { STRIPE_SECRET_KEY: wrongPrefix, STRIPE_WEBHOOK_SECRET: overLongWebhook },
        [
          { key: 'STRIPE_SECRET_KEY', message: 'must be sk_test_…, sk_live_… or rk_…' },
          { key: 'STRIPE_WEBHOOK_SECRET', message: 'must be at most 4096 characters' },
        ],
      ],
      [
        'automation',
        { AUTOMATION_API_KEY: overLongApiKey },
        [{ key: 'AUTOMATION_API_KEY', message: 'must be at most 4096 characters' }],
      ],
      [
        'general',
        // A valid change beside the bad one: all-or-nothing, so neither is written.
        { SITE_NAME: 'S'.repeat(61), REGISTRATION_MODE: otherMode },
        [{ key: 'SITE_NAME', message: 'must be at most 60 characters' }],
      ],
    ];

    for (const [group, values, details] of cases) {
      const res = await put(group, values);

      expect([group, res.status]).toEqual([group, 400]);
      const body: unknown = await res.json();
      errorBodySchema.parse(body);
      expect(body).toEqual({
        error: {
          code: 'SETTING_INVALID',
          message: 'Some values are not valid',
          requestId: res.headers.get('x-request-id'),
          details,
        },
      });
      // A refused secret is never echoed back.
      const text = JSON.stringify(body);
      for (const secret of [wrongPrefix, overLongWebhook, overLongApiKey]) {
        expect(text).not.toContain(secret);
      }
    }

    expect(await t.context.db.select().from(settings)).toEqual(rowsBefore);
    expect(await t.context.db.select().from(auditLog)).toHaveLength(auditBefore.length);
    expect(await t.context.settings.store.get('STRIPE_SECRET_KEY')).toBe(storedKey);
    expect(await t.context.settings.store.get('SITE_NAME')).toBe('Env Cinema');
    expect(await t.context.settings.store.get('REGISTRATION_MODE')).toBe(modeBefore);
  });

  it('should answer 404/422 for unknown groups, read-only groups and keys of other groups', async () => {
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['nope', { X: 1 }, 404, 'SETTING_GROUP_NOT_FOUND'],
      ['deployment', { PORT: 1 }, 422, 'SETTING_READ_ONLY'],
      ['media_server', { MEDIA_SERVER_WEBHOOK_URL: 'x' }, 422, 'SETTING_READ_ONLY'],
      ['general', { SMTP_HOST: 'x' }, 422, 'SETTING_UNKNOWN_KEY'],
      ['general', { NOT_A_KEY: 'x' }, 422, 'SETTING_UNKNOWN_KEY'],
    ];
    for (const [group, values, status, code] of cases) {
      const res = await put(group, values);
      expect([group, res.status, errorBodySchema.parse(await res.json()).error.code]).toEqual([
        group,
        status,
        code,
      ]);
    }
  });

  it('should give the bot only non-sensitive settings, with the approver fallback', async () => {
    await put('messenger', { MESSENGER_ADMIN_CHAT_ID: '-1001234', MESSENGER_APPROVER_IDS: [] });
    const call = () =>
      t.call('GET', '/api/v1/internal/settings', {
        headers: { 'x-internal-secret': t.config.INTERNAL_API_SECRET },
      });
    const first = internalSettingsSchema.parse(await (await call()).json());
    expect(first).toMatchObject({
      adminChatId: '-1001234',
      approverFallback: 'admin_group',
      siteName: 'Env Cinema',
    });
    await put('messenger', { MESSENGER_ADMIN_CHAT_ID: '42' });
    expect(internalSettingsSchema.parse(await (await call()).json()).approverFallback).toBe(
      'admin_user',
    );
    await put('messenger', { MESSENGER_APPROVER_IDS: ['7', '8'] });
    const last = await (await call()).text();
    expect(internalSettingsSchema.parse(JSON.parse(last))).toMatchObject({
      approverIds: ['7', '8'],
      approverFallback: 'none',
    });
    expect(last).not.toContain(SECRET);
  });
});

describe(`settings across replicas and key changes (${ENGINE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('should show a change made on one replica to another within the refresh interval', async () => {
    const a = createTestApp(database.handle, { settingsRefreshMs: 150 });
    const b = createTestApp(await database.connectAnother(), {
      config: a.config,
      settingsRefreshMs: 150,
    });
    const admin = await aUser().admin().create(a.context.db);
    const token = (await a.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
    expect(await b.context.settings.store.get('SITE_NAME')).toBe('Usher');
    // As main.ts does: each replica re-checks on a timer, so reads never wait for the database.
    const stopWatching = b.context.settings.store.watch();
    // Waiting on the change event, not on reads: a stale read would start a refresh by itself.
    const changed: string[] = [];
    b.context.settings.store.onChange((keys) => changed.push(...keys));
    const res = await a.call('PUT', '/api/v1/admin/settings/general', {
      token,
      body: { values: { SITE_NAME: 'Replica Test' } },
    });
    expect(res.status).toBe(200);
    expect(await a.context.settings.store.get('SITE_NAME')).toBe('Replica Test');
    await eventually(() => expect(changed).toContain('SITE_NAME'), { timeoutMs: 1000 });
    stopWatching();
    expect(await b.context.settings.store.get('SITE_NAME')).toBe('Replica Test');
    const site = await (await b.call('GET', '/api/v1/public/site')).json();
    expect(site).toMatchObject({ siteName: 'Replica Test' });
  });

  it('should report secrets stored under an old key as undecryptable, fall back, and recover', async () => {
    const oldKey = testConfig();
    const before = createTestApp(database.handle, { config: oldKey });
    const admin = await aUser().admin().create(before.context.db);
    const token = (await before.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 }))
      .token;
    await before.call('PUT', '/api/v1/admin/settings/metadata', {
      token,
      body: { values: { TMDB_API_KEY: '0123456789abcdef0123456789abcdef' } },
    });
    const rotated = createTestApp(database.handle, {
      config: { ...oldKey, CONFIG_ENCRYPTION_KEY: testConfig().CONFIG_ENCRYPTION_KEY },
      settingsEnv: { TMDB_API_KEY: 'fedcba9876543210fedcba9876543210' },
    });
    const res = await rotated.call('GET', '/api/v1/admin/settings', { token });
    expect(res.status).toBe(200);
    const body = settingsListSchema.parse(await res.json());
    expect(body.encryption.undecryptable).toEqual(['TMDB_API_KEY']);
    const tmdb = body.groups.flatMap((g) => g.items).find((i) => i.key === 'TMDB_API_KEY');
    expect(tmdb).toMatchObject({
      state: 'undecryptable',
      stateReason: 'key_changed',
      source: 'env',
    });
    expect(await rotated.context.settings.store.get('TMDB_API_KEY')).toBe(
      'fedcba9876543210fedcba9876543210',
    );
    expect(await rotated.context.settings.store.undecryptable()).toEqual([
      { key: 'TMDB_API_KEY', reason: 'key_changed' },
    ]);

    await rotated.call('PUT', '/api/v1/admin/settings/metadata', {
      token,
      body: { values: { TMDB_API_KEY: 'aaaabbbbccccddddeeeeffff00001111' } },
    });
    expect(await rotated.context.settings.store.undecryptable()).toEqual([]);
    expect(await rotated.context.settings.store.get('TMDB_API_KEY')).toBe(
      'aaaabbbbccccddddeeeeffff00001111',
    );
  });

  it('should generate the webhook token once, never when env provides one, and mark plaintext rows', async () => {
    const app = createTestApp(database.handle);
    const results = await Promise.all([
      app.context.settings.store.ensureWebhookToken(),
      createTestApp(database.handle, {
        config: app.config,
      }).context.settings.store.ensureWebhookToken(),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await app.context.settings.store.get('MEDIA_SERVER_WEBHOOK_TOKEN')).toMatch(
      /^[0-9a-f]{64}$/,
    );
    const withEnv = createTestApp(database.handle, {
      settingsEnv: { MEDIA_SERVER_WEBHOOK_TOKEN: 'x'.repeat(40) },
    });
    expect(await withEnv.context.settings.store.ensureWebhookToken()).toBe(false);

    await app.context.db
      .insert(settings)
      .values({ key: 'SMTP_PASSWORD', value: 'typed-by-hand', isEncrypted: false });
    app.context.settings.store.invalidate();
    expect(await app.context.settings.store.resolve('SMTP_PASSWORD')).toMatchObject({
      value: 'typed-by-hand',
      source: 'db',
      state: 'plaintext',
    });
  });
});
