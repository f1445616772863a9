import type { SchedulerClock } from '../../src/scheduler/scheduler.js';

/**
 * A simulated clock for the job scheduler: time moves only when a test advances it, and the timers
 * armed on it fire in due order at their due instant. Several schedulers (replicas) may share one
 * clock. `settle` is awaited after every fired timer so the work a fire started (the slot claim,
 * the run) finishes before time moves on — a simulated day takes milliseconds.
 */
export class SimulatedClock implements SchedulerClock {
  private at: number;
  private seq = 0;
  private readonly timers = new Map<number, { due: number; fn: () => void }>();

  constructor(start: Date | string) {
    this.at = new Date(start).getTime();
  }

  now = (): Date => new Date(this.at);

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.timers.set(id, { due: this.at + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  /** How many timers are armed (a scheduler with nothing to fire arms none). */
  get armed(): number {
    return this.timers.size;
  }

  async advanceTo(until: Date | string, settle: () => Promise<unknown>): Promise<void> {
    const end = new Date(until).getTime();
    for (;;) {
      await settle();
      let next: [number, { due: number; fn: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].due <= end && (!next || entry[1].due < next[1].due)) next = entry;
      }
      if (!next) break;
      this.timers.delete(next[0]);
      this.at = Math.max(this.at, next[1].due);
      next[1].fn();
    }
    this.at = Math.max(this.at, end);
    await settle();
  }

  advanceBy(ms: number, settle: () => Promise<unknown>): Promise<void> {
    return this.advanceTo(new Date(this.at + ms), settle);
  }
}
