import type { FakeMediaServer } from '../../src/media-server/index.js';
import { API_KEY, adminHeaders, call, login, loginHeaders, start } from './helpers.js';

describe('media-server fake: fault injection and request log', () => {
  let jf: FakeMediaServer;
  beforeEach(async () => {
    jf = await start('jellyfin');
  });
  afterEach(async () => {
    await jf.close();
  });

  it('should delay every request by the configured latency', async () => {
    jf.slow(150);
    const t0 = Date.now();
    expect((await call(jf, 'GET', '/System/Info/Public')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    jf.clearFaults();
  });

  it('should let a client time out against a slow path', async () => {
    jf.slow(500, '/Sessions');
    const aborted = fetch(`${jf.url}/Sessions`, {
      headers: adminHeaders(jf),
      signal: AbortSignal.timeout(50),
    });
    await expect(aborted).rejects.toThrow();
  });

  it('should fail a path a given number of times, then recover', async () => {
    jf.fail(503, '/System/Info/Public', { times: 1 });
    const failed = await call(jf, 'GET', '/System/Info/Public');
    expect(failed.status).toBe(503);
    expect(failed.text).toBe('Error processing request.');
    expect((await call(jf, 'GET', '/System/Info/Public')).status).toBe(200);
  });

  it('should fail everything with a status until cleared', async () => {
    jf.fail(502);
    expect((await call(jf, 'GET', '/Users', { headers: adminHeaders(jf) })).status).toBe(502);
    jf.clearFaults();
    expect((await call(jf, 'GET', '/Users', { headers: adminHeaders(jf) })).status).toBe(200);
  });

  it('should drop connections as a network error', async () => {
    jf.dropConnections(/^\/Items/, { times: 1 });
    await expect(fetch(`${jf.url}/Items`, { headers: adminHeaders(jf) })).rejects.toThrow();
    expect((await call(jf, 'GET', '/Items/Counts', { headers: adminHeaders(jf) })).status).toBe(
      200,
    );
  });

  it('should go down and come back on the same port', async () => {
    const { url, port } = jf;
    await jf.down();
    await expect(fetch(`${url}/System/Info/Public`)).rejects.toThrow();
    await jf.up();
    expect(jf.port).toBe(port);
    expect((await fetch(`${url}/System/Info/Public`)).status).toBe(200);
  });

  it('should note ignored legacy credentials in the log', async () => {
    jf.clearRequests();
    await call(jf, 'GET', '/Users', { headers: { 'x-emby-token': API_KEY } });
    expect(jf.requests()[0]).toMatchObject({ status: 401, ignoredLegacy: true });
    expect(jf.requests()[0]?.headers['x-emby-token']).toBe('[redacted]');
  });

  it('should log method, path, query, redacted headers, body, route and status', async () => {
    jf.clearRequests();
    await call(jf, 'GET', `/Users?isHidden=false&ApiKey=${API_KEY}`);
    await login(jf, 'alice', 'alice-pass', 'usher-42', {
      authorization: `${loginHeaders(jf, 'usher-42').authorization}, Token="${API_KEY}"`,
    });
    const [list, auth] = jf.requests();
    expect(list).toMatchObject({
      method: 'GET',
      path: '/Users',
      route: '/Users',
      status: 200,
      query: { isHidden: 'false', ApiKey: '[redacted]' },
    });
    expect(auth).toMatchObject({
      method: 'POST',
      path: '/Users/AuthenticateByName',
      body: { Username: 'alice', Pw: 'alice-pass' },
      status: 200,
    });
    expect(auth?.headers['authorization']).toContain('Token="[redacted]"');
    expect(list?.credential).toBe('ApiKey');
    expect(auth?.credential).toBe('authorization:MediaBrowser');
    expect(JSON.stringify(jf.requests())).not.toContain(API_KEY);
    expect(jf.requests('/Users/AuthenticateByName')).toHaveLength(1);
  });
});
