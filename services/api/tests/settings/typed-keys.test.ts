// Setting keys and their value types come from the registry (settings/definitions.ts): a typo'd
// key does not compile, and a read returns its setting's type. The compile-time half is checked
// by `typecheck` (tsconfig covers tests/); the runtime half checks that what the store hands out
// — defaults and parsed text — really has the type the compiler promises.
import type { SettingsReader } from '../../src/integrations/common.js';
import type { DraftSettings } from '../../src/settings-store/draft.js';
import {
  SETTING_DEFINITIONS,
  type SettingKey,
  type SettingStringOf,
  type SettingValueOf,
} from '../../src/settings-store/definitions.js';
import type { SettingsStore } from '../../src/settings-store/store.js';
import { parseText } from '../../src/settings-store/validate.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compile-time assertions: each element must be `true`. */
const valueTypes: [
  Equal<SettingValueOf<'AUTOMATION_AUTO_DISPATCH'>, boolean>,
  Equal<SettingValueOf<'MEDIA_SERVER_TIMEOUT_SECONDS'>, number>,
  Equal<SettingValueOf<'MEMBER_LIBRARY_IDS'>, string[]>,
  Equal<SettingValueOf<'SMTP_SECURITY'>, 'starttls' | 'tls' | 'none'>,
  Equal<SettingValueOf<'LOG_LEVEL'>, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>,
  Equal<SettingValueOf<'SITE_NAME'>, string>,
  Equal<SettingValueOf<'TMDB_API_KEY'>, string>,
  Equal<SettingValueOf<'CLEANUP_CRON'>, string>,
  Equal<SettingValueOf<'SITE_NAME' | 'JOBS_ENABLED'>, string | boolean>,
  Equal<SettingStringOf<'REGISTRATION_MODE'>, 'open' | 'invite'>,
  Equal<SettingStringOf<'SMTP_PORT'>, string>,
  Equal<Extract<SettingKey, 'CLEANUP_CRON' | 'NOT_A_SETTING'>, 'CLEANUP_CRON'>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];

/** Never called: the `@ts-expect-error` lines fail `typecheck` if they start to compile. */
async function compileOnly(store: SettingsStore, reader: SettingsReader, draft: DraftSettings) {
  const dispatch: boolean = await store.get('AUTOMATION_AUTO_DISPATCH');
  const kind: 'emby' | 'jellyfin' = await reader.getString('MEDIA_SERVER_KIND');
  // @ts-expect-error a typo'd key is not a setting
  await store.get('AUTOMATION_AUTO_DISPATHC');
  // @ts-expect-error a typo'd key is not a setting
  await store.getString('SITE_NAEM');
  // @ts-expect-error a typo'd key is not a setting
  await store.resolve('SMTP_HOTS');
  // @ts-expect-error a typo'd key is not a setting
  await reader.get('TMDB_LANGAUGE');
  // @ts-expect-error a typo'd key is not a setting
  await draft.get('MEDIA_SERVER_URI');
  // @ts-expect-error a plain string is not a key either
  await store.get('SITE_NAME' as string);
  // @ts-expect-error an integer setting is a number
  const port: string = await store.get('SMTP_PORT');
  // @ts-expect-error a boolean setting has no string value to assign
  const verify: string = await reader.get('EMAIL_VERIFICATION');
  return { dispatch, kind, port, verify };
}

/** What each setting type's value looks like at run time. */
const RUNTIME_CHECK: Record<string, (value: unknown) => boolean> = {
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isInteger(v),
  list: (v) => Array.isArray(v) && v.every((i) => typeof i === 'string'),
};
const isString = (v: unknown) => typeof v === 'string';

describe('typed setting keys', () => {
  it('should compile the type assertions (checked by typecheck)', () => {
    expect(valueTypes.every(Boolean)).toBe(true);
    expect(compileOnly).toBeInstanceOf(Function);
  });

  it.each(SETTING_DEFINITIONS.map((d) => [d.key, d] as const))(
    'should hand out %s with the value type its definition declares',
    (_key, def) => {
      const check = RUNTIME_CHECK[def.type] ?? isString;
      expect(check(def.default)).toBe(true);
      if (def.type === 'enum') expect(def.options).toContain(def.default);
      // A stored row is text: what it parses into has the same type as the default.
      const text = Array.isArray(def.default) ? '' : String(def.default);
      const parsed = parseText(def, text);
      if (parsed.ok) expect(check(parsed.value)).toBe(true);
    },
  );
});
