import { readFileSync } from 'node:fs';
import {
  adminUserListQuerySchema,
  mediaRequestSchema,
  publicSiteSchema,
  redeemCodeListQuerySchema,
  settingCheckSchema,
  settingItemSchema,
  userSchema,
} from '../src/index.js';
import * as values from '../src/values.js';

describe('the zod-free entry', () => {
  it('should import nothing, so zod never reaches the web bundle or the bot through it', () => {
    const source = readFileSync(new URL('../src/values.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\b/m);
    expect(source).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it('should be what package.json exports as @usher/contracts/values', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, string>;
    };
    expect(pkg.exports['./values']).toBe('./src/values.ts');
  });

  it('should be re-exported unchanged by the main entry', async () => {
    const main = (await import('../src/index.js')) as Record<string, unknown>;
    for (const [name, value] of Object.entries(values)) expect(main[name]).toBe(value);
  });
});

describe('one source for every list', () => {
  it('should build the schema enums from the value lists', () => {
    expect(userSchema.shape.role.options).toEqual([...values.ROLES]);
    expect(userSchema.shape.locale.unwrap().options).toEqual([...values.LOCALES]);
    expect(userSchema.shape.media.shape.state.options).toEqual([...values.MEDIA_STATES]);
    expect(adminUserListQuerySchema.shape.sort.unwrap().options).toEqual([
      ...values.ADMIN_USER_SORTS,
    ]);
    expect(adminUserListQuerySchema.shape.order.unwrap().options).toEqual([...values.SORT_ORDERS]);
    expect(redeemCodeListQuerySchema.shape.status.unwrap().options).toEqual([
      ...values.CODE_STATUS_FILTERS,
    ]);
    expect(mediaRequestSchema.shape.status.options).toEqual([...values.REQUEST_STATUSES]);
    expect(publicSiteSchema.shape.registrationMode.options).toEqual([...values.REGISTRATION_MODES]);
    expect(settingItemSchema.shape.group.options).toEqual([...values.SETTING_GROUPS]);
    expect(settingCheckSchema.shape.reason.unwrap().options).toEqual([
      ...values.SETTING_CHECK_REASONS,
    ]);
  });
});

describe('localeOf', () => {
  it.each([
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['ZH-hans', 'zh-CN'],
    ['en', 'en'],
    ['en-GB', 'en'],
  ])('should read %s as %s', (tag, locale) => {
    expect(values.localeOf(tag)).toBe(locale);
  });

  it.each(['de', 'fr-FR', '', null, undefined])('should have no locale for %p', (tag) => {
    expect(values.localeOf(tag)).toBeNull();
  });
});
