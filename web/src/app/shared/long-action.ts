import { DestroyRef, Injectable, inject } from '@angular/core';

/** Polling pace of a long action (60-web.md §5): every 2 s, every 10 s after the first minute. */
export const POLL_FAST_MS = 2_000;
export const POLL_SLOW_MS = 10_000;
export const POLL_SLOW_AFTER_MS = 60_000;

/**
 * Follows long actions the server keeps running (60-web.md §5 `LongActionTracker`): `track`
 * polls until the answer is final and resolves with it. Provide it in the component: polling
 * stops when the component is destroyed (the promise then never settles — nobody is left to
 * care), and the server keeps working either way.
 */
@Injectable()
export class LongActionTracker {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private destroyed = false;

  constructor() {
    inject(DestroyRef).onDestroy(() => {
      this.destroyed = true;
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
    });
  }

  /**
   * Calls `poll` after each interval until `isFinal` says so. A failed poll (a blip) is retried
   * at the next interval; `maxFailures` failures in a row end the tracking with that error.
   */
  track<T>(
    poll: () => Promise<T>,
    isFinal: (value: T) => boolean,
    options: { maxFailures?: number } = {},
  ): Promise<T> {
    const started = Date.now();
    const maxFailures = options.maxFailures ?? 5;
    let failures = 0;
    return new Promise<T>((resolve, reject) => {
      const schedule = () => {
        if (this.destroyed) return;
        const slow = Date.now() - started >= POLL_SLOW_AFTER_MS;
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            void step();
          },
          slow ? POLL_SLOW_MS : POLL_FAST_MS,
        );
        this.timers.add(timer);
      };
      const step = async () => {
        if (this.destroyed) return;
        try {
          const value = await poll();
          failures = 0;
          if (isFinal(value)) resolve(value);
          else schedule();
        } catch (error) {
          failures += 1;
          if (failures >= maxFailures) reject(error);
          else schedule();
        }
      };
      schedule();
    });
  }
}
