import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** argon2id with OWASP's minimum parameters (10-data.md §2: m=19456 KiB, t=2, p=1). */
const ARGON2_OPTIONS = {
  // `Algorithm.Argon2id` is an ambient const enum, unusable under verbatimModuleSyntax.
  algorithm: 2,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * How many argon2 computations run at once: one less than the cores (at least one). Each takes an
 * argon2 thread (below) and ~19 MiB for tens of milliseconds; unbounded, a storm of 50 logins kept
 * every core busy hashing, so `/health` and signed-in reads waited behind it (issue 21). The
 * rest wait their turn in order, which costs a login queueing time but never starves the loop.
 */
export const ARGON2_CONCURRENCY = Math.max(1, availableParallelism() - 1);

/** How much argon2's threads raise their nice value (at most to 19); the event loop keeps its. */
export const ARGON2_NICE = 10;

/**
 * The argon2 thread: lowers its own priority (on Linux setpriority(PRIO_PROCESS, 0) applies to the
 * calling thread only), then hashes and verifies synchronously, one message at a time. On libuv's
 * pool argon2 ran at the event loop's priority, so on 2 cores the loop waited behind it for the
 * CPU and `/health` p99 tripled during a login storm (issue 21). Evaluated source, not a file:
 * the bundle (build.mjs) and jest both run it as it is; @node-rs/argon2 is required by the path
 * the main thread resolved, so it is the same external package either way.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const os = require('node:os');
  os.setPriority(0, Math.min(19, os.getPriority(0) + workerData.nice));
} catch {
  // No permission in some containers: run at normal priority.
}
const argon2 = require(workerData.argon2);
parentPort.on('message', ({ op, password, passwordHash, options }) => {
  try {
    const value =
      op === 'hash' ? argon2.hashSync(password, options) : argon2.verifySync(passwordHash, password);
    parentPort.postMessage({ value });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Job =
  { op: 'hash'; password: string } | { op: 'verify'; passwordHash: string; password: string };

interface Argon2Thread {
  worker: Worker;
  /** Ends the thread once it has rested `argon2IdleMs` (see `retireWhenIdle`). */
  retire?: NodeJS.Timeout;
  /** The call it is computing; a thread computes one at a time (`bounded` sees to it). */
  pending?: { resolve: (value: unknown) => void; reject: (error: Error) => void };
}

/** Started on first use, so a process that never hashes keeps its memory (~10 MB a thread). */
const idle: Argon2Thread[] = [];
const threads = new Set<Argon2Thread>();
let argon2Path: string | undefined;

/**
 * How long an argon2 thread waits for its next call before it ends; a later call starts a new
 * one. Ending it gives back what its isolate holds: in a bare process after 21 hashes, RSS 66.0
 * → 61.4 MB when the thread ends; the rest of the ~19 MB a first thread adds is Node's and V8's
 * once-per-process share, kept after it ends (a second thread started and ended: 62.9 MB).
 * docs/performance.md, "Scale (issue 33)".
 */
export const ARGON2_IDLE_MS = 30_000;
let argon2IdleMs = ARGON2_IDLE_MS;

/** Tests: how long an idle thread lives (`ARGON2_IDLE_MS` unless set); returns the previous. */
export function setArgon2IdleMs(ms: number): number {
  const previous = argon2IdleMs;
  argon2IdleMs = ms;
  return previous;
}

function retireWhenIdle(thread: Argon2Thread): void {
  idle.push(thread);
  thread.retire = setTimeout(() => {
    thread.retire = undefined;
    const at = idle.indexOf(thread);
    if (at < 0) return;
    idle.splice(at, 1);
    threads.delete(thread);
    void thread.worker.terminate();
  }, argon2IdleMs);
  // The timer keeps no process alive, like the idle thread itself.
  thread.retire.unref();
}

function takeIdle(): Argon2Thread | undefined {
  const thread = idle.pop();
  if (thread?.retire) clearTimeout(thread.retire);
  if (thread) thread.retire = undefined;
  return thread;
}

/** The thread computing a call died (or was stopped): a server failure, never a wrong password. */
export class Argon2ThreadError extends Error {
  constructor(cause: Error) {
    super(`argon2 thread failed: ${cause.message}`, { cause });
    this.name = 'Argon2ThreadError';
  }
}

function startThread(): Argon2Thread {
  argon2Path ??= createRequire(import.meta.url).resolve('@node-rs/argon2');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    name: 'argon2',
    workerData: { argon2: argon2Path, nice: ARGON2_NICE },
  });
  // Idle threads never keep the process alive; a busy one does until its reply (see `run`).
  worker.unref();
  const thread: Argon2Thread = { worker };
  threads.add(thread);
  const fail = (cause: Error) => {
    const error = new Argon2ThreadError(cause);
    if (!threads.delete(thread)) return;
    const at = idle.indexOf(thread);
    if (at >= 0) idle.splice(at, 1);
    if (thread.retire) clearTimeout(thread.retire);
    // The next call starts a replacement; the one under way fails (a login answers 500).
    thread.pending?.reject(error);
    thread.pending = undefined;
  };
  worker.on('message', (reply: { value?: unknown; error?: string }) => {
    const pending = thread.pending;
    thread.pending = undefined;
    worker.unref();
    retireWhenIdle(thread);
    if (reply.error === undefined) pending?.resolve(reply.value);
    else pending?.reject(new Error(reply.error));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`argon2 thread exited (${code})`)));
  return thread;
}

function run(job: Job): Promise<unknown> {
  const thread = takeIdle() ?? startThread();
  return new Promise((resolve, reject) => {
    thread.pending = { resolve, reject };
    thread.worker.ref();
    thread.worker.postMessage({ ...job, options: ARGON2_OPTIONS });
  });
}

/** Ends the argon2 threads (shutdown); calls under way fail, a later call starts new ones. */
export async function stopArgon2Threads(): Promise<void> {
  for (const thread of threads) if (thread.retire) clearTimeout(thread.retire);
  await Promise.all([...threads].map((t) => t.worker.terminate()));
}

/**
 * How long a computation's slot rests, relative to how long it computed, before it goes to a
 * computation that was waiting for it. Only while others wait: a lone login or a test's
 * sequential hashes never rest. Under a login storm each argon2 thread so works at most half the
 * time. Measured on the 2-vCPU bench box (`npm run bench -- --only=storm`, docs/performance.md,
 * session 19): a single thread hashing back to back costs `/health` and `/me` throughput and tail
 * latency even at nice 10 or SCHED_IDLE, because the two vCPUs are not independent (a SCHED_IDLE
 * busy loop in another process costs a bare HTTP server ~20 % of its req/s); resting as long as
 * it computed took `/health`'s throughput during a 50-way storm from 0.46–0.56 to 0.66–0.82 ×
 * its throughput alone and its p99 from 1.4–2.4 × to 0.9–1.75 × alone, for 13–14 logins/s
 * instead of 35 on two vCPUs (still ~50 000 an hour; a storm that size is more likely credential
 * stuffing than members).
 */
export const ARGON2_REST_RATIO = 1;

let running = 0;
let resting = 0;
const waiting: (() => void)[] = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running < ARGON2_CONCURRENCY) running++;
  // The slot is handed over by the finishing computation (see below): `running` stays as it is.
  else await new Promise<void>((resolve) => waiting.push(resolve));
  const started = performance.now();
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (!next) running--;
    else {
      resting++;
      setTimeout(
        () => {
          resting--;
          next();
        },
        (performance.now() - started) * ARGON2_REST_RATIO,
      );
    }
  }
}

/**
 * How many argon2 slots are taken (`running`, including those resting before their next
 * computation), how many of them rest, and how many computations wait (tests and metrics).
 */
export function argon2Load(): { running: number; resting: number; waiting: number } {
  return { running, resting, waiting: waiting.length };
}

/** How many argon2 threads are alive (tests). */
export function argon2Threads(): number {
  return threads.size;
}

export function hashPassword(password: string): Promise<string> {
  return bounded(() => run({ op: 'hash', password }) as Promise<string>);
}

/** Whether `password` matches the PHC `passwordHash`; a malformed hash counts as no match. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await bounded(() => run({ op: 'verify', passwordHash, password }) as Promise<boolean>);
  } catch (error) {
    if (error instanceof Argon2ThreadError) throw error;
    // A corrupt or foreign hash format must read as "wrong password", never as a 500.
    return false;
  }
}

/**
 * A hash of a random password, verified against when the user does not exist, so a login for an
 * unknown name costs the same time as one for a known name (no user enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  // A failed hash (its thread died) is not kept: the next login tries again.
  dummyHash ??= hashPassword(generatePassword()).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

/** Letters and digits without look-alikes (0/O, 1/l/I): 55 symbols, ~5.8 bits each. */
export const UNAMBIGUOUS_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A random password (default 20 characters ≈ 116 bits) for bootstrap and resets. */
export function generatePassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++)
    out += UNAMBIGUOUS_ALPHABET[randomInt(UNAMBIGUOUS_ALPHABET.length)];
  return out;
}
