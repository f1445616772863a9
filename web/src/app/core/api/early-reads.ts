import { HttpResponse, type HttpInterceptorFn } from '@angular/common/http';
import { from, of, switchMap } from 'rxjs';

/** A read public/boot.js started before Angular loaded: the parsed body, or null if it failed. */
export interface EarlyRead {
  at: number;
  reply: Promise<{ body: unknown } | null>;
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
 * Interceptor 0: a GET that public/boot.js already started (the language file, the site, `/me`,
 * the landing page's first reads) is answered from that read instead of asked again, so the
 * first page does not wait for a round trip that began before its code arrived. Only a
 * successful read is reused; a failed or refused one is made again here, so its error takes the
 * usual path through the interceptors after this one (a dead session, the error body).
 */
export const earlyReadInterceptor: HttpInterceptorFn = (req, next) => {
  const early =
    req.method === 'GET' && req.responseType === 'json' ? takeEarlyRead(req.urlWithParams) : null;
  if (!early) return next(req);
  return from(early).pipe(
    switchMap((read) =>
      read
        ? of(new HttpResponse({ body: read.body, status: 200, url: req.urlWithParams }))
        : next(req),
    ),
  );
};
