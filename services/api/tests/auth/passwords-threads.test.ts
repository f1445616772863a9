import { readdirSync, readFileSync } from 'node:fs';
import {
  ARGON2_CONCURRENCY,
  ARGON2_NICE,
  Argon2ThreadError,
  argon2Load,
  argon2Threads,
  hashPassword,
  setArgon2IdleMs,
  stopArgon2Threads,
  verifyPassword,
} from '../../src/security/passwords.js';

/** This process's threads: name and nice value, from /proc (Linux). */
function threads(): { tid: number; name: string; nice: number }[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // After "(comm) ": state is field 3, nice field 19 of proc_pid_stat(5).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      return [{ tid: Number(tid), name, nice: Number(fields[16]) }];
    } catch (error) {
      // A thread that ended between the listing and the read (an idle argon2 thread retiring).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  });
}

// argon2 runs on its own threads at a lower priority, so a login storm cannot take the CPU from
// the event loop (issue 21).
describe('argon2 threads', () => {
  afterEach(async () => {
    await stopArgon2Threads();
  });

  // Linux only (/proc; the nice value is per thread there), like the image and CI.
  it('should nice the argon2 threads and only them', async () => {
    const before = threads();
    const hash = await hashPassword('thread-password');
    await Promise.all(
      Array.from({ length: ARGON2_CONCURRENCY }, () => verifyPassword(hash, 'thread-password')),
    );
    const known = new Set(before.map((t) => t.tid));
    const started = threads().filter((t) => !known.has(t.tid));
    const argon2 = started.filter((t) => t.name === 'argon2');
    expect(argon2.length).toBeGreaterThan(0);
    expect(argon2.length).toBeLessThanOrEqual(ARGON2_CONCURRENCY);
    const mainNice = before.find((t) => t.tid === process.pid)!.nice;
    expect(argon2.map((t) => t.nice)).toEqual(
      argon2.map(() => Math.min(19, mainNice + ARGON2_NICE)),
    );
    // The event loop and every other thread keep the process's priority.
    expect(threads().filter((t) => t.name !== 'argon2' && t.nice !== mainNice)).toEqual([]);
  });

  it('should fail the call under way when its thread dies, then start a new thread', async () => {
    const hashing = hashPassword('dying-password');
    // Let the job reach its thread, then end every argon2 thread under it.
    await new Promise((resolve) => setImmediate(resolve));
    await stopArgon2Threads();
    await expect(hashing).rejects.toBeInstanceOf(Argon2ThreadError);
    expect(argon2Load()).toEqual({ running: 0, resting: 0, waiting: 0 });

    const hash = await hashPassword('after-password');
    expect(await verifyPassword(hash, 'after-password')).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
  });

  it('should not read a dead thread as a wrong password', async () => {
    const hash = await hashPassword('verify-password');
    const verifying = verifyPassword(hash, 'verify-password');
    await new Promise((resolve) => setImmediate(resolve));
    await stopArgon2Threads();
    await expect(verifying).rejects.toBeInstanceOf(Argon2ThreadError);
  });

  describe('when idle', () => {
    let previous: number;
    beforeEach(() => {
      // A short idle period instead of ARGON2_IDLE_MS, so the test waits milliseconds.
      previous = setArgon2IdleMs(50);
    });
    afterEach(() => {
      setArgon2IdleMs(previous);
    });

    /** Resolves once no argon2 thread is alive (the process's and the module's view). */
    async function threadsEnded(): Promise<void> {
      while (argon2Threads() > 0 || threads().some((t) => t.name === 'argon2')) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    it('should end an idle thread, then start one again for the next sign-in', async () => {
      const hash = await hashPassword('idle-password');
      expect(argon2Threads()).toBe(1);
      await threadsEnded();
      expect(argon2Load()).toEqual({ running: 0, resting: 0, waiting: 0 });

      // A later sign-in verifies on a new thread.
      expect(await verifyPassword(hash, 'idle-password')).toBe(true);
      expect(await verifyPassword(hash, 'wrong')).toBe(false);
      expect(threads().filter((t) => t.name === 'argon2')).toHaveLength(1);
      await threadsEnded();
    });

    it('should keep a thread that is used again before its idle period ends', async () => {
      setArgon2IdleMs(60_000);
      const hash = await hashPassword('busy-password');
      const [first] = threads().filter((t) => t.name === 'argon2');
      // Each call takes the resting thread and cancels its end; none is started beside it.
      for (let i = 0; i < 3; i++) expect(await verifyPassword(hash, 'busy-password')).toBe(true);
      expect(argon2Threads()).toBe(1);
      expect(threads().filter((t) => t.name === 'argon2')).toEqual([first]);
    });
  });
});
