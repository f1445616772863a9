/**
 * Every page, in both languages, on a phone (390 px) and a desktop (1280 px) — issue 14's
 * "screenshots of every page" for a reviewer, in e2e/artifacts/pages/. Each visit also checks
 * what broke before: no sideways scrolling, status chips on one line (Chinese used to wrap them
 * mid-word), no console error or CSP violation (posters load from the configured TMDB image
 * host without CSP_IMG_EXTRA) and no splash left behind.
 */
import { randomBytes } from 'node:crypto';
import {
  type FakeMediaServer,
  type FakeTmdb,
  startFakeMediaServer,
  startFakeTmdb,
} from '@usher/testkit';
import type { Page } from 'playwright-core';
import { apiCall, readyAdmin } from './support/admin-session.js';
import { type ApiStack, startApiStack } from './support/api-stack.js';
import {
  type Browser,
  PageProblems,
  describeWithChromium,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const ADMIN_PASSWORD = 'e2e-pages-admin-1';
const MEMBER = 'iris';
const MEMBER_PASSWORD = 'e2e-pages-member-1';
const MEDIA_KEY = 'e2ePagesMediaKey0123456789ABCDE';
const LANGUAGES = ['en', 'zh-CN'] as const;

interface Visit {
  name: string;
  path: string;
  /** Shown once the page has its data. */
  ready: string;
}

const PUBLIC: Visit[] = [
  { name: 'home', path: '/', ready: 'h1' },
  { name: 'login', path: '/login', ready: '[data-testid="sign-in"]' },
  { name: 'register', path: '/register', ready: 'h1' },
  { name: 'forgot-password', path: '/forgot-password', ready: 'h1' },
];
const MEMBER_PAGES: Visit[] = [
  { name: 'overview', path: '/console/overview', ready: 'main h1' },
  { name: 'requests', path: '/console/requests', ready: 'main h1' },
  { name: 'new-request', path: '/console/requests/new?q=Dune', ready: '.result-grid' },
  { name: 'account', path: '/console/account', ready: 'main h1' },
  { name: 'renewal', path: '/console/renewal', ready: 'main h1' },
];
const ADMIN_PAGES: Visit[] = [
  {
    name: 'admin-overview',
    path: '/admin/overview',
    ready: '[data-testid="tile-pendingRequests"]',
  },
  { name: 'admin-users', path: '/admin/users', ready: 'main h1' },
  // A group with a connection test: the sticky Save / Discard / Test bar is in view.
  {
    name: 'admin-settings-media',
    path: '/admin/settings?group=media_server',
    ready: '[data-testid="settings-actions"]',
  },
  { name: 'admin-redeem-codes', path: '/admin/redeem-codes', ready: 'main h1' },
  { name: 'admin-requests', path: '/admin/requests', ready: 'main h1' },
  { name: 'admin-settings', path: '/admin/settings', ready: 'main h1' },
  { name: 'admin-plans', path: '/admin/plans', ready: 'main h1' },
  { name: 'admin-payments', path: '/admin/payments', ready: 'main h1' },
  { name: 'admin-jobs', path: '/admin/jobs', ready: 'main h1' },
  { name: 'admin-audit', path: '/admin/audit', ready: 'main h1' },
];

describeWithChromium('every page, both languages, phone and desktop (Chromium)', () => {
  let tmdb: FakeTmdb;
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let memberId = '';
  const failedResponses: string[] = [];

  beforeAll(async () => {
    tmdb = await startFakeTmdb({ apiKey: randomBytes(16).toString('hex') });
    media = await startFakeMediaServer({ flavour: 'emby', apiKey: MEDIA_KEY, seed: true });
    stack = await startApiStack({
      env: {
        MEDIA_SERVER_KIND: 'emby',
        MEDIA_SERVER_URL: media.url,
        MEDIA_SERVER_API_KEY: MEDIA_KEY,
        TMDB_API_KEY: tmdb.apiKey,
        TMDB_API_BASE: tmdb.apiBase,
        // No CSP_IMG_EXTRA: the page's CSP must allow the configured image host by itself.
        TMDB_IMAGE_BASE: tmdb.imageBase,
      },
    });
    const admin = await readyAdmin(stack, ADMIN_PASSWORD);
    const expiresAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const created = await apiCall<{ user: { id: string } }>(
      stack,
      'POST',
      '/admin/users',
      { username: MEMBER, password: MEMBER_PASSWORD, expiresAt, createMediaUser: true },
      admin,
    );
    if (created.status !== 201) throw new Error(`member not created: ${JSON.stringify(created)}`);
    memberId = created.body.user.id;
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    problems = new PageProblems(page);
    // The console says "404" without the address: name it in the failure.
    page.on('response', (response) => {
      if (response.status() >= 400) failedResponses.push(`${response.status()} ${response.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await media?.close();
    await tmdb?.close();
  });

  afterEach(() => {
    const failed = failedResponses.splice(0);
    const left = problems.list().map((problem, i) => `${problem} ${failed[i] ?? ''}`.trim());
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;

  async function useLanguage(lang: string): Promise<void> {
    // Each step starts signed out, in its language, whatever the last one left behind.
    await page.goto(url('/login'));
    await page.evaluate((value) => {
      localStorage.clear();
      localStorage.setItem('usher.lang', value);
    }, lang);
    await page.reload();
  }

  async function signIn(username: string, password: string): Promise<void> {
    await page.goto(url('/login'));
    await page.locator('[data-testid="username"]').fill(username);
    await page.locator('[data-testid="password"]').fill(password);
    await page.locator('[data-testid="sign-in"]').click();
    await page.waitForURL(url('/console/overview'));
  }

  async function signOut(): Promise<void> {
    await page.locator('[data-testid="user-menu"]').click();
    await page.locator('[data-testid="sign-out"]').click();
    await page.waitForURL(url('/login'));
  }

  /** Status chips taller than one line of label text (wrapped). */
  function wrappedChips(): Promise<string[]> {
    return page.evaluate(() =>
      [...document.querySelectorAll('app-status-chip')]
        .filter((chip) => chip.getBoundingClientRect().height > 40)
        .map((chip) => chip.textContent?.trim() ?? ''),
    );
  }

  async function visitAll(lang: string, visits: Visit[]): Promise<void> {
    const failures: string[] = [];
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      for (const visit of visits) {
        await page.goto(url(visit.path));
        await page.locator(visit.ready).first().waitFor();
        await page.waitForLoadState('networkidle');
        await page.locator('main [role="progressbar"], .skeleton').first().waitFor({
          state: 'hidden',
        });
        const name = `${visit.name}-${lang}-${size.width}`;
        await screenshot(page, `pages/${name}`);
        if ((await page.locator('[data-testid="splash"]').count()) > 0) {
          failures.push(`${name}: splash still shown`);
        }
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) failures.push(`${name}: ${overflow}px sideways`);
        const wrapped = await wrappedChips();
        if (wrapped.length) failures.push(`${name}: chips on two lines: ${wrapped.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
  }

  for (const lang of LANGUAGES) {
    it(`shows the public pages in ${lang}`, async () => {
      await useLanguage(lang);
      await visitAll(lang, PUBLIC);
    });

    it(`shows the member's pages in ${lang}`, async () => {
      await useLanguage(lang);
      await signIn(MEMBER, MEMBER_PASSWORD);
      await visitAll(lang, MEMBER_PAGES);
      // Posters come from the fake TMDB's image host, allowed by the CSP from the setting.
      await page.goto(url('/console/requests/new?q=Dune'));
      await page.locator('.result-grid img').first().waitFor();
      const loaded = await page
        .locator('.result-grid img')
        .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0));
      expect(loaded.length).toBeGreaterThan(0);
      await signOut();
    });

    it(`shows the admin's pages in ${lang}`, async () => {
      await useLanguage(lang);
      await signIn('admin', ADMIN_PASSWORD);
      await visitAll(lang, [
        ...ADMIN_PAGES,
        { name: 'admin-user-detail', path: `/admin/users/${memberId}`, ready: 'main h1' },
      ]);
      await signOut();
    });
  }
});
