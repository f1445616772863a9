// One owner per embedded data folder (src/db/data-lock.ts, issue 32): refusal with the owner's
// facts, takeover of a lock whose owner is provably gone, release. The real processes refusing
// each other are in tests/process/data-lock.test.ts.
import { jest } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '@usher/testkit';
import { build } from 'esbuild';
import {
  DataDirLockedError,
  describeHolder,
  HEARTBEAT_MS,
  LOCK_FILE,
  lockDataDir,
  STALE_AFTER_MS,
  systemFacts,
  type LockOwner,
} from '../../src/db/data-lock.js';

let dir: string;
let lockPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usher-lock-'));
  lockPath = join(dir, LOCK_FILE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function recordingLogger() {
  const warnings: { details: object; message: string }[] = [];
  return {
    warnings,
    warn: (details: object, message: string) => warnings.push({ details, message }),
  };
}

/** A lock file as another process would have left it. */
function writeLock(owner: Partial<LockOwner>, ageMs = 0): void {
  const full: LockOwner = {
    pid: 1,
    host: hostname(),
    command: 'api',
    startedAt: '2026-01-01T00:00:00.000Z',
    ...owner,
  };
  writeFileSync(lockPath, JSON.stringify(full));
  const at = new Date(Date.now() - ageMs);
  utimesSync(lockPath, at, at);
}

/** The pid of a process that has exited (reuse within the test is vanishingly unlikely). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

function refusal(fn: () => unknown): DataDirLockedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DataDirLockedError) return err;
    throw err;
  }
  throw new Error('expected DataDirLockedError');
}

describe('lockDataDir', () => {
  it('should write its owner, refuse a second taker naming that owner, and release', () => {
    const lock = lockDataDir(join(dir, 'db'), { command: 'api' });
    const path = join(dir, 'db', LOCK_FILE);
    expect(lock.path).toBe(path);
    const written = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    expect(written).toMatchObject({ pid: process.pid, host: hostname(), command: 'api' });
    expect(new Date(written.startedAt).getTime()).toBeGreaterThan(Date.now() - 5000);

    // A second process on this host sees a live owner: here the owner's pid is not ours.
    writeFileSync(path, JSON.stringify({ ...written, pid: process.ppid, processStart: undefined }));
    const err = refusal(() => lockDataDir(join(dir, 'db'), { command: 'reset-admin-password' }));
    expect(err.owner.pid).toBe(process.ppid);
    expect(err.dataDir).toBe(join(dir, 'db'));
    expect(describeHolder(err)).toBe(
      `the Usher API (pid ${process.ppid}, since ${written.startedAt})`,
    );
    expect(readFileSync(path, 'utf8')).toContain(`"pid":${process.ppid}`); // left as it was

    // Not ours any more (the file was replaced): release leaves it alone.
    lock.release();
    expect(existsSync(path)).toBe(true);
  });

  it('should remove its own lock on release, once, and be takeable again', () => {
    const first = lockDataDir(dir, { command: 'api' });
    first.release();
    expect(existsSync(lockPath)).toBe(false);
    first.release();
    const second = lockDataDir(dir, { command: 'reset-admin-password' });
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({
      command: 'reset-admin-password',
    });
    second.release();
    expect(existsSync(lockPath)).toBe(false);
    expect(spawnSync('ls', ['-A', dir]).stdout.toString()).toBe(''); // no temporary files left
  });

  it('should take over the lock of a pid that is no longer running, and log it', () => {
    const gone = deadPid();
    writeLock({ pid: gone });
    const logger = recordingLogger();
    const lock = lockDataDir(dir, { command: 'api', logger });
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(logger.warnings).toEqual([
      {
        message: 'took over the embedded database lock left by a process that is gone',
        details: expect.objectContaining({
          lock: lockPath,
          reason: `pid ${gone} is not running`,
          previousOwner: expect.objectContaining({ pid: gone }),
        }),
      },
    ]);
    lock.release();
  });

  it("should take over a lock carrying this process's own pid (a container's earlier run)", () => {
    writeLock({ pid: process.pid });
    const logger = recordingLogger();
    lockDataDir(dir, { command: 'api', logger }).release();
    expect(logger.warnings[0]?.details).toMatchObject({
      reason: `pid ${process.pid} is this process (an earlier run)`,
    });
  });

  it('should tell a reused pid from its owner by the process start time', () => {
    const live = process.ppid;
    const start = systemFacts.processStart(live);
    if (start === undefined) return; // not Linux: only the pid is compared
    writeLock({ pid: live, processStart: start });
    expect(refusal(() => lockDataDir(dir, { command: 'api' })).owner.pid).toBe(live);

    writeLock({ pid: live, processStart: String(Number(start) + 1) });
    const logger = recordingLogger();
    lockDataDir(dir, { command: 'api', logger }).release();
    expect(logger.warnings[0]?.details).toMatchObject({
      reason: `pid ${live} is now another process`,
    });
  });

  it('should take over a lock from before a reboot', () => {
    if (!systemFacts.bootId()) return; // not Linux
    writeLock({ pid: process.ppid, bootId: 'another-boot' });
    const logger = recordingLogger();
    lockDataDir(dir, { command: 'api', logger }).release();
    expect(logger.warnings[0]?.details).toMatchObject({ reason: 'the machine restarted since' });
  });

  it('should refuse an owner on another host until its heartbeat is older than a minute', () => {
    writeLock({ pid: 7, host: 'other-container' }, 5_000);
    const err = refusal(() => lockDataDir(dir, { command: 'api' }));
    expect(describeHolder(err)).toBe(
      'the Usher API (pid 7 on host other-container, since 2026-01-01T00:00:00.000Z)',
    );

    writeLock({ pid: 7, host: 'other-container' }, STALE_AFTER_MS + 5_000);
    const logger = recordingLogger();
    lockDataDir(dir, { command: 'api', logger }).release();
    expect(logger.warnings[0]?.details).toMatchObject({
      reason: expect.stringMatching(/^no heartbeat from host other-container for 6\d s$/),
    });
  });

  it('should take over a lock file it cannot read', () => {
    writeFileSync(lockPath, 'not json');
    const logger = recordingLogger();
    lockDataDir(dir, { command: 'api', logger }).release();
    expect(logger.warnings[0]?.details).toMatchObject({
      reason: 'the lock file is unreadable',
      previousOwner: 'not json',
    });
  });

  it('should name a command holding the folder by its name', () => {
    writeLock({ pid: process.ppid, command: 'reset-admin-password' });
    expect(describeHolder(refusal(() => lockDataDir(dir, { command: 'api' })))).toMatch(
      new RegExp(`^\`reset-admin-password\` \\(pid ${process.ppid}, since `),
    );
  });

  it('should refresh its heartbeat every 10 s until released', () => {
    jest.useFakeTimers({ doNotFake: ['Date'] });
    try {
      const lock = lockDataDir(dir, { command: 'api' });
      const old = new Date(Date.now() - 30_000);
      utimesSync(lockPath, old, old);
      jest.advanceTimersByTime(HEARTBEAT_MS);
      expect(Date.now() - statSync(lockPath).mtimeMs).toBeLessThan(5_000);
      lock.release();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('lockDataDir across processes', () => {
  const source = join(dirname(fileURLToPath(import.meta.url)), '../../src/db/data-lock.ts');

  it('should let exactly one of several processes take over the same stale lock', async () => {
    // Each child says it is ready, waits for the `go` file, then tries: the winner holds the lock
    // until its stdin closes; the others must be refused by the winner, not by each other.
    const script = join(dir, 'taker.mjs');
    await build({
      stdin: {
        contents: `
          import { existsSync } from 'node:fs';
          import { lockDataDir, DataDirLockedError } from ${JSON.stringify(source)};
          const [dataDir, go] = process.argv.slice(2);
          process.stdout.write('ready;');
          while (!existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
          try {
            lockDataDir(dataDir, { command: 'api' });
            process.stdout.write('got');
            process.stdin.resume().on('end', () => process.exit(0));
          } catch (err) {
            if (!(err instanceof DataDirLockedError)) throw err;
            process.stdout.write('refused by ' + err.owner.pid);
          }`,
        resolveDir: dir,
        loader: 'ts',
      },
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const go = join(dir, 'go');
    writeLock({ pid: deadPid() }); // left by a killed owner
    const takers = Array.from({ length: 5 }, () => {
      const child = spawn(process.execPath, [script, dir, go]);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise((r) => child.on('exit', r));
      return { child, exited, out: () => out };
    });
    try {
      await eventually(() => expect(takers.every((t) => t.out().startsWith('ready;'))).toBe(true), {
        timeoutMs: 15_000,
      });
      writeFileSync(go, '');
      const verdicts = await eventually(() => {
        const all = takers.map((t) => t.out().slice('ready;'.length));
        expect(all).not.toContain('');
        return all;
      });
      const winner = takers[verdicts.indexOf('got')]?.child.pid;
      expect(verdicts.filter((v) => v === 'got')).toHaveLength(1);
      expect(verdicts.filter((v) => v !== 'got')).toEqual(Array(4).fill(`refused by ${winner}`));
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: winner });
      for (const t of takers) t.child.stdin.end();
      await Promise.all(takers.map((t) => t.exited));
      expect(existsSync(lockPath)).toBe(false); // the winner's exit released it
    } finally {
      for (const t of takers) if (t.child.exitCode === null) t.child.kill('SIGKILL');
    }
  }, 30_000);
});
