/**
 * Polling for tests that wait on something asynchronous they cannot await directly: another
 * process, a socket, a background hand-off. It returns as soon as the assertion holds, instead of
 * sleeping for a fixed time that is either too long (slow suites) or too short (flaky ones).
 */

// Captured when the module loads, so a test that switches to jest's fake timers (which replace
// the globals) still polls in real time: the things polled for happen on real sockets.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realNow = performance.now.bind(performance);

export interface EventuallyOptions {
  /** How long to keep trying before failing with the last error. Default 5000 ms. */
  timeoutMs?: number;
  /** The pause between two tries. Default 20 ms. */
  intervalMs?: number;
  /**
   * Stops the polling at once with the signal's reason, for a wait that can no longer succeed
   * (the process being polled has exited).
   */
  signal?: AbortSignal;
}

/**
 * Runs `assertion` until it does not throw, and resolves with what it returned. After
 * `timeoutMs` it rejects with the last failure, its message prefixed with how long it waited.
 *
 * Write the condition as an assertion (`expect(…)`, or a `throw`), never as a boolean: a
 * returned `false` or `undefined` counts as success. A slow try that ends after the deadline
 * is the last one.
 *
 * @example
 * const card = await eventually(() => {
 *   const found = cardOf(admin.id, request.id);
 *   expect(found).toBeDefined();
 *   return found!;
 * });
 */
export async function eventually<T>(
  assertion: () => T | Promise<T>,
  { timeoutMs = 5000, intervalMs = 20, signal }: EventuallyOptions = {},
): Promise<T> {
  const started = realNow();
  for (let tries = 1; ; tries++) {
    signal?.throwIfAborted();
    try {
      return await assertion();
    } catch (error) {
      signal?.throwIfAborted();
      const waited = Math.round(realNow() - started);
      if (waited >= timeoutMs) throw withWait(error, waited, tries);
    }
    await pause(intervalMs, signal);
  }
}

/** Waits `ms` on the real clock, or until `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = realSetTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      realClearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** The failure as thrown (jest keeps its diff), its message saying how long it was retried. */
function withWait(error: unknown, waited: number, tries: number): unknown {
  const prefix = `still failing after ${waited} ms (${tries} tries): `;
  if (error instanceof Error) {
    error.message = prefix + error.message;
    return error;
  }
  return new Error(prefix + String(error));
}
