import { HttpContext, HttpContextToken } from '@angular/common/http';

/**
 * Marks the start-up `GET /me`: its 401 just clears the stored token (the guards then route),
 * instead of the usual sign-out redirect, which would race the router's first navigation.
 */
export const STARTUP_CHECK = new HttpContextToken<boolean>(() => false);

/**
 * The abort signal of the read a request belongs to (`apiResource` hands one to each load):
 * when the read is superseded — newer params, a reload, the page left — the signal aborts and
 * `abortInterceptor` cancels the request instead of letting it run to the end.
 */
export const ABORT = new HttpContextToken<AbortSignal | null>(() => null);

/** Request options that tie a request to a read's abort signal (none: an ordinary request). */
export function abortWith(signal: AbortSignal | undefined): { context?: HttpContext } {
  return signal ? { context: new HttpContext().set(ABORT, signal) } : {};
}
