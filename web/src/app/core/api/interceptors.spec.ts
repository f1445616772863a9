import { HttpClient, HttpContext } from '@angular/common/http';
import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { firstValueFrom } from 'rxjs';
import { aUser, errorBody, storeSession, refusal } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../notifier';
import { SessionStore } from '../session/session-store';
import { ApiError, NETWORK_ERROR, UNEXPECTED_REPLY } from './api-error';
import { STARTUP_CHECK } from './context';

describe('interceptors', () => {
  let http: HttpTestingController;
  let client: HttpClient;
  let router: Router;
  let notifier: { show: jest.Mock };

  function setUp(): SessionStore {
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: Notifier, useValue: notifier }],
    });
    http = TestBed.inject(HttpTestingController);
    client = TestBed.inject(HttpClient);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
    jest.spyOn(router, 'navigateByUrl').mockResolvedValue(true);
    return TestBed.inject(SessionStore);
  }

  afterEach(() => http.verify());

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e,
    );

  it('should add the bearer token to API calls while signed in', () => {
    storeSession('tok');
    setUp();
    client.get('/api/v1/me').subscribe();
    expect(http.expectOne('/api/v1/me').request.headers.get('Authorization')).toBe('Bearer tok');
  });

  it('should not add a token when signed out, nor to non-API files', () => {
    setUp();
    client.get('/api/v1/public/site').subscribe();
    expect(http.expectOne('/api/v1/public/site').request.headers.has('Authorization')).toBe(false);
    storeSession('tok');
    client.get('/i18n/en.json').subscribe();
    expect(http.expectOne('/i18n/en.json').request.headers.has('Authorization')).toBe(false);
  });

  it('should add a fresh UUID request id per call', () => {
    setUp();
    client.get('/api/v1/a').subscribe();
    client.get('/api/v1/b').subscribe();
    const a = http.expectOne('/api/v1/a').request.headers.get('X-Request-Id');
    const b = http.expectOne('/api/v1/b').request.headers.get('X-Request-Id');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
  });

  it('should map the error body to an ApiError', async () => {
    setUp();
    const result = failure(firstValueFrom(client.get('/api/v1/x')));
    http
      .expectOne('/api/v1/x')
      .flush(errorBody('RATE_LIMITED', 'Slow down', { retryAfterSeconds: 30 }), {
        status: 429,
        statusText: 'Too Many Requests',
      });
    const error = (await result) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Slow down',
      requestId: 'req-123',
      details: { retryAfterSeconds: 30 },
    });
  });

  it('should map a network failure and a foreign reply to client-side codes', async () => {
    setUp();
    const offline = failure(firstValueFrom(client.get('/api/v1/a')));
    const proxy = failure(firstValueFrom(client.get('/api/v1/b')));
    const pending = http.expectOne('/api/v1/a');
    const sentId = pending.request.headers.get('X-Request-Id');
    pending.error(new ProgressEvent('error'));
    http
      .expectOne('/api/v1/b')
      .flush('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    expect(await offline).toMatchObject({ status: 0, code: NETWORK_ERROR, requestId: sentId });
    expect(await proxy).toMatchObject({ status: 502, code: UNEXPECTED_REPLY });
  });

  it('should sign out and redirect once for a burst of 401s', async () => {
    storeSession();
    const session = setUp();
    jest.spyOn(router, 'url', 'get').mockReturnValue('/console/overview?tab=x');
    const calls = [1, 2, 3].map((n) => failure(firstValueFrom(client.get(`/api/v1/r${n}`))));
    for (const n of [1, 2, 3]) {
      http
        .expectOne(`/api/v1/r${n}`)
        .flush(errorBody('TOKEN_REVOKED'), { status: 401, statusText: 'Unauthorized' });
    }
    await Promise.all(calls);
    expect(session.signedIn()).toBe(false);
    expect(router.navigate).toHaveBeenCalledTimes(1);
    expect(router.navigate).toHaveBeenCalledWith(['/login'], {
      queryParams: { redirect: '/console/overview?tab=x' },
    });
  });

  it('should not sign out on a 401 from /auth/login (a wrong password)', async () => {
    storeSession();
    const session = setUp();
    const result = failure(firstValueFrom(client.post('/api/v1/auth/login', {})));
    http
      .expectOne('/api/v1/auth/login')
      .flush(errorBody('INVALID_CREDENTIALS'), { status: 401, statusText: 'Unauthorized' });
    expect(await result).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(session.signedIn()).toBe(true);
    expect(router.navigate).not.toHaveBeenCalled();
  });

  it('should not redirect for the start-up check', async () => {
    storeSession();
    setUp();
    const context = new HttpContext().set(STARTUP_CHECK, true);
    const result = failure(firstValueFrom(client.get('/api/v1/me', { context })));
    http.expectOne('/api/v1/me').flush(...refusal(401, 'TOKEN_INVALID'));
    await result;
    expect(router.navigate).not.toHaveBeenCalled();
  });

  it('should route 403 PASSWORD_CHANGE_REQUIRED to the password card', async () => {
    storeSession();
    const session = setUp();
    session.me.set(aUser());
    const result = failure(firstValueFrom(client.get('/api/v1/admin/current')));
    http
      .expectOne('/api/v1/admin/current')
      .flush(errorBody('PASSWORD_CHANGE_REQUIRED'), { status: 403, statusText: 'Forbidden' });
    expect(await result).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED' });
    expect(router.navigateByUrl).toHaveBeenCalledWith('/console/account?section=password');
    expect(session.mustChangePassword()).toBe(true);
    expect(session.signedIn()).toBe(true);
  });

  it('should leave other 403s to the page', async () => {
    storeSession();
    setUp();
    const result = failure(firstValueFrom(client.get('/api/v1/admin/current')));
    http.expectOne('/api/v1/admin/current').flush(...refusal(403, 'FORBIDDEN'));
    expect(await result).toMatchObject({ code: 'FORBIDDEN' });
    expect(router.navigateByUrl).not.toHaveBeenCalled();
    expect(router.navigate).not.toHaveBeenCalled();
  });
});
