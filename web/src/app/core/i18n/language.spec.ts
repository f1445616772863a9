import { TestBed } from '@angular/core/testing';
import { TranslocoService } from '@jsverse/transloco';
import { provideTestI18n } from '../../../testing/providers';
import { LANGUAGE_KEY, LanguageSwitch, initialLanguage } from './language';

describe('initialLanguage', () => {
  it.each([
    ['zh-CN', ['en-US'], 'zh-CN'],
    ['en', ['zh-TW'], 'en'],
    [null, ['zh-TW', 'en'], 'zh-CN'],
    [null, ['zh'], 'zh-CN'],
    [null, ['en-GB', 'zh-CN'], 'en'],
    [null, ['fr-FR', 'de'], 'en'],
    ['klingon', ['fr'], 'en'],
  ] as const)('stored %p with browser %p → %p', (stored, browser, expected) => {
    expect(initialLanguage(stored, browser)).toBe(expected);
  });
});

describe('LanguageSwitch', () => {
  it('should remember the choice and set <html lang>', async () => {
    TestBed.configureTestingModule({ providers: provideTestI18n() });
    const language = TestBed.inject(LanguageSwitch);
    await language.use('zh-CN');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(TestBed.inject(TranslocoService).getActiveLang()).toBe('zh-CN');
    expect(language.active()).toBe('zh-CN');
  });
});
