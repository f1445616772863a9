import { jest } from '@jest/globals';
import {
  ARGON2_CONCURRENCY,
  argon2Load,
  hashPassword,
  verifyPassword,
} from '../../src/security/passwords.js';

// argon2 is bounded so a login storm cannot take every core from the event loop (issue 21).
describe('argon2 queue', () => {
  it('should run at most ARGON2_CONCURRENCY computations at once and finish them all', async () => {
    const hash = await hashPassword('queue-password');
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, argon2Load().running)), 1);
    const results = await Promise.all(
      Array.from({ length: ARGON2_CONCURRENCY + 3 }, (_, i) =>
        verifyPassword(hash, i % 2 ? 'queue-password' : 'wrong'),
      ),
    );
    clearInterval(watch);
    expect(results).toEqual(results.map((_, i) => i % 2 === 1));
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(ARGON2_CONCURRENCY);
    expect(argon2Load()).toEqual({ running: 0, resting: 0, waiting: 0 });
  });

  // The rest is a timer: faked, so a test decides when it ends (hashing itself stays real).
  describe('with fake timers', () => {
    beforeEach(() => {
      jest.useFakeTimers({
        doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance'],
      });
    });
    afterEach(() => {
      jest.useRealTimers();
    });

    // Under a storm each thread works at most half the time (ARGON2_REST_RATIO), so the event loop
    // and the rest of the machine keep their share (issue 21).
    it('should rest a slot as long as it computed before a waiting computation gets it', async () => {
      const hash = await hashPassword('queue-password');
      const done: number[] = [];
      const calls = Array.from({ length: ARGON2_CONCURRENCY + 1 }, (_, i) =>
        verifyPassword(hash, 'queue-password').then((ok) => (done.push(i), ok)),
      );
      expect(argon2Load()).toEqual({ running: ARGON2_CONCURRENCY, resting: 0, waiting: 1 });
      await Promise.all(calls.slice(0, ARGON2_CONCURRENCY));
      // One slot rests for the last call; the others, with nobody waiting, were given back.
      expect(argon2Load()).toEqual({ running: 1, resting: 1, waiting: 0 });
      // argon2id at 19 MiB takes well over a millisecond anywhere: still resting.
      jest.advanceTimersByTime(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(argon2Load().resting).toBe(1);
      expect(done).toHaveLength(ARGON2_CONCURRENCY);
      jest.advanceTimersByTime(60_000);
      expect(argon2Load()).toEqual({ running: 1, resting: 0, waiting: 0 });
      expect(await calls.at(-1)).toBe(true);
      expect(argon2Load()).toEqual({ running: 0, resting: 0, waiting: 0 });
    });

    it('should hand a slot on without rest when nobody waits', async () => {
      const hash = await hashPassword('queue-password');
      // Sequential calls (a lone login, a test's setup) never wait on a timer.
      expect(await verifyPassword(hash, 'queue-password')).toBe(true);
      expect(await verifyPassword(hash, 'wrong')).toBe(false);
      expect(argon2Load()).toEqual({ running: 0, resting: 0, waiting: 0 });
    });
  });

  it('should read a malformed hash as no match and release its slot', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(argon2Load()).toEqual({ running: 0, resting: 0, waiting: 0 });
  });
});
