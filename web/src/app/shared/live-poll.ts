import { DOCUMENT } from '@angular/common';
import { DestroyRef, type Signal, computed, inject, signal } from '@angular/core';

/** What `livePoll` gives the page: whether it polls now, and a pause toggle. */
export interface LivePoll {
  /** Polling: not paused and the tab visible. */
  readonly live: Signal<boolean>;
  readonly paused: Signal<boolean>;
  setPaused(paused: boolean): void;
  /** No more ticks on the interval (nothing to poll: the media server is not set up). */
  stop(): void;
}

/**
 * Calls `tick` now and every `ms` while the tab is visible (60-web.md §4.3 "Live sessions"):
 * `visibilitychange` stops it and, back on the tab, ticks at once rather than after the next
 * interval. Ends with the page. Call it in an injection context (a constructor or field).
 */
export function livePoll(tick: () => unknown, ms: number): LivePoll {
  const document = inject(DOCUMENT);
  const paused = signal(false);
  const hidden = signal(document.hidden);
  const live = computed(() => !paused() && !hidden());
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopped = false;
  const schedule = () => {
    if (timer !== null) clearInterval(timer);
    timer = live() && !stopped ? setInterval(() => void tick(), ms) : null;
  };
  const onVisibility = () => {
    hidden.set(document.hidden);
    schedule();
    if (live()) void tick();
  };
  document.addEventListener('visibilitychange', onVisibility);
  inject(DestroyRef).onDestroy(() => {
    document.removeEventListener('visibilitychange', onVisibility);
    if (timer !== null) clearInterval(timer);
  });
  void tick();
  schedule();
  return {
    live,
    paused: paused.asReadonly(),
    setPaused(value: boolean) {
      paused.set(value);
      schedule();
      if (live()) void tick();
    },
    stop() {
      stopped = true;
      schedule();
    },
  };
}
