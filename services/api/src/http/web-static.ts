import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Hono } from 'hono';
import type { AppEnv } from './context.js';

/**
 * The CSP of the web image (70-deploy.md §5), so `npm start` behaves like production.
 * `imgExtra` plays the image's `CSP_IMG_EXTRA`: more image origins, for a `TMDB_IMAGE_BASE`
 * elsewhere (the browser e2e points it at the testkit's TMDB fake).
 */
export function webCsp(imgExtra = ''): string {
  const extra = imgExtra ? ` ${imgExtra}` : '';
  return (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
    `img-src 'self' data: blob: https://image.tmdb.org${extra}; font-src 'self'; ` +
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
    "frame-ancestors 'none'; manifest-src 'self'"
  );
}

export const WEB_CSP = webCsp();

/** Space-separated http(s) origins only; anything else is dropped (no header injection). */
export function imageOrigins(value: string | undefined): string {
  return (value ?? '')
    .split(/\s+/)
    .filter((origin) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin))
    .join(' ');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Hashed build output never changes under its name: cache it for a year. */
const HASHED = /-[A-Za-z0-9_-]{8,}\.(js|css)$/;

/**
 * Serves the built single-page app from `root` at `/` for the embedded default: files as they
 * are, and `index.html` for any other GET that is not an API, health or metrics path (SPA deep
 * links). A missing hashed asset stays a 404 so a stale chunk is detected, not masked.
 */
export function mountWebApp(
  app: Hono<AppEnv>,
  root: string,
  imgExtra = imageOrigins(process.env['CSP_IMG_EXTRA']),
): boolean {
  const csp = webCsp(imgExtra);
  const base = resolve(root);
  const indexFile = join(base, 'index.html');
  if (!existsSync(indexFile)) return false;
  app.get('*', async (c, next) => {
    const path = decodeURIComponent(c.req.path);
    if (path.startsWith('/api/') || path === '/health' || path === '/metrics') return next();
    const target = normalize(join(base, path));
    if (!target.startsWith(base + sep) && target !== base) return next();
    const isFile = existsSync(target) && statSync(target).isFile();
    if (!isFile && (HASHED.test(path) || extname(path) !== '')) return next();
    const file = isFile ? target : indexFile;
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const cache = HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
    return c.body(readFileSync(file), 200, {
      'Content-Type': type,
      'Cache-Control': cache,
      'Content-Security-Policy': csp,
      'X-Frame-Options': 'DENY',
    });
  });
  return true;
}
