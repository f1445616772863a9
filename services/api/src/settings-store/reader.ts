import type { SettingKey, SettingStringOf, SettingValueOf } from './definitions.js';

/**
 * Where adapters read their settings from: the settings store, or a draft overlay on it (the
 * settings center's connection test). `SettingsStore` satisfies this as it is.
 */
export interface SettingsReader {
  get<K extends SettingKey>(key: K): Promise<SettingValueOf<K>>;
  getString<K extends SettingKey>(key: K): Promise<SettingStringOf<K>>;
}
