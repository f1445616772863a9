/**
 * The real API behind the web image's nginx (70-deploy.md §8): its production bundle on a
 * throwaway embedded database, configured as Compose runs it behind the web container.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { eventually } from '@usher/testkit';
import { freePort, testSecrets, waitForStatus } from './process.js';
import { ROOT } from './tools.js';

const PASSWORD_LINE = /TEMPORARY PASSWORD for user "admin": (\S{20})/;

export interface Api {
  url: string;
  /** The admin's temporary password, read from the API's log. */
  password: string;
  /** The secrets the API was started with (INTERNAL_API_SECRET is what a Bot needs). */
  secrets: Record<string, string>;
  log: () => string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * The environment without NX_INVOCATION_ROOT_PID, so a nested nx is its own root, as in
 * scripts/image/assemble-*.sh: nx 23 takes sibling builds of one task under the same root (two
 * deploy suites at once under `npm test`) for a recursive loop.
 */
function ownNxRoot(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NX_INVOCATION_ROOT_PID: _root, ...rest } = env;
  return rest;
}

/** `nx run api:build`: the bundle assemble-api.sh ships (an nx cache hit when nothing changed). */
export function buildApi(): void {
  const built = spawnSync('npx', ['nx', 'run', 'api:build', '--outputStyle=stream'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...ownNxRoot(process.env), NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (built.status !== 0)
    throw new Error(`nx run api:build failed:\n${built.stdout}${built.stderr}`);
}

/**
 * The API bundle (buildApi) on a fresh embedded database in `dir`, with TRUST_PROXY_HOPS=1 as
 * Compose sets it behind the web image; resolves once /health answers 200.
 */
export async function startApi(dir: string, secrets = testSecrets()): Promise<Api> {
  const port = await freePort();
  let log = '';
  const child = spawn(process.execPath, [join(ROOT, 'services/api/dist/main.js')], {
    // Not the repository: nothing relative (data/, web/dist) resolves to the workspace.
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      PGLITE_DATA_DIR: join(dir, 'db'),
      TRUST_PROXY_HOPS: '1',
      LOG_LEVEL: 'info',
      ...secrets,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  if ((await waitForStatus(`${url}/health`, 200, 90_000)) !== 200) {
    await stop();
    throw new Error(`API did not become healthy:\n${log}`);
  }
  const line = log.split('\n').find((l) => l.includes('TEMPORARY PASSWORD')) ?? '';
  const password = PASSWORD_LINE.exec(
    String((JSON.parse(line || '{}') as { msg?: string }).msg),
  )?.[1];
  if (!password) throw new Error(`no TEMPORARY PASSWORD line:\n${log}`);
  return { url, password, secrets, log: () => log, child, stop };
}

/** The API writes its request line after replying: poll its log briefly for a line. */
export async function logLine(
  api: Api,
  match: (line: string) => boolean,
): Promise<string | undefined> {
  const written = () => {
    const line = api.log().split('\n').find(match);
    expect(line).toBeDefined();
    return line;
  };
  return eventually(written, { timeoutMs: 3000, intervalMs: 50 }).catch(() => undefined);
}
