import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * One owner for an embedded PGlite data directory (issue 32). PGlite has no cross-process
 * protection: two processes on one folder each keep their own copy of the catalog and buffers, so
 * the second one's writes (a `reset-admin-password` while `npm start` runs) are silently lost or
 * corrupt the folder. Every process that opens the folder first takes `<dataDir>/usher.lock`:
 *
 * - The lock file appears atomically with its whole content (written to a temporary name, then
 *   hard-linked into place; `link` fails when the name exists), so a reader never sees half a lock.
 * - It names its owner: pid, host, the machine's boot id and the process's start tick (Linux), the
 *   command and when it started. A second process reads it and is refused with those facts.
 * - A lock left by a process that died (SIGKILL, a crash, a power cut) is taken over, and the
 *   takeover logged, when its owner is provably gone: same host and the pid is not running, or it
 *   is this very pid (a container's pid 1 after a restart), or the pid now belongs to a process
 *   that started later (pid reuse), or the machine has rebooted since. An owner on another host
 *   (a recreated container sharing the volume) cannot be asked; its lock is refreshed every
 *   HEARTBEAT_MS and counts as abandoned once it is older than STALE_AFTER_MS.
 * - Two processes taking over the same stale lock at once are serialised by a second file,
 *   `usher.lock.takeover`, created exclusively; only its holder removes the stale lock.
 * - The lock is removed on release (the database handle's close) and on any `process.exit`.
 *
 * Not an OS-level lock (flock/fcntl): Node has no API for one without a native addon.
 */
export const LOCK_FILE = 'usher.lock';
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 60_000;
/** A takeover guard older than this was left by a process that died within the takeover. */
const TAKEOVER_GUARD_STALE_MS = 10_000;
const ATTEMPTS = 50;
const RETRY_MS = 20;

export interface LockOwner {
  pid: number;
  host: string;
  /** What holds the folder: `api` or a command such as `reset-admin-password`. */
  command: string;
  /** ISO time the owner took the lock. */
  startedAt: string;
  /** Linux: /proc/sys/kernel/random/boot_id, so a lock from before a reboot is told apart. */
  bootId?: string;
  /** Linux: the owner's start time in clock ticks since boot, so a reused pid is told apart. */
  processStart?: string;
}

/** The folder is held by a live owner; `owner` says who. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockPath: string,
    readonly owner: LockOwner,
    /** Milliseconds since the owner's last heartbeat. */
    readonly ageMs: number,
  ) {
    super(`the embedded database in ${dataDir} is in use by pid ${owner.pid} on ${owner.host}`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): void;
}

export interface LockOptions {
  /** What the lock is for, shown to a refused process. */
  command: string;
  /** Told about every takeover of a stale lock. */
  logger?: { warn(details: object, message: string): void };
}

/** This machine's identity facts; functions so tests can stand in for another host or process. */
export interface ProcessFacts {
  host(): string;
  bootId(): string | undefined;
  /** Start tick of a running pid (Linux), undefined where unknown. */
  processStart(pid: number): string | undefined;
  /** Whether a process with this pid exists on this host. */
  isRunning(pid: number): boolean;
}

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    // Not Linux, or no /proc (a restricted container): the check that needs it is skipped.
    return undefined;
  }
}

export const systemFacts: ProcessFacts = {
  host: () => hostname(),
  bootId: () => readTrimmed('/proc/sys/kernel/random/boot_id'),
  processStart(pid) {
    const stat = readTrimmed(`/proc/${pid}/stat`);
    if (!stat) return undefined;
    // Field 22 (starttime); the name before it, in parentheses, may contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  },
  isRunning(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      // EPERM: it exists but belongs to another user.
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};

/** Why a lock's owner is gone, or undefined while it may still be alive. */
export function staleReason(
  owner: LockOwner | undefined,
  ageMs: number,
  facts: ProcessFacts = systemFacts,
): string | undefined {
  if (!owner) return 'the lock file is unreadable';
  if (owner.host !== facts.host()) {
    return ageMs > STALE_AFTER_MS
      ? `no heartbeat from host ${owner.host} for ${Math.round(ageMs / 1000)} s`
      : undefined;
  }
  const bootId = facts.bootId();
  if (owner.bootId && bootId && owner.bootId !== bootId) return 'the machine restarted since';
  if (owner.pid === process.pid) return `pid ${owner.pid} is this process (an earlier run)`;
  if (!facts.isRunning(owner.pid)) return `pid ${owner.pid} is not running`;
  const start = facts.processStart(owner.pid);
  if (owner.processStart && start && owner.processStart !== start) {
    return `pid ${owner.pid} is now another process`;
  }
  return undefined;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return undefined;
    return {
      pid: owner.pid,
      host: owner.host,
      command: typeof owner.command === 'string' ? owner.command : 'unknown',
      startedAt: typeof owner.startedAt === 'string' ? owner.startedAt : 'unknown',
      bootId: owner.bootId,
      processStart: owner.processStart,
    };
  } catch {
    // Not JSON: a lock file written by something else, or damaged. staleReason decides.
    return undefined;
  }
}

/** The current lock file's text and age, or undefined when there is none. */
function readLock(path: string): { text: string; ageMs: number } | undefined {
  try {
    const ageMs = Date.now() - statSync(path).mtimeMs;
    return { text: readFileSync(path, 'utf8'), ageMs };
  } catch (err) {
    // Removed between our failed create and this read: the caller tries again.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Creates `path` with `text` as one atomic step; false when it already exists. */
function createWhole(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A filesystem without hard links: an exclusive create, then the content. A reader may see
    // the file empty for a moment; it then counts as unreadable only once older than its check.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (inner) {
      // Only "it exists" is an answer; anything else (no space, no permission) is the caller's.
      if ((inner as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw inner;
    }
    writeSync(fd, text);
    closeSync(fd);
    return true;
  } finally {
    unlinkSync(temp);
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    // Already gone (a racer removed it) is the outcome we wanted; other errors are real.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Removes the stale lock whose text was `staleText`, unless another process got there first.
 * Returns whether the caller may try to create the lock again now.
 */
function removeStale(path: string, staleText: string): boolean {
  const guard = `${path}.takeover`;
  if (!createWhole(guard, String(process.pid))) {
    const held = readLock(guard);
    if (held && held.ageMs > TAKEOVER_GUARD_STALE_MS) unlinkIfPresent(guard);
    return false;
  }
  try {
    // Still the lock we judged stale (not one a faster process created meanwhile)?
    if (readLock(path)?.text === staleText) unlinkIfPresent(path);
    return true;
  } finally {
    unlinkIfPresent(guard);
  }
}

/**
 * Takes the lock of `dataDir` (creating the folder), or throws DataDirLockedError naming the live
 * owner. Synchronous, so it can run before anything else and be released from `process.on('exit')`.
 */
export function lockDataDir(
  dataDir: string,
  options: LockOptions,
  facts: ProcessFacts = systemFacts,
): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    host: facts.host(),
    command: options.command,
    startedAt: new Date().toISOString(),
    bootId: facts.bootId(),
    processStart: facts.processStart(process.pid),
  };
  const text = JSON.stringify(owner) + '\n';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createWhole(path, text)) return holding(path, owner, text);
    const current = readLock(path);
    if (!current) continue;
    const holder = parseOwner(current.text);
    // An empty file younger than a moment is being written by a racer without hard links.
    const writing = current.text === '' && current.ageMs < 1000;
    const reason = writing ? undefined : staleReason(holder, current.ageMs, facts);
    if (reason === undefined) {
      if (holder) throw new DataDirLockedError(dataDir, path, holder, current.ageMs);
      sleepSync(RETRY_MS);
      continue;
    }
    if (removeStale(path, current.text)) {
      options.logger?.warn(
        { lock: path, previousOwner: holder ?? current.text.slice(0, 200), reason },
        'took over the embedded database lock left by a process that is gone',
      );
    } else {
      sleepSync(RETRY_MS);
    }
  }
  throw new Error(`could not take ${path}: it kept changing (${ATTEMPTS} attempts)`);
}

function holding(path: string, owner: LockOwner, text: string): DataDirLock {
  // The heartbeat lets a process on another host tell a live owner from a dead one.
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // The folder went away (deleted to start over) or is read-only now: nothing to refresh.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.removeListener('exit', release);
    // Someone may have taken over a lock they judged stale; theirs is not ours to remove.
    if (readLock(path)?.text === text) unlinkIfPresent(path);
  };
  process.on('exit', release);
  return { path, owner, release };
}

/** How a refused process explains itself: who holds the folder and what to do. */
export function describeHolder(err: DataDirLockedError): string {
  const { owner } = err;
  const what = owner.command === 'api' ? 'the Usher API' : `\`${owner.command}\``;
  const where = owner.host === systemFacts.host() ? '' : ` on host ${owner.host}`;
  return `${what} (pid ${owner.pid}${where}, since ${owner.startedAt})`;
}
