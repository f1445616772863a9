import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
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

/** Text types worth compressing; images and woff2 are compressed already. */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.webmanifest',
]);
/** Below this a compressed body saves less than its headers cost. */
const MIN_COMPRESS = 1024;

type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (`q=0` refuses one), brotli first. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/**
 * Compressed bodies by file, encoding and modification time: each file is compressed once per
 * process (brotli quality 9 is close to 11 on JavaScript at a fraction of the time), so a first
 * visit to `npm start` downloads what nginx would send.
 */
class CompressedCache {
  private readonly bodies = new Map<string, NonSharedBuffer>();

  get(file: string, mtimeMs: number, encoding: Encoding, body: NonSharedBuffer): NonSharedBuffer {
    const key = `${encoding}:${mtimeMs}:${file}`;
    let out = this.bodies.get(key);
    if (!out) {
      out =
        encoding === 'br'
          ? brotliCompressSync(body, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: 9,
                [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            })
          : gzipSync(body, { level: 9 });
      this.bodies.set(key, out);
    }
    return out;
  }
}

/** The origin of an http(s) URL (a configured `TMDB_IMAGE_BASE`), or '' for anything else. */
export function originOf(url: string | undefined): string {
  if (!url) return '';
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : '';
  } catch {
    return '';
  }
}

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
  imageBase?: () => Promise<string | undefined>,
): boolean {
  const compressed = new CompressedCache();
  /**
   * img-src also allows the origin of the configured TMDB image base (30-settings.md), so posters
   * load from wherever the operator — or the demo's TMDB stand-in — points it, without
   * CSP_IMG_EXTRA. The settings store caches, so this costs no query per request.
   */
  const cspNow = async (): Promise<string> => {
    let configured = '';
    try {
      configured = originOf(await imageBase?.());
    } catch {
      // Settings unreadable (database down): the static CSP still serves the page.
    }
    const origins = new Set(`${imgExtra} ${configured}`.split(' ').filter(Boolean));
    origins.delete('https://image.tmdb.org');
    return webCsp([...origins].join(' '));
  };
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
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Cache-Control': cache,
      'Content-Security-Policy': await cspNow(),
      'X-Frame-Options': 'DENY',
    };
    let body: NonSharedBuffer = readFileSync(file);
    if (COMPRESSIBLE.has(extname(file))) {
      headers['Vary'] = 'Accept-Encoding';
      const encoding =
        body.length >= MIN_COMPRESS ? pickEncoding(c.req.header('accept-encoding')) : null;
      if (encoding) {
        body = compressed.get(file, statSync(file).mtimeMs, encoding, body);
        headers['Content-Encoding'] = encoding;
      }
    }
    return c.body(body, 200, headers);
  });
  return true;
}
