import type { DestroyRef } from '@angular/core';
import { Countdown, minutesSeconds } from './countdown';

describe('Countdown', () => {
  let destroy: () => void;
  const destroyRef = {
    onDestroy: (fn: () => void) => {
      destroy = fn;
      return () => undefined;
    },
  } as unknown as DestroyRef;

  beforeEach(() => jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00.000Z') }));
  afterEach(() => jest.useRealTimers());

  it('should count whole seconds down to zero and stop', () => {
    const countdown = new Countdown(destroyRef);
    countdown.start(3);
    expect(countdown.remaining()).toBe(3);
    jest.advanceTimersByTime(1000);
    expect(countdown.remaining()).toBe(2);
    jest.advanceTimersByTime(5000);
    expect(countdown.remaining()).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should count to an instant, and end on time even if ticks were skipped', () => {
    const countdown = new Countdown(destroyRef);
    countdown.until('2030-01-01T00:05:00.000Z');
    expect(countdown.remaining()).toBe(300);
    jest.setSystemTime(new Date('2030-01-01T00:04:59.500Z'));
    jest.advanceTimersByTime(1000);
    expect(countdown.remaining()).toBe(0);
  });

  it('should stay at zero for an instant in the past, with no timer left', () => {
    const countdown = new Countdown(destroyRef);
    countdown.until('2029-12-31T23:00:00.000Z');
    expect(countdown.remaining()).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('should stop its timer when the owner is destroyed', () => {
    const countdown = new Countdown(destroyRef);
    countdown.start(60);
    expect(jest.getTimerCount()).toBe(1);
    destroy();
    expect(jest.getTimerCount()).toBe(0);
    expect(countdown.remaining()).toBe(0);
  });

  it('should format minutes and seconds', () => {
    expect(minutesSeconds(300)).toBe('5:00');
    expect(minutesSeconds(59)).toBe('0:59');
    expect(minutesSeconds(61)).toBe('1:01');
  });
});
