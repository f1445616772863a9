/** Starting and watching a server process for the container-equivalent smoke. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import { eventually } from '@usher/testkit';

export interface Started {
  child: ChildProcess;
  /** stdout and stderr so far (the API logs JSON lines to stdout). */
  output: () => string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1');
  });
}

/**
 * Runs `command args` with exactly `env` as its environment (what `env -i VAR=…` gives; the
 * values stay off the command line, where `ps` would show them).
 */
export function start(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Started {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return { child, output: () => output, exited };
}

/** Polls GET url until it answers `status` or the deadline passes; returns the last status. */
export async function waitForStatus(
  url: string,
  status: number,
  timeoutMs: number,
): Promise<number> {
  let last = 0;
  const answers = async () => {
    last = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status,
      () => 0, // not listening yet
    );
    expect(last).toBe(status);
  };
  // A miss is the caller's to report, with the server's output: it gets the last status.
  await eventually(answers, { timeoutMs, intervalMs: 100 }).catch(() => undefined);
  return last;
}

/** Resolves with the exit code, or 'timeout' after `ms`. */
export function exitWithin(started: Started, ms: number): Promise<number | string> {
  return Promise.race([
    started.exited,
    new Promise<string>((r) => setTimeout(() => r('timeout'), ms).unref()),
  ]);
}

/** Fresh secrets in the shapes of 70-deploy.md §3 (16 / 32 random bytes as hex). */
export function testSecrets(): Record<string, string> {
  const hex = (n: number) => randomBytes(n).toString('hex');
  return {
    DATABASE_PASSWORD: hex(16),
    JWT_SECRET: hex(32),
    CONFIG_ENCRYPTION_KEY: hex(32),
    INTERNAL_API_SECRET: hex(32),
  };
}
