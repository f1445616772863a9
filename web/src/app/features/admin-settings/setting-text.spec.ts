import { TestBed } from '@angular/core/testing';
import { TranslocoService } from '@jsverse/transloco';
import type { SettingItem } from '@usher/contracts';
import { provideTestI18n } from '../../../testing/providers';
import { SettingText } from './setting-text';

const item = (over: Partial<SettingItem>): SettingItem =>
  ({ key: 'LOG_LEVEL', label: 'Log level', description: '', ...over }) as SettingItem;

describe('SettingText.value (issue 14: no raw enum values for admins)', () => {
  let text: SettingText;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestI18n() });
    text = TestBed.inject(SettingText);
  });

  it('should name enum values and booleans in the active language', () => {
    const kind = item({
      key: 'MEDIA_SERVER_KIND',
      options: [
        { value: 'emby', label: 'emby' },
        { value: 'jellyfin', label: 'jellyfin' },
      ],
    } as Partial<SettingItem>);
    const level = item({ options: [{ value: 'warn', label: 'warn' }] } as Partial<SettingItem>);
    expect(text.value(kind, 'jellyfin')).toBe('Jellyfin');
    expect(text.value(level, 'warn')).toBe('Warnings');
    expect(text.value(item({}), false)).toBe('Off');
    TestBed.inject(TranslocoService).setActiveLang('zh-CN');
    expect(text.value(level, 'warn')).toBe('警告');
    expect(text.value(item({}), true)).toBe('开启');
  });

  it('should fall back to the API label, then the value itself', () => {
    const newer = item({ options: [{ value: 'sqlite', label: 'SQLite' }] } as Partial<SettingItem>);
    expect(text.value(newer, 'sqlite')).toBe('SQLite');
    expect(text.value(item({}), 'https://media.example.test')).toBe('https://media.example.test');
    expect(text.value(item({}), 8080)).toBe('8080');
    expect(text.value(item({}), null)).toBe('');
  });
});
