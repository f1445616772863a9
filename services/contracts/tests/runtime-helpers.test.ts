import { isRetryableMethod, retryingGet } from '../src/retry.js';
import { formatWallClock, wallClock } from '../src/time.js';

describe('wallClock', () => {
  it('should read the clock of a zone, across its DST change', () => {
    // 2026-03-29 00:59:59 UTC is 01:59:59 CET; one second later 03:00:00 CEST.
    expect(wallClock(new Date('2026-03-29T00:59:59Z'), 'Europe/Berlin')).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      hour: 1,
      minute: 59,
      second: 59,
      weekday: 'Sun',
    });
    expect(wallClock(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toMatchObject({
      hour: 3,
      minute: 0,
    });
  });

  it('should write midnight as 00, never 24', () => {
    const clock = wallClock(new Date('2026-04-30T16:00:00Z'), 'Asia/Shanghai');
    expect(formatWallClock(clock)).toBe('2026-05-01 00:00');
    expect(clock.weekday).toBe('Fri');
  });

  it('should refuse an unknown zone with a RangeError and cache nothing for it', () => {
    expect(() => wallClock(new Date(0), 'Mars/Olympus')).toThrow(RangeError);
    expect(() => wallClock(new Date(0), 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('retryingGet', () => {
  const outcomes = (...values: string[]) => {
    const calls: number[] = [];
    const attempt = async () => {
      calls.push(Date.now());
      return values[calls.length - 1]!;
    };
    return { calls, attempt };
  };

  it('should try a GET once more when the outcome is retryable, and return the last', async () => {
    const { calls, attempt } = outcomes('network', 'ok');
    const result = await retryingGet('GET', attempt, { shouldRetry: (o) => o === 'network' });
    expect(result).toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it('should try at most twice', async () => {
    const { calls, attempt } = outcomes('network', 'network', 'ok');
    const result = await retryingGet('get', attempt, { shouldRetry: (o) => o === 'network' });
    expect(result).toBe('network');
    expect(calls).toHaveLength(2);
  });

  it('should never try a write twice', async () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      const { calls, attempt } = outcomes('network', 'ok');
      expect(await retryingGet(method, attempt, { shouldRetry: () => true })).toBe('network');
      expect(calls).toHaveLength(1);
      expect(isRetryableMethod(method)).toBe(false);
    }
  });

  it('should not retry an outcome that is not retryable', async () => {
    const { calls, attempt } = outcomes('404', 'ok');
    expect(await retryingGet('GET', attempt, { shouldRetry: (o) => o === 'network' })).toBe('404');
    expect(calls).toHaveLength(1);
  });

  it('should wait delayMs before the second try', async () => {
    const { calls, attempt } = outcomes('network', 'ok');
    await retryingGet('GET', attempt, { shouldRetry: (o) => o === 'network', delayMs: 120 });
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(110);
  });
});
