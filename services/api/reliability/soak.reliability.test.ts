// A bounded soak: RELIABILITY_SOAK_SECONDS (default 30; 120 for the full run) of mixed load on
// the in-process app — reads, sign-ins, media requests, admin lists — printing the error count,
// latency percentiles and the RSS curve.
import { performance } from 'node:perf_hooks';
import { median, percentile } from '../tests/support/stats.js';
import { aUser } from '../tests/support/users.js';
import { recordFigures } from './figures.js';
import { reliabilityEnv, secretFindings, type ReliabilityEnv } from './harness.js';

const SECONDS = Number(process.env.RELIABILITY_SOAK_SECONDS ?? 30);
const WORKERS = Number(process.env.RELIABILITY_SOAK_WORKERS ?? 8);

let env: ReliabilityEnv;
afterAll(() => env.close());

describe('soak', () => {
  it(`should serve ${SECONDS} s of mixed load without errors`, async () => {
    env = await reliabilityEnv();
    const admin = await env.admin();
    const member = await env.member();
    const password = 'Soak-Password-2468';
    env.passwords.push(password);
    const signer = await aUser().withPassword(password).create(env.t.context.db);
    let tmdbId = 9_500_000;
    let ip = 0;
    const operations: [string, () => Promise<{ res: Response }>][] = [
      ['me', () => env.send('GET', '/api/v1/me', { token: member.token })],
      ['own requests', () => env.send('GET', '/api/v1/media-requests', { token: member.token })],
      [
        'create request',
        () =>
          env.send('POST', '/api/v1/media-requests', {
            token: member.token,
            body: {
              type: 'MOVIE',
              tmdbId: ++tmdbId,
              season: 0,
              name: `Soak ${tmdbId}`,
              year: 2020,
            },
          }),
      ],
      ['admin users', () => env.send('GET', '/api/v1/admin/users', { token: admin.token })],
      [
        'admin requests',
        () => env.send('GET', '/api/v1/admin/media-requests', { token: admin.token }),
      ],
      [
        'login',
        () =>
          env.send('POST', '/api/v1/auth/login', {
            body: { username: signer.username, password },
            headers: {
              'x-forwarded-for': `10.${Math.floor(++ip / 60000) % 250}.${Math.floor(ip / 250) % 240}.${(ip % 250) + 1}`,
            },
          }),
      ],
      ['site', () => env.send('GET', '/api/v1/public/site')],
      ['health', () => env.send('GET', '/health')],
    ];
    const latencies: number[] = [];
    const errors: Record<string, number> = {};
    const perOperation: Record<string, number> = {};
    const rssMb: number[] = [Math.round(process.memoryUsage().rss / 1048576)];
    const sampler = setInterval(
      () => rssMb.push(Math.round(process.memoryUsage().rss / 1048576)),
      Math.max(1000, (SECONDS * 1000) / 12),
    );
    const until = Date.now() + SECONDS * 1000;
    const worker = async (n: number) => {
      let i = n;
      while (Date.now() < until) {
        const [name, run] = operations[i++ % operations.length]!;
        const start = performance.now();
        const { res } = await run();
        latencies.push(performance.now() - start);
        perOperation[name] = (perOperation[name] ?? 0) + 1;
        const ok = res.status < 400 || (name === 'create request' && res.status === 422);
        if (!ok) errors[`${name} ${res.status}`] = (errors[`${name} ${res.status}`] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    clearInterval(sampler);
    rssMb.push(Math.round(process.memoryUsage().rss / 1048576));
    await env.settle();
    const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
    recordFigures('soak', {
      seconds: SECONDS,
      workers: WORKERS,
      requests: latencies.length,
      requestsPerSecond: Math.round(latencies.length / SECONDS),
      errors: errorCount,
      errorsByKind: errors,
      p50Ms: Number(median(latencies).toFixed(1)),
      p99Ms: Number(percentile(latencies, 99).toFixed(1)),
      maxMs: Number(Math.max(...latencies).toFixed(1)),
      rssMbCurve: rssMb,
      perOperation,
    });
    expect(errors).toEqual({});
    expect(env.t.logs.lines().filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual(
      [],
    );
    expect(secretFindings(env)).toEqual([]);
  }, 600_000);
});
