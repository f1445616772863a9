import { HttpClient } from '@angular/common/http';
import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { firstValueFrom } from 'rxjs';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../session/session-store';
import { ApiError } from './api-error';
import { EARLY_READ_MS, type EarlyRead } from './early-reads';

const LATEST = '/api/v1/media/latest?type=movie&limit=20';

function early(body: unknown, at = Date.now(), status = 200): EarlyRead {
  return { at, reply: Promise.resolve({ status, body }) };
}

const noReply = (): EarlyRead => ({ at: Date.now(), reply: Promise.resolve(null) });

describe('earlyReadInterceptor', () => {
  let http: HttpTestingController;
  let client: HttpClient;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    client = TestBed.inject(HttpClient);
  });

  afterEach(() => {
    delete window.usherEarlyReads;
    http.verify();
  });

  const latest = () =>
    firstValueFrom(client.get('/api/v1/media/latest', { params: { type: 'movie', limit: 20 } }));

  it('should answer the first matching GET from the read boot.js started, and only the first', async () => {
    window.usherEarlyReads = { [LATEST]: early({ state: 'ok', items: ['early'] }) };
    await expect(latest()).resolves.toEqual({ state: 'ok', items: ['early'] });
    // Taken once: the next read (Refresh) asks the API.
    const again = latest();
    http.expectOne(LATEST).flush({ state: 'ok', items: [] });
    await expect(again).resolves.toEqual({ state: 'ok', items: [] });
  });

  it('should hand an error reply on as that error, without asking again', async () => {
    const body = { error: { code: 'TOKEN_REVOKED', message: 'Signed out', requestId: 'r1' } };
    window.usherEarlyReads = { [LATEST]: early(body, Date.now(), 401) };
    const session = TestBed.inject(SessionStore);
    const expire = jest.spyOn(session, 'expire').mockImplementation(() => true);
    const failure = await latest().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, code: 'TOKEN_REVOKED', requestId: 'r1' });
    // The error interceptor saw it as it sees any reply: the dead session ends.
    expect(expire).toHaveBeenCalledTimes(1);
    http.expectNone(LATEST);
  });

  it('should ask the API when the early read got no reply, so the outage is its own', async () => {
    window.usherEarlyReads = { [LATEST]: noReply() };
    const reply = latest();
    const request = await waitForRequest(http, LATEST);
    expect(request.request.headers.has('X-Request-Id')).toBe(true);
    request.flush(
      { error: { code: 'MEDIA_SERVER_UNAVAILABLE', message: 'down', requestId: 'r2' } },
      { status: 503, statusText: 'Service Unavailable' },
    );
    await expect(reply).rejects.toBeInstanceOf(ApiError);
    expect(window.usherEarlyReads).toEqual({});
  });

  it('should ask the API when the early read is older than EARLY_READ_MS', async () => {
    window.usherEarlyReads = { [LATEST]: early({ stale: true }, Date.now() - EARLY_READ_MS) };
    const reply = latest();
    http.expectOne(LATEST).flush({ fresh: true });
    await expect(reply).resolves.toEqual({ fresh: true });
  });

  it('should leave other URLs and other methods alone', async () => {
    window.usherEarlyReads = { [LATEST]: early({ early: true }) };
    const other = firstValueFrom(client.get('/api/v1/media/latest?type=series&limit=20'));
    http.expectOne('/api/v1/media/latest?type=series&limit=20').flush({ other: true });
    await expect(other).resolves.toEqual({ other: true });
    const posted = firstValueFrom(client.post(LATEST, {}));
    http.expectOne((r) => r.method === 'POST').flush({ posted: true });
    await expect(posted).resolves.toEqual({ posted: true });
    expect(Object.keys(window.usherEarlyReads)).toEqual([LATEST]);
  });
});

/** The fallback request goes out after the early read's promise settles. */
async function waitForRequest(http: HttpTestingController, url: string) {
  for (let tick = 0; tick < 10; tick++) {
    const found = http.match(url);
    if (found.length) return found[0]!;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return http.expectOne(url);
}
