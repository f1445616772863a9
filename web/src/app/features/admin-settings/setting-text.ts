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

  group(group: SettingsGroupView): string {
    return this.pick(`adminSettings.groups.${group.group}`, group.label);
  }

  private pick(key: string, fallback: string): string {
    const translation = this.transloco.getTranslation(this.transloco.getActiveLang());
    return typeof translation[key] === 'string' ? this.transloco.translate(key) : fallback;
  }
}
