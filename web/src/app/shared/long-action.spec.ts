import { Component, inject } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { LongActionTracker, POLL_FAST_MS, POLL_SLOW_AFTER_MS, POLL_SLOW_MS } from './long-action';

@Component({ selector: 'app-host', template: '', providers: [LongActionTracker] })
class Host {
  readonly tracker = inject(LongActionTracker);
}

describe('LongActionTracker', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('should poll every 2 s, every 10 s after a minute, and resolve with the final answer', async () => {
    const fixture = TestBed.createComponent(Host);
    const calls: number[] = [];
    const start = Date.now();
    let answer = 'running';
    const done = fixture.componentInstance.tracker.track(
      async () => {
        calls.push(Date.now() - start);
        return answer;
      },
      (v) => v !== 'running',
    );
    await jest.advanceTimersByTimeAsync(POLL_SLOW_AFTER_MS);
    expect(calls).toHaveLength(POLL_SLOW_AFTER_MS / POLL_FAST_MS);
    await jest.advanceTimersByTimeAsync(POLL_SLOW_MS);
    expect(calls.at(-1)! - calls.at(-2)!).toBe(POLL_SLOW_MS);
    answer = 'succeeded';
    await jest.advanceTimersByTimeAsync(POLL_SLOW_MS);
    await expect(done).resolves.toBe('succeeded');
    const count = calls.length;
    await jest.advanceTimersByTimeAsync(POLL_SLOW_MS * 3);
    expect(calls).toHaveLength(count);
  });

  it('should retry a failed poll and give up after five failures in a row', async () => {
    const fixture = TestBed.createComponent(Host);
    let calls = 0;
    const done = fixture.componentInstance.tracker.track(
      async () => {
        calls += 1;
        throw new Error('offline');
      },
      () => true,
    );
    const outcome = done.catch((e: Error) => e.message);
    await jest.advanceTimersByTimeAsync(POLL_FAST_MS * 5);
    await expect(outcome).resolves.toBe('offline');
    expect(calls).toBe(5);
  });

  it('should stop polling when its component is destroyed', async () => {
    const fixture = TestBed.createComponent(Host);
    let calls = 0;
    void fixture.componentInstance.tracker.track(
      async () => {
        calls += 1;
        return 'running';
      },
      () => false,
    );
    await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
    expect(calls).toBe(1);
    fixture.destroy();
    await jest.advanceTimersByTimeAsync(POLL_FAST_MS * 10);
    expect(calls).toBe(1);
  });
});
