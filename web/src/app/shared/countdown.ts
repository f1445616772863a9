import type { DestroyRef } from '@angular/core';
import { signal } from '@angular/core';

/**
 * A whole-second countdown as a signal: resend timers, code expiry, rate-limit waits. It counts
 * against a deadline rather than ticks, so a throttled background tab still ends on time.
 */
export class Countdown {
  /** Seconds left, 0 when idle or done. */
  readonly remaining = signal(0);
  private timer: ReturnType<typeof setInterval> | undefined;
  private deadline = 0;

  constructor(destroyRef: DestroyRef) {
    destroyRef.onDestroy(() => this.stop());
  }

  /** Counts `seconds` down from now. */
  start(seconds: number): void {
    this.runUntil(Date.now() + Math.max(0, seconds) * 1000);
  }

  /** Counts down to an instant (an ISO string from the API, say). */
  until(instant: string | Date): void {
    this.runUntil(new Date(instant).getTime());
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.remaining.set(0);
  }

  private runUntil(deadline: number): void {
    clearInterval(this.timer);
    this.deadline = deadline;
    this.tick();
    if (this.remaining() > 0) this.timer = setInterval(() => this.tick(), 1000);
  }

  private tick(): void {
    const left = Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    this.remaining.set(left);
    if (left === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** `m:ss` for a countdown shown to people (e.g. a code's remaining validity). */
export function minutesSeconds(total: number): string {
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
