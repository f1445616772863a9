// The real API process for the process suites: bundled like the image (`main.js` + `drizzle/`)
// and started with a minimal environment on the embedded database, the way `npm start` and the
// container run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '@usher/testkit';
import { build } from 'esbuild';
// @ts-expect-error -- a plain ES module of the build, without types.
import { bundleOptions } from '../../bundle-options.mjs';

const apiRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Bundles `src/main.ts` into a fresh folder (`<folder>/main.js` plus `drizzle/`) and returns the
 * folder. It lies inside the workspace (the git-ignored .cache) so the bundle's bare imports
 * resolve from the workspace's node_modules, as they do from the image's own node_modules.
 */
export async function bundleApi(prefix: string): Promise<string> {
  mkdirSync(join(apiRoot, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(apiRoot, '.cache', prefix));
  await build({
    entryPoints: [join(apiRoot, 'src/main.ts')],
    outfile: join(dir, 'main.js'),
    // As build.mjs, so the suites run the bundle the image ships.
    ...bundleOptions,
    logLevel: 'silent',
  });
  cpSync(join(apiRoot, 'drizzle'), join(dir, 'drizzle'), { recursive: true });
  return dir;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

export interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** Spawns `command args` with only PATH and `env` in its environment, collecting its output. */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Started {
  let out = '';
  let err = '';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** The bundle in `dir` (see bundleApi) with `env` and `args`, working directory `dir`. */
export function startApi(dir: string, env: Record<string, string>, args: string[] = []): Started {
  return startProcess(process.execPath, [join(dir, 'main.js'), ...args], { cwd: dir, env });
}

/** The first /health status; the port opens only after migrations and bootstrap. */
export async function waitForHealth(port: number, started: Started): Promise<number> {
  const exited = new AbortController();
  void started.exited.then(() => exited.abort(new Error(`exited early: ${started.err()}`)));
  const res = await eventually(() => fetch(`http://127.0.0.1:${port}/health`), {
    timeoutMs: 60_000,
    intervalMs: 50,
    signal: exited.signal,
  });
  return res.status;
}

/** The log lines carrying a temporary password. */
export const tempLines = (out: string) =>
  out.split('\n').filter((l) => l.includes('TEMPORARY PASSWORD'));

/** The password of the one TEMPORARY PASSWORD line in `out` (a JSON log line). */
export function temporaryPassword(out: string): string {
  const lines = tempLines(out);
  if (lines.length !== 1)
    throw new Error(`expected one TEMPORARY PASSWORD line, got ${lines.length}`);
  return /TEMPORARY PASSWORD for user \\"[^\\]+\\": ([A-Za-z0-9]{20})/.exec(lines[0]!)![1]!;
}
