import { Injectable, inject } from '@angular/core';
import { TranslocoService } from '@jsverse/transloco';
import type { SettingItem } from '@usher/contracts';
import type { SettingsGroupView } from './settings-api';

/**
 * Setting labels and descriptions in the active language, falling back to the API's English
 * text for keys this build does not know (60-web.md §6.4), e.g. one added by a newer API.
 */
@Injectable({ providedIn: 'root' })
export class SettingText {
  private readonly transloco = inject(TranslocoService);

  label(item: SettingItem): string {
    return this.pick(`adminSettings.keys.${item.key}.label`, item.label);
  }

  description(item: SettingItem): string {
    return this.pick(`adminSettings.keys.${item.key}.description`, item.description);
  }

  /**
   * A value as a person reads it (issue 14: admins saw `jellyfin`, `warn`, `false`): on/off for
   * booleans, the translated name of an enum value (`adminSettings.values.*`), else the API's
   * option label, else the value itself (URLs, names, numbers).
   */
  value(item: SettingItem, value: unknown): string {
    if (value === null || value === undefined) return '';
    if (typeof value === 'boolean')
      return this.pick(`adminSettings.values.${value}`, String(value));
    const raw = String(value);
    const option = item.options?.find((o) => o.value === raw);
    if (!option) return raw;
    return this.pick(`adminSettings.values.${raw}`, option.label);
  }

  group(group: SettingsGroupView): string {
    return this.pick(`adminSettings.groups.${group.group}`, group.label);
  }

  private pick(key: string, fallback: string): string {
    const translation = this.transloco.getTranslation(this.transloco.getActiveLang());
    return typeof translation[key] === 'string' ? this.transloco.translate(key) : fallback;
  }
}
