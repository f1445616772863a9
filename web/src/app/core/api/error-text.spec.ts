import { TestBed } from '@angular/core/testing';
import { TranslocoService } from '@jsverse/transloco';
import { provideTestI18n } from '../../../testing/providers';
import { ApiError, NETWORK_ERROR } from './api-error';
import { ErrorTexts } from './error-text';

describe('ErrorTexts', () => {
  let texts: ErrorTexts;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestI18n() });
    texts = TestBed.inject(ErrorTexts);
  });

  const apiError = (status: number, code: string, details?: unknown, message = 'API says') =>
    new ApiError(status, code, message, 'req-9', details);

  it('should translate a known code without a reference when it is self-explanatory', () => {
    expect(texts.describe(apiError(401, 'INVALID_CREDENTIALS'))).toEqual({
      message: 'Wrong username or password.',
      reference: null,
    });
  });

  it('should put the wait into a rate-limit message', () => {
    const text = texts.describe(apiError(429, 'RATE_LIMITED', { retryAfterSeconds: 42 }));
    expect(text.message).toBe('Too many attempts. Try again in 42 s.');
  });

  it('should name the upstream system', () => {
    const text = texts.describe(apiError(502, 'UPSTREAM_UNAVAILABLE', { system: 'media_server' }));
    expect(text.message).toBe('The media server did not answer.');
    expect(text.reference).toBe('Reference: req-9');
  });

  it('should name the settings group that fixes a missing configuration', () => {
    const text = texts.describe(apiError(503, 'NOT_CONFIGURED', { system: 'media_server' }));
    expect(text.settingsGroup).toBe('media_server');
    expect(texts.describe(apiError(503, 'NOT_CONFIGURED', { system: 'smtp' })).settingsGroup).toBe(
      'email',
    );
    expect(texts.describe(apiError(503, 'NOT_CONFIGURED')).settingsGroup).toBeUndefined();
    expect(
      texts.describe(apiError(502, 'UPSTREAM_UNAVAILABLE', { system: 'smtp' })),
    ).not.toHaveProperty('settingsGroup');
  });

  it('should add the reference to a server error', () => {
    expect(texts.describe(apiError(500, 'INTERNAL_ERROR'))).toEqual({
      message: 'Something went wrong on the server.',
      reference: 'Reference: req-9',
    });
  });

  it("should fall back to the API's English message for a code this build does not know", () => {
    const text = texts.describe(apiError(409, 'SOMETHING_NEW', undefined, 'A newer API said so'));
    expect(text.message).toBe('A newer API said so');
    expect(text.reference).toBe('Reference: req-9');
  });

  it('should explain a network failure', () => {
    expect(texts.describe(apiError(0, NETWORK_ERROR)).message).toBe(
      "Can't reach Usher. Check your connection and try again.",
    );
  });

  it('should answer in the active language', () => {
    TestBed.inject(TranslocoService).setActiveLang('zh-CN');
    expect(texts.describe(apiError(401, 'INVALID_CREDENTIALS')).message).toBe('用户名或密码错误。');
  });

  it('should describe a non-API failure generically', () => {
    expect(texts.describe(new Error('boom')).message).toBe(
      'Something went wrong. Please try again.',
    );
  });
});
