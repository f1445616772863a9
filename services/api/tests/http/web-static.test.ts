import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/http/context.js';
import { WEB_CSP, imageOrigins, mountWebApp } from '../../src/http/web-static.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, ENGINE, type TestDatabase } from '../support/database.js';

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
    expect(csp).toContain("img-src 'self' data: blob: https://image.tmdb.org http://127.0.0.1:4567;");
    expect(WEB_CSP).toContain("img-src 'self' data: blob: https://image.tmdb.org;");
  });
});
