import { HttpErrorResponse, HttpResponse, type HttpInterceptorFn } from '@angular/common/http';
import { from, of, switchMap, throwError } from 'rxjs';

/**
 * A read public/boot.js started before Angular loaded: its status and parsed body (null when
 * the body was not JSON), or null when no reply came at all.
 */
export interface EarlyRead {
  at: number;
  reply: Promise<{ status: number; body: unknown } | null>;
}

declare global {
  interface Window {
    /** Filled by public/boot.js (issue 14), keyed by the URL as the app requests it. */
    usherEarlyReads?: Record<string, EarlyRead>;
  }
}

/** How long a read started before the app stays good for the app's first use of it. */
export const EARLY_READ_MS = 30_000;

/** Takes the early read of `url`, if one is waiting and fresh: each is used at most once. */
export function takeEarlyRead(url: string, now = Date.now()): EarlyRead['reply'] | null {
  const reads = window.usherEarlyReads;
  const early = reads?.[url];
  if (!reads || !early) return null;
  delete reads[url];
  return now - early.at < EARLY_READ_MS ? early.reply : null;
}

/**
 * The last interceptor, in place of the network: a GET that public/boot.js already started (the
 * language file, the site, `/me`, the landing page's first reads) is answered from that read
 * instead of asked again, so the first page does not wait for a round trip that began before
 * its code arrived. An error reply is handed on as the error it is, so the interceptors before
 * this one map it as usual (a dead session, the error body) without a second request; only a
 * read that got no reply at all is made again, and reports the outage itself.
 */
export const earlyReadInterceptor: HttpInterceptorFn = (req, next) => {
  const url = req.urlWithParams;
  const early = req.method === 'GET' && req.responseType === 'json' ? takeEarlyRead(url) : null;
  if (!early) return next(req);
  return from(early).pipe(
    switchMap((read) => {
      if (!read) return next(req);
      const { status, body } = read;
      if (status >= 200 && status < 300) return of(new HttpResponse({ body, status, url }));
      return throwError(() => new HttpErrorResponse({ error: body, status, url }));
    }),
  );
};
