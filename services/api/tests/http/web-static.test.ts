import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/http/context.js';
import {
  WEB_CSP,
  imageOrigins,
  mountWebApp,
  originOf,
  pickEncoding,
} from '../../src/http/web-static.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';

/** A chunk large enough to be worth compressing. */
const BIG_JS = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2;`).join(
  '\n',
);

describe(`built web app served at / (${ENGINE})`, () => {
  let database: TestDatabase;
  let dir: string;
  let t: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'usher-web-'));
    mkdirSync(join(dir, 'media'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><app-root></app-root>');
    writeFileSync(join(dir, 'main-ABCD1234.js'), 'console.log(1)');
    writeFileSync(join(dir, 'chunk-a1b2_c3-d4.js'), 'console.log(2)');
    writeFileSync(join(dir, 'favicon.ico'), 'icon');
    writeFileSync(join(dir, 'big-EFGH5678.js'), BIG_JS);
    writeFileSync(join(tmpdir(), 'usher-outside.txt'), 'secret');
    database = await createTestDatabase();
    t = createTestApp(database.handle, { config: testConfig({ WEB_DIST_DIR: dir }) });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.close();
  });

  it('should answer SPA deep links with index.html, no-cache and the web CSP', async () => {
    for (const path of ['/', '/console/account', '/login?redirect=%2Fconsole']) {
      const res = await t.call('GET', path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(await res.text()).toContain('<app-root>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toBe(WEB_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('should cache hashed assets for a year and 404 a missing chunk', async () => {
    const asset = await t.call('GET', '/main-ABCD1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    // esbuild's hashes may hold lowercase letters, `_` and `-` too.
    const lower = await t.call('GET', '/chunk-a1b2_c3-d4.js');
    expect(lower.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await t.call('GET', '/chunk-ZZZZ9999.js')).status).toBe(404);
    expect((await t.call('GET', '/chunk-zz_z-9999.js')).status).toBe(404);
    expect((await t.call('GET', '/favicon.ico')).headers.get('cache-control')).toBe('no-cache');
  });

  it('should leave API, health and unknown API paths to the API', async () => {
    const api = await t.call('GET', '/api/v1/unknown');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await t.call('GET', '/health')).headers.get('content-type')).toContain('json');
  });

  it('should never serve files outside the build folder', async () => {
    const res = await t.call('GET', '/..%2fusher-outside.txt');
    expect(await res.text()).not.toBe('secret');
  });

  it('should add CSP_IMG_EXTRA origins to img-src, dropping anything that is not an origin', async () => {
    expect(imageOrigins('http://127.0.0.1:4567 https://img.example.test')).toBe(
      'http://127.0.0.1:4567 https://img.example.test',
    );
    expect(imageOrigins("https://ok.test 'unsafe-inline' x;y")).toBe('https://ok.test');
    expect(imageOrigins(undefined)).toBe('');
    const app = new Hono<AppEnv>();
    mountWebApp(app, dir, 'http://127.0.0.1:4567');
    const csp = (await app.request('/')).headers.get('content-security-policy');
    expect(csp).toContain(
      "img-src 'self' data: blob: https://image.tmdb.org http://127.0.0.1:4567;",
    );
    expect(WEB_CSP).toContain("img-src 'self' data: blob: https://image.tmdb.org;");
  });

  it('should send brotli or gzip as the client accepts, and plain bytes otherwise', async () => {
    const br = await t.call('GET', '/big-EFGH5678.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(BIG_JS.length / 4);
    expect(brotliDecompressSync(brBody).toString()).toBe(BIG_JS);

    const gz = await t.call('GET', '/big-EFGH5678.js', {
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(BIG_JS);

    const plain = await t.call('GET', '/big-EFGH5678.js', { headers: { 'accept-encoding': '' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(BIG_JS);
    // A tiny file is not worth it; an image is compressed already.
    const small = await t.call('GET', '/main-ABCD1234.js', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers.get('content-encoding')).toBeNull();
    const icon = await t.call('GET', '/favicon.ico', { headers: { 'accept-encoding': 'br' } });
    expect(icon.headers.get('content-encoding')).toBeNull();
  });

  it('should read Accept-Encoding with q values and wildcards', () => {
    expect(pickEncoding('br')).toBe('br');
    expect(pickEncoding('gzip;q=0.5, br;q=0')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });

  it('should allow images from the configured TMDB image base (the demo serves posters locally)', async () => {
    expect(originOf('http://127.0.0.1:4567/t/p/')).toBe('http://127.0.0.1:4567');
    expect(originOf('javascript:alert(1)')).toBe('');
    expect(originOf('not a url')).toBe('');
    const app = new Hono<AppEnv>();
    mountWebApp(app, dir, 'https://cdn.example.test', async () => 'http://127.0.0.1:4567/t/p');
    const csp = (await app.request('/')).headers.get('content-security-policy');
    expect(csp).toContain(
      "img-src 'self' data: blob: https://image.tmdb.org https://cdn.example.test http://127.0.0.1:4567;",
    );
    // The default base adds nothing; a settings failure keeps the static policy.
    const tmdb = new Hono<AppEnv>();
    mountWebApp(tmdb, dir, '', async () => 'https://image.tmdb.org/t/p');
    expect((await tmdb.request('/')).headers.get('content-security-policy')).toBe(WEB_CSP);
    const down = new Hono<AppEnv>();
    mountWebApp(down, dir, '', async () => {
      throw new Error('database unavailable');
    });
    expect((await down.request('/')).headers.get('content-security-policy')).toBe(WEB_CSP);
  });

  it('should take the image origin from the TMDB_IMAGE_BASE setting in the running app', async () => {
    const withBase = createTestApp(database.handle, {
      config: testConfig({ WEB_DIST_DIR: dir }),
      settingsEnv: { TMDB_IMAGE_BASE: 'http://127.0.0.1:9/t/p/' },
    });
    const csp = (await withBase.call('GET', '/')).headers.get('content-security-policy');
    expect(csp).toContain('http://127.0.0.1:9;');
  });
});
