// Child processes of the demo (the API and the bot): ports, health waits and a bounded stop.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether a server could listen on `port` on all interfaces, as the API and the bot do. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** A port the system has just handed out (free now; nothing reserves it for later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export const hasExited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null;

/**
 * Polls `url` until it answers 200 (and `also()` holds), the child exits (error) or the deadline
 * passes (error). The port opens only after the service's start-up work, so refusals are normal.
 */
export async function waitForHealth(
  name: string,
  url: string,
  child: ChildProcess,
  deadline: number,
  also: () => boolean = () => true,
): Promise<void> {
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new Error(`${name} exited early (code ${child.exitCode ?? child.signalCode})`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200 && also()) return;
    } catch {
      // Not listening yet: the port opens once start-up is done.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy in time (${url})`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(force);
}
