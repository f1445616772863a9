import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { FAKE_SMTP_CERT, FAKE_TLS_KEY } from '@usher/testkit';
import { IntegrationError } from '../../src/integrations/errors.js';
import { IntegrationHttp } from '../../src/integrations/http/client.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { memoryLogger } from '../support/logs.js';

describe('IntegrationHttp', () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];
  let plan: (path: string, n: number) => { status: number; body: string; delayMs?: number };

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const step = plan(req.url ?? '', hits.length);
      setTimeout(() => {
        res.writeHead(step.status, { 'content-type': 'application/json' });
        res.end(step.body);
      }, step.delayMs ?? 0);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => (hits.length = 0));

  const client = () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const logs = memoryLogger('debug');
    const http = new IntegrationHttp('tmdb', metrics.integrations, logs.logger, ['sekret-key-123']);
    return { http, metrics, logs };
  };

  it('should retry a GET once after a 503 and count both outcomes', async () => {
    plan = (_p, n) => (n === 1 ? { status: 503, body: 'busy' } : { status: 200, body: '{"ok":1}' });
    const { http, metrics } = client();
    const reply = await http.request(`${base}/x`, { operation: 'search', timeoutMs: 2000 });
    expect(reply.status).toBe(200);
    expect(hits).toEqual(['GET /x', 'GET /x']);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'usher_integration_requests_total{system="tmdb",operation="search",outcome="http_5xx"} 1',
    );
    expect(text).toContain(
      'usher_integration_requests_total{system="tmdb",operation="search",outcome="ok"} 1',
    );
  });

  it('should never retry a write, and map 401 to auth without leaking the key', async () => {
    plan = () => ({ status: 401, body: '{"status_message":"bad key sekret-key-123"}' });
    const { http, logs } = client();
    const error = await http
      .request(`${base}/y?api_key=sekret-key-123`, {
        operation: 'create',
        method: 'POST',
        json: {},
        timeoutMs: 2000,
      })
      .then(
        () => {
          throw new Error('expected a failure');
        },
        (e: unknown) => e as IntegrationError,
      );
    expect(hits).toEqual(['POST /y?api_key=sekret-key-123']);
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error).toMatchObject({ kind: 'auth', status: 401, system: 'tmdb' });
    expect(error.upstreamMessage).toContain('[redacted]');
    expect(JSON.stringify(error)).not.toContain('sekret-key-123');
    expect(logs.text()).not.toContain('sekret-key-123');
    expect(error.toAppError()).toMatchObject({
      code: 'UPSTREAM_AUTH_FAILED',
      details: { system: 'tmdb' },
    });
  });

  it('should report a timeout as 502 UPSTREAM_UNAVAILABLE and hand back pass-through statuses', async () => {
    plan = (path) =>
      path === '/slow' ? { status: 200, body: '{}', delayMs: 400 } : { status: 404, body: '' };
    const { http } = client();
    const error = await http.request(`${base}/slow`, { operation: 'probe', timeoutMs: 100 }).then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e as IntegrationError,
    );
    expect(error).toMatchObject({
      kind: 'timeout',
      message: 'The metadata provider (TMDB) did not answer within 0.1 s',
    });
    expect(error.toAppError().code).toBe('UPSTREAM_UNAVAILABLE');
    const missing = await http.request(`${base}/missing`, {
      operation: 'get',
      timeoutMs: 1000,
      passStatuses: [404],
    });
    expect(missing.status).toBe(404);
  });

  it('should turn an unreadable reply into invalid_response', async () => {
    plan = () => ({ status: 200, body: '<html>' });
    const { http } = client();
    const reply = await http.request(`${base}/z`, { operation: 'get', timeoutMs: 1000 });
    expect(() => http.parse(reply, 'get', { safeParse: () => ({ success: false }) })).toThrow(
      expect.objectContaining({ kind: 'invalid_response' }),
    );
  });
  it('should name a TLS certificate problem instead of calling the server unreachable', async () => {
    // The testkit's self-signed certificate (CN=localhost), which no default trust store holds.
    const tls = createHttpsServer({ cert: FAKE_SMTP_CERT, key: FAKE_TLS_KEY }, (_req, res) =>
      res.end('{}'),
    );
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    const port = (tls.address() as { port: number }).port;
    try {
      const { http } = client();
      const fail = (url: string) =>
        http.request(url, { operation: 'probe', timeoutMs: 2000 }).then(
          () => {
            throw new Error('expected a failure');
          },
          (e: unknown) => e as IntegrationError,
        );
      const selfSigned = await fail(`https://localhost:${port}/`);
      expect(selfSigned).toMatchObject({ kind: 'tls' });
      expect(selfSigned.message).toBe(
        'The metadata provider (TMDB) uses a self-signed certificate (TLS DEPTH_ZERO_SELF_SIGNED_CERT); install a trusted certificate or use the right address',
      );
      // https:// against a plain-HTTP server: the TLS handshake reads an HTTP reply.
      const plain = await fail(`${base.replace('http://', 'https://')}/`);
      expect(plain.kind).toBe('tls');
      expect(plain.message).toMatch(
        /^The metadata provider \(TMDB\) did not answer TLS \(.+\): is the address http:\/\/ rather than https:\/\/\?$/,
      );
      // A closed port stays "unreachable".
      const closed = await fail('http://127.0.0.1:1/');
      expect(closed).toMatchObject({
        kind: 'network',
        message: 'The metadata provider (TMDB) is unreachable',
      });
    } finally {
      await new Promise((r) => tls.close(r));
    }
  });
});
