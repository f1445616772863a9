import { Injector, runInInjectionContext } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideTestApp } from '../../testing/providers';
import { ApiError } from '../core/api/api-error';
import { Notifier } from '../core/notifier';
import { type Action, action, rowAction } from './action';

const refusal = () =>
  new ApiError(422, 'LAST_ADMIN', 'At least one active admin must remain', 'req-7', null);

describe('action', () => {
  let act: Action;
  let notifier: Notifier;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    notifier = TestBed.inject(Notifier);
    jest.spyOn(notifier, 'show').mockImplementation(() => undefined);
    act = runInInjectionContext(TestBed.inject(Injector), () => action());
  });

  it('should be busy while the work runs, then show the success message', async () => {
    let finish!: () => void;
    const running = act.run(() => new Promise<void>((resolve) => (finish = resolve)), {
      done: 'adminUsers.saved',
    });
    expect(act.busy()).toBe(true);

    finish();

    await expect(running).resolves.toBe(true);
    expect(act.busy()).toBe(false);
    expect(act.error()).toBeNull();
    expect(notifier.show).toHaveBeenCalledWith('adminUsers.saved');
  });

  it('should keep a refusal as the error line, with its reference, and show no success', async () => {
    const after = jest.fn();

    const ok = await act.run(() => Promise.reject(refusal()), { done: 'adminUsers.saved', after });

    expect(ok).toBe(false);
    expect(act.busy()).toBe(false);
    expect(act.error()?.message).toBeTruthy();
    expect(act.error()?.reference).toContain('req-7');
    expect(notifier.show).not.toHaveBeenCalled();
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('should not run twice at once', async () => {
    let finish!: () => void;
    const work = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const first = act.run(work);

    await expect(act.run(work)).resolves.toBe(false);

    finish();
    await first;
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('should leave the error line empty when the caller handles the failure', async () => {
    const handle = jest.fn(() => true);

    await act.run(() => Promise.reject(refusal()), { handle });

    expect(handle).toHaveBeenCalledWith(expect.any(ApiError));
    expect(act.error()).toBeNull();
  });

  it('should clear the last error when it runs again', async () => {
    await act.run(() => Promise.reject(refusal()));
    expect(act.error()).not.toBeNull();

    await act.run(() => Promise.resolve());

    expect(act.error()).toBeNull();
  });

  it('should name the running row and ignore every row meanwhile', async () => {
    const rows = runInInjectionContext(TestBed.inject(Injector), () => rowAction());
    let finish!: () => void;
    const work = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const first = rows.runFor('a', work);
    expect(rows.key()).toBe('a');

    await expect(rows.runFor('a', work)).resolves.toBe(false);
    await expect(rows.runFor('b', work)).resolves.toBe(false);
    expect(rows.key()).toBe('a');

    finish();
    await expect(first).resolves.toBe(true);
    expect(rows.key()).toBeNull();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('should show an invalid form its errors and run nothing', async () => {
    const form = { invalid: true, markAllAsTouched: jest.fn() };
    const work = jest.fn(() => Promise.resolve());

    await expect(act.submit(form, work)).resolves.toBe(false);
    expect(form.markAllAsTouched).toHaveBeenCalled();
    expect(work).not.toHaveBeenCalled();

    form.invalid = false;
    await expect(act.submit(form, work)).resolves.toBe(true);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
