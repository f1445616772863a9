// scripts/lib/web-app.mjs, shared by `npm start` and `npm run demo`: when the web app must be
// (re)built and what is served. Only the decisions are exercised here: an Angular build takes
// minutes, so every case below is one where nothing is built.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface WebAppModule {
  WEB_DIST: string;
  webBuildState(root: string): 'missing' | 'stale' | 'fresh';
  prepareWebApp(options: {
    root: string;
    env?: Record<string, string | undefined>;
    write?: (text: string) => void;
  }): string | undefined;
}

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const HOUR = 3_600_000;

describe('web app build decisions (scripts/lib/web-app.mjs)', () => {
  let lib: WebAppModule;
  let root: string;
  const file = (path: string, ageMs: number, text = '') => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    const at = new Date(Date.now() - ageMs);
    utimesSync(full, at, at);
  };

  beforeAll(async () => {
    lib = (await import(pathToFileURL(join(repo, 'scripts/lib/web-app.mjs')).href)) as WebAppModule;
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'usher-web-app-'));
    file('web/package.json', 3 * HOUR, '{}');
    file('web/src/main.ts', 3 * HOUR);
    file('services/contracts/src/index.ts', 3 * HOUR);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('should call a checkout without a build missing', () => {
    expect(lib.webBuildState(root)).toBe('missing');
  });

  it('should serve a build newer than every input without building it again', () => {
    file(`${lib.WEB_DIST}/index.html`, HOUR, '<app-root></app-root>');
    const written: string[] = [];

    const served = lib.prepareWebApp({ root, env: {}, write: (t) => written.push(t) });

    expect(lib.webBuildState(root)).toBe('fresh');
    expect(served).toBe(join(root, lib.WEB_DIST));
    expect(written).toEqual([]);
  });

  it('should call the build stale when a source or the shared contracts changed after it', () => {
    file(`${lib.WEB_DIST}/index.html`, 2 * HOUR);
    file('web/src/app/app.ts', HOUR);
    expect(lib.webBuildState(root)).toBe('stale');

    file('web/src/app/app.ts', 3 * HOUR);
    file('services/contracts/src/users.ts', HOUR);
    expect(lib.webBuildState(root)).toBe('stale');
  });

  it('should ignore test files, which never reach the bundle', () => {
    file(`${lib.WEB_DIST}/index.html`, 2 * HOUR);
    file('web/src/app/app.spec.ts', 0);
    file('services/contracts/src/users.test.ts', 0);

    expect(lib.webBuildState(root)).toBe('fresh');
  });

  it("should use an operator's WEB_DIST_DIR as it is, never building", () => {
    const written: string[] = [];

    const served = lib.prepareWebApp({
      root,
      env: { WEB_DIST_DIR: '/srv/usher-web' },
      write: (t) => written.push(t),
    });

    expect(served).toBe('/srv/usher-web');
    expect(written).toEqual([]);
  });

  it('should serve nothing when the checkout has no web app', () => {
    rmSync(join(root, 'web'), { recursive: true });

    expect(lib.prepareWebApp({ root, env: {}, write: () => undefined })).toBeUndefined();
  });
});
