import { errorBodySchema, settingsGroupReplySchema, settingsListSchema } from '@usher/contracts';
import { settings } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/users.js';

describe(`lifecycle settings group (${ENGINE})`, () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = createTestApp(database.handle);
    const admin = await aUser().admin().create(t.context.db);
    token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  }, 60_000); // a PGlite database migrates slowly while other suites share the cores
  afterAll(async () => {
    await database.close();
  });

  const put = (values: Record<string, unknown>) =>
    t.call('PUT', '/api/v1/admin/settings/lifecycle', { token, body: { values } });
  const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;

  it('should list the group with its defaults, labelled "Membership lifecycle"', async () => {
    const res = await t.call('GET', '/api/v1/admin/settings', { token });
    const body = settingsListSchema.parse(await res.json());
    const group = body.groups.find((g) => g.group === 'lifecycle')!;
    expect(group.label).toBe('Membership lifecycle');
    const values = Object.fromEntries(group.items.map((i) => [i.key, i.value]));
    expect(values).toMatchObject({
      REMINDER_DAYS: ['7', '3', '1'],
      REMINDER_CHANNELS: ['email', 'messenger'],
      REMINDER_CRON: '15 * * * *',
      MEDIA_ACCOUNT_DELETE_AFTER_DAYS: 0,
      INACTIVITY_DISABLE_DAYS: 0,
      NOTIFY_WEBHOOK_FORMAT: 'json',
    });
    expect(group.items.find((i) => i.key === 'NOTIFY_WEBHOOK_URL')).toMatchObject({
      sensitive: true,
    });
    expect(String(values.REMINDER_TEMPLATE_ZH_CN)).toContain('{renewUrl}');
  });

  it('should refuse an unknown placeholder with SETTING_INVALID naming the key and the allowed ones', async () => {
    const before = await t.context.db.select().from(settings);
    const res = await put({
      REMINDER_TEMPLATE_EN: 'Hi {usename}, renew at {renewUrl}',
      REMINDER_SUBJECT_ZH_CN: '{siteName} {days}',
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('SETTING_INVALID');
    expect(error.details).toEqual(
      expect.arrayContaining([
        {
          key: 'REMINDER_TEMPLATE_EN',
          message:
            'unknown placeholder {usename}; use {username}, {siteName}, {daysLeft}, {expiresAt}, {renewUrl}',
        },
        expect.objectContaining({
          key: 'REMINDER_SUBJECT_ZH_CN',
          message: expect.stringContaining('unknown placeholder {days}'),
        }),
      ]),
    );
    expect(await t.context.db.select().from(settings)).toEqual(before);
  });

  it('should list the deletion and inactivity warnings with the texts the jobs always sent', async () => {
    const res = await t.call('GET', '/api/v1/admin/settings', { token });
    const group = settingsListSchema
      .parse(await res.json())
      .groups.find((g) => g.group === 'lifecycle')!;
    const item = (key: string) => group.items.find((i) => i.key === key)!;
    expect(item('DELETION_WARNING_SUBJECT_EN')).toMatchObject({
      label: 'Deletion warning subject (English)',
      value: '{siteName}: your media account will be deleted on {deleteAt}',
    });
    expect(item('DELETION_WARNING_TEMPLATE_ZH_CN').value).toContain(
      '在此之前续费即可保留：{renewUrl}',
    );
    expect(item('INACTIVITY_WARNING_SUBJECT_ZH_CN')).toMatchObject({
      label: 'Inactivity warning subject (Simplified Chinese)',
      value: '{siteName}：好久不见——你的观看权限将于 {disableAt} 暂停',
    });
    expect(item('INACTIVITY_WARNING_TEMPLATE_EN').value).toContain('for {days} days');
  });

  it("should check each kind's templates against that kind's placeholders, saving nothing", async () => {
    const before = await t.context.db.select().from(settings);
    const res = await put({
      DELETION_WARNING_SUBJECT_EN: '{siteName}: {daysLeft} days', // a reminder's placeholder
      DELETION_WARNING_TEMPLATE_ZH_CN: '{username} {deleteAt} {renewUrl}', // valid
      INACTIVITY_WARNING_TEMPLATE_EN: 'Renew at {renewUrl} before {disableAt}',
      INACTIVITY_WARNING_SUBJECT_ZH_CN: '{days} 天',
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('SETTING_INVALID');
    expect(error.details).toEqual([
      {
        key: 'DELETION_WARNING_SUBJECT_EN',
        message:
          'unknown placeholder {daysLeft}; use {username}, {siteName}, {expiresAt}, {deleteAt}, {renewUrl}',
      },
      {
        key: 'INACTIVITY_WARNING_TEMPLATE_EN',
        message: 'unknown placeholder {renewUrl}; use {username}, {siteName}, {days}, {disableAt}',
      },
    ]);
    expect(await t.context.db.select().from(settings)).toEqual(before);

    const ok = await put({
      DELETION_WARNING_TEMPLATE_ZH_CN: '{username} {deleteAt} {renewUrl}',
      INACTIVITY_WARNING_SUBJECT_ZH_CN: '{days} 天',
    });
    expect(ok.status).toBe(200);
    expect(await t.context.settings.store.getString('INACTIVITY_WARNING_SUBJECT_ZH_CN')).toBe(
      '{days} 天',
    );
  });

  it('should refuse days outside 1–60, unknown channels, bad cron and a non-URL webhook', async () => {
    const res = await put({
      REMINDER_DAYS: ['7', '61'],
      REMINDER_CHANNELS: ['email', 'sms'],
      REMINDER_CRON: 'every hour',
      MEDIA_ACCOUNT_DELETE_AFTER_DAYS: 3651,
      INACTIVITY_DISABLE_DAYS: -1,
      NOTIFY_WEBHOOK_URL: 'ftp://hooks.example/x',
      NOTIFY_WEBHOOK_FORMAT: 'slack',
    });
    expect(res.status).toBe(400);
    const keys = ((await errorOf(res)).details as { key: string }[]).map((d) => d.key).sort();
    expect(keys).toEqual([
      'INACTIVITY_DISABLE_DAYS',
      'MEDIA_ACCOUNT_DELETE_AFTER_DAYS',
      'NOTIFY_WEBHOOK_FORMAT',
      'NOTIFY_WEBHOOK_URL',
      'REMINDER_CHANNELS',
      'REMINDER_CRON',
      'REMINDER_DAYS',
    ]);
  });

  it('should save valid values and never return the webhook address', async () => {
    const url = 'https://discord.example/api/webhooks/1/secret-token-abcd';
    const res = await put({
      REMINDER_DAYS: ['30', '7', '3'],
      REMINDER_CHANNELS: ['webhook'],
      NOTIFY_WEBHOOK_URL: url,
      NOTIFY_WEBHOOK_FORMAT: 'discord',
      REMINDER_TEMPLATE_EN: '{username}: {daysLeft} days left, {renewUrl}',
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('secret-token');
    const items = settingsGroupReplySchema.parse(JSON.parse(text)).items;
    expect(items.find((i) => i.key === 'REMINDER_DAYS')!.value).toEqual(['30', '7', '3']);
    expect(await t.context.settings.store.getString('NOTIFY_WEBHOOK_URL')).toBe(url);
    expect(JSON.stringify(t.logs.lines())).not.toContain('secret-token');
  });
});
