import type { DestroyRef } from '@angular/core';
import { ApiError } from '../core/api/api-error';
import { EmailCodeFlow } from './email-code';

const destroyRef = { onDestroy: () => () => undefined } as unknown as DestroyRef;

describe('EmailCodeFlow', () => {
  afterEach(() => jest.useRealTimers());

  it('should send a code, remember the address and count down to the resend', async () => {
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    const send = jest.fn(async (_email: string) => ({
      expiresAt: '2026-03-01T10:10:00.000Z',
      resendAfterSeconds: 60,
    }));
    const flow = new EmailCodeFlow(destroyRef, send);

    await expect(flow.send('ann@example.org', jest.fn())).resolves.toBe(true);

    expect(send).toHaveBeenCalledWith('ann@example.org');
    expect(flow.sentTo()).toBe('ann@example.org');
    expect(flow.resend.remaining()).toBe(60);
    expect(flow.sending()).toBe(false);
    // A second press during the countdown sends nothing.
    await expect(flow.send('ann@example.org', jest.fn())).resolves.toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('should wait as long as a 429 says, hand the refusal over and remember no address', async () => {
    const limited = new ApiError(429, 'RATE_LIMITED', 'Too many', 'req-1', {
      retryAfterSeconds: 42,
    });
    const fail = jest.fn();
    const flow = new EmailCodeFlow(destroyRef, () => Promise.reject(limited));

    await expect(flow.send('ann@example.org', fail)).resolves.toBe(false);

    expect(fail).toHaveBeenCalledWith(limited);
    expect(flow.resend.remaining()).toBe(42);
    expect(flow.sentTo()).toBeNull();
    flow.resend.stop();
  });

  it('should hand any other refusal over without a countdown', async () => {
    const taken = new ApiError(409, 'EMAIL_TAKEN', 'Taken', 'req-2', null);
    const fail = jest.fn();
    const flow = new EmailCodeFlow(destroyRef, () => Promise.reject(taken));

    await flow.send('ann@example.org', fail);

    expect(fail).toHaveBeenCalledWith(taken);
    expect(flow.resend.remaining()).toBe(0);
  });
});
