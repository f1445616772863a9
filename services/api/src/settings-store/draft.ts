import type { SettingValue } from '@usher/contracts';
import { AppError } from '../errors/app-error.js';
import type { SettingsReader } from './reader.js';
import {
  DEFINITIONS_BY_KEY,
  type SettingKey,
  type SettingStringOf,
  type SettingValueOf,
} from './definitions.js';
import type { SettingsStore } from './store.js';
import type { SettingDefinition } from './types.js';
import { parseInput, parseText } from './validate.js';

/**
 * The stored settings with an unsaved draft on top, for "test connection" before saving. Keys
 * left out of the draft (sensitive ones included) read their stored value; `null` reads as if
 * the stored value were deleted (env var, then default).
 */
export class DraftSettings implements SettingsReader {
  constructor(
    private readonly store: SettingsStore,
    private readonly overlay: ReadonlyMap<string, SettingValue>,
  ) {}

  async get<K extends SettingKey>(key: K): Promise<SettingValueOf<K>> {
    // Draft values went through `parseInput` for this key, so they have its value type.
    if (this.overlay.has(key)) return this.overlay.get(key) as SettingValueOf<K>;
    return this.store.get(key);
  }

  async getString<K extends SettingKey>(key: K): Promise<SettingStringOf<K>> {
    return String(await this.get(key)) as SettingStringOf<K>;
  }
}

/** What a key falls back to once its stored value is gone: a valid env value, else the default. */
function envOrDefault(def: SettingDefinition, env: Record<string, string | undefined>) {
  const raw = env[def.key];
  if (raw !== undefined && (raw !== '' || def.allowEmpty)) {
    const parsed = parseText(def, raw);
    if (parsed.ok) return parsed.value;
  }
  return def.default;
}

/**
 * Validates a draft like `PUT /admin/settings/:group` does (only keys of the group; values per
 * key) and returns the overlaid reader. Throws `SETTING_UNKNOWN_KEY` or `SETTING_INVALID`.
 */
export function draftSettings(
  store: SettingsStore,
  group: string,
  values: Record<string, SettingValue | null> = {},
): DraftSettings {
  const overlay = new Map<string, SettingValue>();
  const errors: { key: string; message: string }[] = [];
  for (const [key, input] of Object.entries(values)) {
    const def = DEFINITIONS_BY_KEY.get(key);
    if (!def || def.group !== group) {
      throw new AppError(
        'SETTING_UNKNOWN_KEY',
        `${key.slice(0, 64)} is not a setting of ${group}`,
        {
          details: { key: key.slice(0, 64) },
        },
      );
    }
    if (input === null) {
      overlay.set(key, envOrDefault(def, store.env));
      continue;
    }
    const parsed = parseInput(def, input);
    if (parsed.ok) overlay.set(key, parsed.value);
    else errors.push({ key, message: parsed.message });
  }
  if (errors.length) {
    throw new AppError('SETTING_INVALID', 'Some values are not valid', { details: errors });
  }
  return new DraftSettings(store, overlay);
}

/** The current values of a group's sensitive keys, to scrub from check messages. */
export async function groupSecrets(settings: SettingsReader, group: string): Promise<string[]> {
  const keys = [...DEFINITIONS_BY_KEY.values()].filter((d) => d.group === group && d.sensitive);
  const values = await Promise.all(keys.map((d) => settings.getString(d.key)));
  return values.filter((v) => v.length >= 4);
}
