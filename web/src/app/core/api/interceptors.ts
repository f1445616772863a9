import {
  HttpErrorResponse,
  type HttpHandlerFn,
  type HttpInterceptorFn,
  type HttpRequest,
} from '@angular/common/http';
import { inject } from '@angular/core';
import { Router } from '@angular/router';
import { Observable, catchError, throwError } from 'rxjs';
import { Notifier } from '../notifier';
import { SessionStore } from '../session/session-store';
import { PASSWORD_SECTION_URL } from '../session/redirect';
import { toApiError } from './api-error';
import { ABORT, STARTUP_CHECK } from './context';
import { earlyReadInterceptor } from './early-reads';

const API_PREFIX = '/api/v1/';
const isApi = (req: HttpRequest<unknown>) => req.url.startsWith(API_PREFIX);

/** Codes that mean "this token is no longer good" (20-api.md §1.2). */
const SESSION_ENDED = new Set(['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_REVOKED']);

/**
 * Interceptor 0: a request tied to an abort signal (`abortWith`) is cancelled when the signal
 * aborts — HttpClient then aborts the fetch — and fails with an `AbortError`, which the
 * superseded read ignores. First in the chain, so nothing after it waits for a dead request.
 */
export const abortInterceptor: HttpInterceptorFn = (req, next) => {
  const signal = req.context.get(ABORT);
  if (!signal) return next(req);
  return new Observable((subscriber) => {
    const abort = () => subscriber.error(new DOMException('Superseded', 'AbortError'));
    if (signal.aborted) {
      abort();
      return undefined;
    }
    const request = next(req).subscribe(subscriber);
    signal.addEventListener('abort', abort, { once: true });
    return () => {
      signal.removeEventListener('abort', abort);
      request.unsubscribe();
    };
  });
};

/** Interceptor 1: the bearer token on every API call while signed in. */
export const bearerTokenInterceptor: HttpInterceptorFn = (req, next) => {
  const token = inject(SessionStore).token();
  if (!token || !isApi(req)) return next(req);
  return next(req.clone({ setHeaders: { Authorization: `Bearer ${token}` } }));
};

/**
 * A random UUID v4 from `getRandomValues`: `crypto.randomUUID` exists only in secure contexts,
 * and homelab installs are often plain http on a LAN address.
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Interceptor 2: a fresh `X-Request-Id` per call, so a reference on screen finds the log line. */
export const requestIdInterceptor: HttpInterceptorFn = (req, next) =>
  isApi(req) ? next(req.clone({ setHeaders: { 'X-Request-Id': newRequestId() } })) : next(req);

/**
 * Interceptor 3: every failure becomes an `ApiError`. Two replies also move the user:
 * a dead session (not on `/auth/*`, where 401 means "wrong password") goes to sign-in once,
 * and 403 PASSWORD_CHANGE_REQUIRED goes to the password card (60-web.md §1 error table).
 */
export const apiErrorInterceptor: HttpInterceptorFn = (req, next: HttpHandlerFn) => {
  if (!isApi(req)) return next(req);
  const session = inject(SessionStore);
  const router = inject(Router);
  const notifier = inject(Notifier);
  return next(req).pipe(
    catchError((failure: unknown) => {
      if (!(failure instanceof HttpErrorResponse)) return throwError(() => failure);
      const error = toApiError(failure, req.headers.get('X-Request-Id'));
      const onAuthRoute = req.url.startsWith(`${API_PREFIX}auth/`);
      const sessionEnded = error.status === 401 && SESSION_ENDED.has(error.code);
      if (sessionEnded && !onAuthRoute && !req.context.get(STARTUP_CHECK)) {
        session.expire(router.url);
      } else if (error.status === 403 && error.code === 'PASSWORD_CHANGE_REQUIRED') {
        session.requirePasswordChange();
        notifier.show('session.passwordChangeRequired');
        void router.navigateByUrl(PASSWORD_SECTION_URL);
      }
      return throwError(() => error);
    }),
  );
};

/**
 * The app's interceptors in order (60-web.md §1): token, then request id, then error mapping,
 * then, in place of the network, the reads public/boot.js started (earlyReadInterceptor).
 */
export const APP_INTERCEPTORS: HttpInterceptorFn[] = [
  abortInterceptor,
  bearerTokenInterceptor,
  requestIdInterceptor,
  apiErrorInterceptor,
  earlyReadInterceptor,
];
