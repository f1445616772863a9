import type { SettingGroup, SettingItem } from '@usher/contracts';
import type { SettingsGroupView, SettingsList } from './settings-api';

/**
 * Valid `SettingItem`s and lists (they pass the contract schema) for this feature's specs.
 * Not a spec itself, so the i18n source scan sees it; it renders nothing.
 */
export function anItem(overrides: Partial<SettingItem> = {}): SettingItem {
  return {
    key: 'SITE_NAME',
    group: 'general',
    label: 'Site name',
    description: 'Shown in the web app',
    type: 'string',
    multiline: false,
    sensitive: false,
    editable: true,
    allowEmpty: false,
    apply: 'live',
    source: 'default',
    hasValue: true,
    value: 'Usher',
    default: 'Usher',
    state: 'ok',
    ...overrides,
  };
}

export const MEDIA_URL = anItem({
  key: 'MEDIA_SERVER_URL',
  group: 'media_server',
  label: 'Server URL',
  type: 'url',
  source: 'unset',
  hasValue: false,
  value: '',
  default: '',
});

export const MEDIA_KEY = anItem({
  key: 'MEDIA_SERVER_API_KEY',
  group: 'media_server',
  label: 'API key',
  type: 'secret',
  sensitive: true,
  source: 'db',
  hasValue: true,
  value: undefined,
  masked: '••••WXYZ',
  default: undefined,
});

export function aGroup(
  group: SettingGroup,
  items: SettingItem[],
  testable = true,
): SettingsGroupView {
  return { group, label: group, testable, items };
}

export function aList(groups: SettingsGroupView[], undecryptable: string[] = []): SettingsList {
  return { groups, encryption: { keyId: 'k1', undecryptable } };
}
