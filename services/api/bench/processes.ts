// Processes the benches start (the built API, the ceiling) and what they read of them: a free
// port, RSS from /proc, a start that waits for the first 200 on a health path, sign-ins, and
// the build they run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round } from './harness.js';

export const apiRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export { freePort } from '../tests/support/api-process.js';

/**
 * Signs in (from `forwardedFor` when given, as behind the proxy); waits out a 429 (a login storm
 * leaves the address's progressive delay armed).
 */
export async function login(
  base: string,
  username: string,
  password: string,
  forwardedFor?: string,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: JSON.stringify({ username, password }),
    });
    const body = (await res.json()) as { token?: string };
    if (body.token) return body.token;
    if (res.status !== 429 || attempt > 30) {
      throw new Error(`login ${username}: ${res.status} ${JSON.stringify(body)}`);
    }
    await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
  }
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return round(kb / 1024, 1);
}

export interface Server {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first 200 from /health. */
  startMs: number;
  /** Its output so far (log lines and `--trace-gc` lines). */
  output(): string;
  stop(): Promise<void>;
}

export async function startProcess(
  args: string[],
  env: Record<string, string>,
  port: number,
  healthPath: string,
): Promise<Server> {
  const started = performance.now();
  // The log goes to a file, as a container runtime drains it: a pipe read by this process, busy
  // driving autocannon, filled up and held the API's synchronous log writes (the API, unlike the
  // ceiling, logs a line per request).
  mkdirSync(join(apiRoot, '.cache'), { recursive: true });
  const logFile = join(apiRoot, '.cache', `bench-${process.pid}-${port}.log`);
  const log = openSync(logFile, 'w');
  // Every process traces its GCs (one short line each): the /me section reports the scavenges.
  // BENCH_KEEP_LOG=1 keeps the file (in services/api/.cache) to read them after the run.
  const child = spawn(process.execPath, ['--trace-gc', ...args], {
    cwd: apiRoot,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const tail = () => {
    const text = readFileSync(logFile, 'utf8');
    return text.slice(-4000);
  };
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (gone) throw new Error(`${args.join(' ')} exited before it was healthy:\n${tail()}`);
    if (performance.now() - started > 90_000) throw new Error(`not healthy after 90 s:\n${tail()}`);
    try {
      const res = await fetch(`${url}${healthPath}`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  const startMs = round(performance.now() - started);
  return {
    child,
    url,
    startMs,
    output: () => readFileSync(logFile, 'utf8'),
    stop: async () => {
      if (!gone) child.kill('SIGTERM');
      await exited;
      if (!process.env.BENCH_KEEP_LOG) rmSync(logFile, { force: true });
    },
  };
}

/**
 * Builds the API as `npm start` does (unless BENCH_NO_BUILD) and copies `dist/` to `copy`: another
 * `npm start` or build on this checkout would replace dist/ mid-run. Whether the build succeeded.
 */
export function buildAndCopy(copy: string): boolean {
  const built = process.env.BENCH_NO_BUILD
    ? { status: 0 }
    : spawnSync(process.execPath, ['build.mjs'], { cwd: apiRoot, stdio: 'inherit' });
  if (built.status !== 0) return false;
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(apiRoot, 'dist'), copy, { recursive: true });
  return true;
}
