import { stripVTControlCharacters } from 'node:util';
import { jest } from '@jest/globals';
import { eventually } from '../../src/support/index.js';

describe('eventually', () => {
  it('should resolve with the value as soon as the assertion holds', async () => {
    let tries = 0;
    const started = performance.now();

    const value = await eventually(
      () => {
        tries += 1;
        expect(tries).toBe(3);
        return 'done';
      },
      { intervalMs: 5 },
    );

    expect(value).toBe('done');
    expect(tries).toBe(3);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('should retry an async assertion that rejects', async () => {
    let tries = 0;

    await expect(
      eventually(async () => {
        tries += 1;
        if (tries < 2) throw new Error('not yet');
        return tries;
      }),
    ).resolves.toBe(2);
  });

  it('should fail with the last error, saying how long it retried', async () => {
    let tries = 0;

    const failure = await eventually(
      () => {
        tries += 1;
        expect(tries).toBe(0);
      },
      { timeoutMs: 60, intervalMs: 10 },
    ).catch((error: unknown) => error as Error);

    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toMatch(/^still failing after \d+ ms \(\d+ tries\): /);
    // jest colours its diff when the terminal (or CI=true) allows it; compare the plain text.
    const plain = stripVTControlCharacters(failure!.message);
    expect(plain).toContain(`Received: ${tries}`);
    expect(tries).toBeGreaterThan(1);
  });

  it('should not call the assertion again after the deadline', async () => {
    let tries = 0;

    await expect(
      eventually(
        async () => {
          tries += 1;
          await new Promise((r) => setTimeout(r, 50));
          throw new Error('slow and failing');
        },
        { timeoutMs: 30 },
      ),
    ).rejects.toThrow('slow and failing');
    expect(tries).toBe(1);
  });

  it('should stop at once with the reason when the signal aborts', async () => {
    const gone = new AbortController();
    let tries = 0;
    const started = performance.now();
    setTimeout(() => gone.abort(new Error('the process exited')), 30);

    const failure = eventually(
      () => {
        tries += 1;
        throw new Error('not up yet');
      },
      { timeoutMs: 5000, intervalMs: 1000, signal: gone.signal },
    );

    await expect(failure).rejects.toThrow('the process exited');
    expect(tries).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('should keep polling in real time while the test uses fake timers', async () => {
    const realSetTimeout = setTimeout;
    jest.useFakeTimers();
    try {
      let ready = false;
      // Something real (a socket, a process) changing state while the fake clock stands still.
      realSetTimeout(() => (ready = true), 30);

      await eventually(() => expect(ready).toBe(true), { timeoutMs: 1000 });
    } finally {
      jest.useRealTimers();
    }
  });
});
