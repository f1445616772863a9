// The real process under load: SIGTERM while requests are in flight (they complete, new
// connections are refused, exit 0), and its log lines searched for the secrets it was given.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { eventually } from '@usher/testkit';
import { bundleApi, freePort } from '../tests/support/api-process.js';
import { freshSecrets } from '../tests/support/config.js';
import { recordFigures } from './figures.js';

let dir: string;

beforeAll(async () => {
  dir = await bundleApi('reliability-process-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('SIGTERM under load', () => {
  it('should finish every in-flight request, refuse new connections and exit 0', async () => {
    const secrets = freshSecrets();
    const adminPassword = 'Reliability-Admin-Pass-93';
    const port = await freePort();
    let out = '';
    const child = spawn(process.execPath, [join(dir, 'main.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        ...secrets,
        ADMIN_PASSWORD: adminPassword,
        PORT: String(port),
        HOST: '127.0.0.1',
        TRUST_PROXY_HOPS: '1',
        PGLITE_DATA_DIR: join(dir, 'db'),
      },
    });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const base = `http://127.0.0.1:${port}`;
    await eventually(() => fetch(`${base}/health`), { timeoutMs: 60_000, intervalMs: 100 });

    // Correct-password logins, each from its own forwarded address (so no limiter is involved)
    // and on its own connection; each spends an argon2 verification, so many are in flight.
    const body = JSON.stringify({ username: 'admin', password: adminPassword });
    const sent: Promise<void>[] = [];
    const login = (i: number) =>
      new Promise<number | string>((resolve) => {
        const req = httpRequest(
          `${base}/api/v1/auth/login`,
          {
            method: 'POST',
            agent: false,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'x-forwarded-for': `10.9.${Math.floor(i / 200)}.${(i % 200) + 1}`,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', (err) => resolve(`error: ${err.message}`));
        sent.push(new Promise((r) => req.on('finish', () => r())));
        req.end(body);
      });
    const inFlight = Array.from({ length: 40 }, (_, i) => login(i));
    // Every request written and accepted before the signal.
    await Promise.all(sent);
    await new Promise((r) => setTimeout(r, 50));
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    let refusedAfterMs = -1;
    await eventually(
      async () => {
        if (await accepts(port)) throw new Error('still accepting');
        refusedAfterMs = Date.now() - signalledAt;
      },
      { timeoutMs: 5_000, intervalMs: 20 },
    ).catch(() => undefined);
    const statuses = await Promise.all(inFlight);
    const code = await exited;
    const exitSeconds = (Date.now() - signalledAt) / 1000;
    const completed = statuses.filter((st) => st === 200).length;
    recordFigures('SIGTERM under load', {
      requestsInFlight: inFlight.length,
      completed200: completed,
      failed: statuses.filter((s) => s !== 200),
      newConnectionsRefusedAfterMs: refusedAfterMs,
      exitCode: code,
      secondsToExit: exitSeconds,
    });
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(refusedAfterMs).toBeGreaterThanOrEqual(0);
    expect(code).toBe(0);
    // Secrets search over every line the process wrote.
    const leaked = [...Object.values(secrets), adminPassword].filter((s) => out.includes(s));
    expect(leaked.map((s) => s.slice(0, 4))).toEqual([]);
  }, 120_000);
});
