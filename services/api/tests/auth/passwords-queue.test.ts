import {
  ARGON2_CONCURRENCY,
  argon2Load,
  hashPassword,
  verifyPassword,
} from '../../src/auth/passwords.js';

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
    expect(argon2Load()).toEqual({ running: 0, waiting: 0 });
  });

  it('should read a malformed hash as no match and release its slot', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(argon2Load()).toEqual({ running: 0, waiting: 0 });
  });
});
