import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initialLanguage } from './app/core/i18n/language';
import type { EarlyRead } from './app/core/api/early-reads';

/**
 * public/boot.js (issue 14): before Angular loads it preloads the landing page's code and
 * starts the app's first reads. Run here as the browser runs it, with the config the build
 * writes in (scripts/route-preload.mjs).
 */
const SOURCE = readFileSync(join(__dirname, '../public/boot.js'), 'utf8');
const PLACEHOLDER = "/* boot-config */ { landings: [], i18n: '' }";

const CONFIG = {
  landings: [
    { path: '^/login$', signedIn: false, files: ['chunk-login.js'], reads: [] },
    {
      path: '^/console(/overview)?/?$',
      signedIn: true,
      files: ['chunk-shell.js', 'chunk-overview.js'],
      reads: ['/api/v1/media/latest?type=movie&limit=20', '/api/v1/media/resume?limit=12'],
      posters: ['/api/v1/media/resume?limit=12', '/api/v1/media/latest?type=movie&limit=20'],
    },
    { path: '^/(console|admin)/', signedIn: true, files: ['chunk-shell.js'], reads: [] },
  ],
  i18n: '1.2.3-abc1234',
};

interface Visit {
  path: string;
  session?: string | null;
  lang?: string | null;
  languages?: string[];
  config?: unknown;
  /** The network gives no reply at all. */
  offline?: boolean;
}

function run({
  path,
  session = null,
  lang = null,
  languages = ['en-US'],
  config = CONFIG,
  offline = false,
}: Visit) {
  document.head
    .querySelectorAll('link[rel="modulepreload"], link[rel="preload"]')
    .forEach((link) => link.remove());
  delete window.usherEarlyReads;
  localStorage.clear();
  if (session !== null) localStorage.setItem('usher.session', session);
  if (lang !== null) localStorage.setItem('usher.lang', lang);
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  window.history.replaceState({}, '', path);
  const fetch = jest.fn((url: string, _init?: { headers: Record<string, string> }) =>
    (offline ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve()).then(() => ({
      status: url === '/api/v1/me' ? meStatus : url.includes('fail') ? 503 : 200,
      json: () => (url.includes('html') ? Promise.reject(new SyntaxError('<')) : reply(url)),
    })),
  );
  (globalThis as { fetch?: unknown }).fetch = fetch;
  expect(SOURCE).toContain(PLACEHOLDER);
  new Function(SOURCE.replace(PLACEHOLDER, JSON.stringify(config)))();
  const preloads = Array.from(
    document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'),
    (link) => link.getAttribute('href'),
  );
  const reads: Record<string, EarlyRead> = window.usherEarlyReads ?? {};
  return { fetch, preloads, reads };
}

/** What the fake API answers: `/me` as the session `meBody` says, anything else its own URL. */
let meBody: Record<string, unknown> = { mustChangePassword: false };
let meStatus = 200;
const reply = (url: string) =>
  Promise.resolve(
    url === '/api/v1/me'
      ? meBody
      : url.includes('/media/latest')
        ? { items: latestItems(url) }
        : url.includes('/media/resume')
          ? { items: resumeItems }
          : { url },
  );
/** The overview's rails: the movie rail's first poster is the page's largest paint… */
let latestItems = (url: string): { posterUrl: string }[] =>
  url.includes('type=movie') ? [{ posterUrl: '/api/v1/media/posters/1?u=u&exp=1&sig=s' }] : [];
/** …unless "continue watching", above it, has anything. */
let resumeItems: { posterUrl: string }[] = [];
const SESSION_EXPIRED = JSON.stringify({ token: 'tok-1', expiresAt: '2000-01-01T00:00:00Z' });
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const SESSION = JSON.stringify({ token: 'tok-1', expiresAt: '2099-01-01T00:00:00Z' });

describe('boot.js', () => {
  afterEach(() => {
    delete (globalThis as { fetch?: unknown }).fetch;
    localStorage.clear();
  });

  it("should preload the overview's code and start its reads with the member's token", async () => {
    const { fetch, preloads, reads } = run({ path: '/console/overview', session: SESSION });
    expect(preloads).toEqual(['chunk-shell.js', 'chunk-overview.js']);
    // The page's own reads start beside /me (issue 36), not once it answered.
    expect(Object.keys(reads)).toEqual([
      '/i18n/en.json?v=1.2.3-abc1234',
      '/api/v1/public/site',
      '/api/v1/me',
      '/api/v1/media/latest?type=movie&limit=20',
      '/api/v1/media/resume?limit=12',
    ]);
    await settled();
    expect(Object.keys(reads)).toContain('/api/v1/media/latest?type=movie&limit=20');
    const init = (url: string) => fetch.mock.calls.find(([called]) => called === url)![1];
    expect(init('/api/v1/me')).toEqual({ headers: { Authorization: 'Bearer tok-1' } });
    expect(init('/api/v1/media/latest?type=movie&limit=20')).toEqual({
      headers: { Authorization: 'Bearer tok-1' },
    });
    // The public reads carry no token.
    expect(init('/api/v1/public/site')).toEqual({ headers: {} });
    await expect(reads['/api/v1/me']!.reply).resolves.toEqual({ status: 200, body: meBody });
  });

  it("should ask for the reads before the page's code (six connections on HTTP/1.1)", () => {
    const order: string[] = [];
    const append = jest.spyOn(document.head, 'appendChild').mockImplementation((node) => {
      order.push(`code ${(node as HTMLLinkElement).getAttribute('href')}`);
      return node;
    });
    try {
      const { fetch } = run({ path: '/console/overview', session: SESSION });
      const calls = fetch.mock.invocationCallOrder.map((at, i) => [at, fetch.mock.calls[i]![0]]);
      const links = append.mock.invocationCallOrder;
      expect(Math.max(...calls.map(([at]) => at as number))).toBeLessThan(Math.min(...links));
      expect(order).toEqual(['code chunk-shell.js', 'code chunk-overview.js']);
    } finally {
      append.mockRestore();
    }
  });

  it('should hand the app no page read while a password change is due, or when /me refused', async () => {
    meBody = { mustChangePassword: true };
    try {
      const { reads } = run({ path: '/console/overview', session: SESSION });
      // Dropped before the app's own wait on /me ends: boot.js waits on the same reply first.
      const seen = await reads['/api/v1/me']!.reply.then(() => Object.keys(reads));
      expect(seen).not.toContain('/api/v1/media/latest?type=movie&limit=20');
      expect(seen).not.toContain('/api/v1/media/resume?limit=12');
    } finally {
      meBody = { mustChangePassword: false };
    }
    meBody = { error: { code: 'TOKEN_REVOKED' } };
    meStatus = 401;
    try {
      const { reads } = run({ path: '/console/overview', session: SESSION });
      await settled();
      expect(Object.keys(reads)).toEqual([
        '/i18n/en.json?v=1.2.3-abc1234',
        '/api/v1/public/site',
        '/api/v1/me',
      ]);
    } finally {
      meBody = { mustChangePassword: false };
      meStatus = 200;
    }
  });

  it('should start no page read when the stored session says a password change is due', () => {
    const due = JSON.stringify({
      token: 'tok-1',
      expiresAt: '2099-01-01T00:00:00Z',
      mustChangePassword: true,
    });
    const { fetch } = run({ path: '/console/overview', session: due });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      '/i18n/en.json?v=1.2.3-abc1234',
      '/api/v1/public/site',
      '/api/v1/me',
    ]);
  });

  it('should preload nothing of the console and read no /me without a session', () => {
    for (const session of [null, SESSION_EXPIRED, '{"token":1}', '{broken']) {
      const { preloads, reads } = run({ path: '/console/overview', session });
      expect(preloads).toEqual([]);
      expect(Object.keys(reads)).toEqual(['/i18n/en.json?v=1.2.3-abc1234', '/api/v1/public/site']);
    }
    expect(run({ path: '/login' }).preloads).toEqual(['chunk-login.js']);
    // Signed in, /login is not a landing (the guest guard sends the member on).
    expect(run({ path: '/login', session: SESSION }).preloads).toEqual([]);
  });

  it('should take the first landing that matches: other console pages get the shell only', async () => {
    const { preloads, reads } = run({ path: '/console/requests', session: SESSION });
    expect(preloads).toEqual(['chunk-shell.js']);
    await settled();
    expect(Object.keys(reads)).not.toContain('/api/v1/media/latest?type=movie&limit=20');
  });

  it('should keep an error reply with its status, and a body that is not JSON as null', async () => {
    const { reads } = run({ path: '/', config: { ...CONFIG, i18n: 'fail-html' } });
    await expect(reads['/i18n/en.json?v=fail-html']!.reply).resolves.toEqual({
      status: 503,
      body: null,
    });
  });

  it('should hand over null when no reply came at all', async () => {
    const { reads } = run({ path: '/', offline: true });
    await expect(reads['/api/v1/public/site']!.reply).resolves.toBeNull();
  });

  it('should start nothing before the build wrote its config (ng serve)', () => {
    const { fetch, preloads, reads } = run({
      path: '/console/overview',
      session: SESSION,
      config: { landings: [], i18n: '' },
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(preloads).toEqual([]);
    expect(reads).toEqual({});
  });

  it('should pick the language file initialLanguage picks', () => {
    const cases: { lang: string | null; languages: string[] }[] = [
      { lang: null, languages: ['en-US'] },
      { lang: null, languages: ['zh-TW', 'en'] },
      { lang: null, languages: ['fr-FR', 'zh-Hans-CN'] },
      { lang: null, languages: ['fr-FR', 'de'] },
      { lang: null, languages: [] },
      { lang: 'zh-CN', languages: ['en-US'] },
      { lang: 'en', languages: ['zh-CN'] },
      { lang: 'klingon', languages: ['ZH'] },
    ];
    for (const { lang, languages } of cases) {
      const { reads } = run({ path: '/', lang, languages });
      const expected = initialLanguage(lang, languages);
      expect([lang, languages, Object.keys(reads)[0]]).toEqual([
        lang,
        languages,
        `/i18n/${expected}.json?v=1.2.3-abc1234`,
      ]);
    }
  });

  it("should preload the first read's first poster at high priority, and nothing foreign", async () => {
    run({ path: '/console/overview', session: SESSION });
    await settled();
    await settled();
    const preloads = () =>
      Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]'), (l) => [
        l.getAttribute('as'),
        l.getAttribute('href'),
        l.getAttribute('fetchpriority'),
      ]);
    // The rail's own candidates (PosterImage's widths), so the <img> reuses this fetch.
    const poster = '/api/v1/media/posters/1?u=u&exp=1&sig=s';
    expect(preloads()).toEqual([['image', `${poster}&width=320`, 'high']]);
    expect(document.head.querySelector('link[rel="preload"]')!.getAttribute('imagesrcset')).toBe(
      `${poster}&width=160 160w, ${poster}&width=240 240w, ${poster}&width=320 320w`,
    );
    // "Continue watching" stands above the movies: its first poster when it has one.
    resumeItems = [{ posterUrl: '/api/v1/media/posters/9?u=u&exp=1&sig=r' }];
    try {
      run({ path: '/console/overview', session: SESSION });
      await settled();
      await settled();
      expect(preloads()).toEqual([
        ['image', '/api/v1/media/posters/9?u=u&exp=1&sig=r&width=320', 'high'],
      ]);
    } finally {
      resumeItems = [];
    }
    const real = latestItems;
    try {
      for (const posterUrl of ['//evil.example/x.jpg', 'https://evil.example/x.jpg']) {
        latestItems = () => [{ posterUrl }];
        run({ path: '/console/overview', session: SESSION });
        await settled();
        await settled();
        expect(preloads()).toEqual([]);
      }
    } finally {
      latestItems = real;
    }
  });

  describe('service worker', () => {
    let register: jest.Mock;
    /** The page's `load` listeners boot.js added (earlier visits' listeners are not fired). */
    let onLoad: (() => void)[];
    beforeEach(() => {
      jest.useFakeTimers();
      onLoad = [];
      jest.spyOn(window, 'addEventListener').mockImplementation((type, listener) => {
        if (type === 'load') onLoad.push(listener as () => void);
      });
      register = jest.fn(() => Promise.resolve());
      Object.defineProperty(navigator, 'serviceWorker', {
        value: { register },
        configurable: true,
      });
    });
    afterEach(() => {
      jest.useRealTimers();
      jest.restoreAllMocks();
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    });
    const loaded = () => {
      onLoad.splice(0).forEach((listener) => listener());
      jest.advanceTimersByTime(4000);
    };

    it('should register the worker for a signed-in visitor, after the page has loaded and settled', () => {
      run({ path: '/console/overview', session: SESSION });
      expect(register).not.toHaveBeenCalled();
      onLoad.splice(0).forEach((listener) => listener());
      jest.advanceTimersByTime(3999);
      expect(register).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    });

    it('should register nothing on a signed-out visit (the first visit budget) or a dev build', () => {
      run({ path: '/login' });
      loaded();
      run({ path: '/console/overview', session: SESSION, config: { landings: [], i18n: '' } });
      loaded();
      expect(register).not.toHaveBeenCalled();
    });
  });
});
