import { loginResponseSchema } from '@usher/contracts';
import { hashPassword, verifyPassword } from '../src/auth/passwords.js';
import { createTestApp } from '../tests/support/app.js';
import { createTestDatabase, ENGINE } from '../tests/support/database.js';
import { aUser } from '../tests/support/users.js';

/**
 * Prints figures for the hot paths of the foundation; asserts only that the work was done
 * (speed targets are read from the output, never asserted, 20-api/CI guidance).
 */
async function measure(label: string, iterations: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(20, iterations); i++) await fn(); // warm-up
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  samples.sort((a, b) => a - b);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  const line =
    `${label.padEnd(42)} n=${iterations} ` +
    `p50=${pct(0.5).toFixed(2)}ms p95=${pct(0.95).toFixed(2)}ms p99=${pct(0.99).toFixed(2)}ms ` +
    `throughput=${((iterations / total) * 1000).toFixed(0)}/s`;
  process.stdout.write(`${line}\n`);
  return samples;
}

describe(`benchmarks (${ENGINE}, in-process, sequential)`, () => {
  it('should print latency figures for health, authenticated reads and login', async () => {
    const database = await createTestDatabase();
    const t = createTestApp(database.handle);
    const user = await aUser().create(t.context.db);
    const login = await t.call('POST', '/api/v1/auth/login', {
      body: { username: user.username, password: user.password },
    });
    const { token } = loginResponseSchema.parse(await login.json());

    const rss0 = process.memoryUsage().rss;
    await measure('GET /health (db ping)', 2000, () => t.call('GET', '/health'));
    await measure('GET /api/v1/me (JWT + user row)', 2000, async () => {
      const res = await t.call('GET', '/api/v1/me', { token });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    });
    await measure('GET /api/v1/nope (404 path)', 2000, () => t.call('GET', '/api/v1/nope'));
    await measure('POST /api/v1/auth/login (argon2id verify)', 50, async () => {
      const res = await t.call('POST', '/api/v1/auth/login', {
        body: { username: user.username, password: user.password },
      });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    });
    const hash = await hashPassword('benchmark-password');
    const verify = await measure('argon2id verify (m=19456,t=2,p=1)', 30, () =>
      verifyPassword(hash, 'benchmark-password'),
    );
    const rss1 = process.memoryUsage().rss;
    process.stdout.write(
      `RSS before ${(rss0 / 1048576).toFixed(0)} MiB, after ${(rss1 / 1048576).toFixed(0)} MiB\n`,
    );
    expect(verify).toHaveLength(30);
    await database.close();
  });
});
