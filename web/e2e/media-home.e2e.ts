/**
 * Issue 18 "must show", the media home and live sessions half: a member sees the overview's
 * "recently added" rail, with posters through the API's signed URLs (a plain <img src>); the
 * admin sees a live session appear on /admin/sessions when a media app starts playing on the
 * fake Emby (the app's own `/Sessions/Playing` report), and disappear when it signs out — both
 * by the page's own 10 s refresh. Screenshots of both pages, both languages, 390 and 1280 px, go
 * to e2e/artifacts/media-home/.
 */
import { randomUUID } from 'node:crypto';
import type { FakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { createMember, readyAdmin } from './support/admin-session.js';
import {
  type ApiStack,
  type StackWithFakes,
  itemsWithoutArt,
  startStackWithFakes,
} from './support/api-stack.js';
import {
  type Browser,
  LANGUAGES,
  type PageProblems,
  accessibilityProblems,
  describeWithChromium,
  expectOnlyPosterMisses,
  launchBrowser,
  openPage,
  shootBothWidths,
  signIn as signInAs,
  signOut as signOutOf,
} from './support/browser.js';

const ADMIN_PASSWORD = 'e2e-media-home-admin-1';
const MEMBER = 'juniper';
const MEMBER_PASSWORD = 'e2e-media-home-member-1';

describeWithChromium('media home and live sessions (Chromium)', () => {
  let fakes: StackWithFakes;
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let memberId = '';

  beforeAll(async () => {
    fakes = await startStackWithFakes();
    ({ media, stack } = fakes);
    const admin = await readyAdmin(stack, ADMIN_PASSWORD);
    memberId = await createMember(stack, admin, MEMBER, MEMBER_PASSWORD);
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await fakes?.stop();
  });

  afterEach(() => {
    // Items without artwork answer 404 like any refused poster (docs/media.md); Chromium logs
    // each as a failed resource. Nothing else may fail.
    expectOnlyPosterMisses(problems, itemsWithoutArt(media));
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const signIn = (username: string, password: string, lang: string) =>
    signInAs(page, stack.baseUrl, { username, password }, { lang });
  const signOut = () => signOutOf(page, stack.baseUrl);
  /** Screenshots at both widths, the whole page; the page must not scroll sideways. */
  const shoot = (name: string, ready: () => Promise<void>) =>
    shootBothWidths(page, `media-home/${name}`, { ready, wholePage: true });

  /** What a media app does: sign in to Emby as the member, then report what it plays. */
  const client = `Client="Emby Web", Device="Firefox", DeviceId="${randomUUID()}", Version="4.9.1"`;
  async function emby(path: string, body: unknown, token?: string): Promise<Response> {
    const auth = token
      ? `Emby UserId="", ${client}, Token="${token}"`
      : `Emby UserId="", ${client}`;
    return fetch(`${media.url}/emby${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-emby-authorization': auth },
      body: JSON.stringify(body),
    });
  }

  for (const lang of LANGUAGES) {
    /**
     * Issue 14: opened directly, the overview's code and first reads start in public/boot.js
     * before Angular loads; the app takes each read once (none is asked twice) and the page's
     * chunks were preloaded.
     */
    async function expectEarlyStart(): Promise<void> {
      const asked = new Map<string, number>();
      const count = (request: { url(): string }) => {
        const { pathname, search } = new URL(request.url());
        asked.set(pathname + search, (asked.get(pathname + search) ?? 0) + 1);
      };
      page.on('request', count);
      try {
        await page.reload();
        await byTestId('rail-movie').locator('[data-testid="latest-item"]').first().waitFor();
        await page.waitForLoadState('networkidle');
      } finally {
        page.off('request', count);
      }
      const early = [
        '/api/v1/me',
        '/api/v1/public/site',
        '/api/v1/media/latest?type=movie&limit=20',
        '/api/v1/media/latest?type=series&limit=20',
        '/api/v1/media/resume?limit=12',
      ];
      expect(early.map((path) => [path, asked.get(path)])).toEqual(early.map((path) => [path, 1]));
      // Every read boot.js started was taken by the app.
      expect(
        await page.evaluate(() => (window as { usherEarlyReads?: unknown }).usherEarlyReads),
      ).toEqual({});
      const preloaded = await page.evaluate(
        () => document.querySelectorAll('link[rel="modulepreload"]').length,
      );
      expect(preloaded).toBeGreaterThan(10);
    }

    it(`shows the member the recently added rail with posters (${lang})`, async () => {
      await signIn(MEMBER, MEMBER_PASSWORD, lang);
      const rail = byTestId('rail-movie');
      await rail.locator('[data-testid="latest-item"]').first().waitFor();
      expect(await rail.locator('[data-testid="latest-item"]').count()).toBeGreaterThan(3);
      // The signed poster URLs load as plain images (no token, same origin).
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid="rail-movie"] img')].some(
          (img) => (img as HTMLImageElement).naturalWidth > 0,
        ),
      );
      const src = await rail.locator('img').first().getAttribute('src');
      expect(src).toMatch(/^\/api\/v1\/media\/posters\/[^?]+\?u=[0-9a-f-]+&exp=\d+&sig=/);
      // A poster the server has no art for shows the placeholder, never a broken image.
      await page.waitForLoadState('networkidle');
      const broken = await page.evaluate(
        () =>
          [...document.querySelectorAll('app-poster-image img')].filter(
            (img) => (img as HTMLImageElement).complete && !(img as HTMLImageElement).naturalWidth,
          ).length,
      );
      expect(broken).toBe(0);
      await byTestId('rail-series').locator('[data-testid="latest-item"]').first().waitFor();
      expect(await byTestId('server-url').textContent()).toBe(media.url);
      expect(await byTestId('library-stats').textContent()).toMatch(/\d/);
      expect(await accessibilityProblems(page)).toEqual([]);
      await shoot(`overview-${lang}`, async () => {
        await rail.locator('img').first().waitFor();
      });
      if (lang === 'en') await expectEarlyStart();
      await signOut();
    });
  }

  it('shows the admin a live session appear and disappear, and the setup checklist', async () => {
    await signIn('admin', ADMIN_PASSWORD, 'en');
    // The admin's overview: the setup checklist, the media server configured.
    await byTestId('setup-mediaServer').waitFor();
    expect(
      await byTestId('setup-mediaServer').locator('[data-testid="setup-state"]').textContent(),
    ).toContain('Configured');
    await byTestId('setup-test-mediaServer').click();
    await byTestId('setup-mediaServer')
      .locator('[data-testid="setup-last-test"]')
      .filter({ hasText: /Passed|Warning/ })
      .waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot('overview-admin-en', async () => {
      await byTestId('setup-bot').waitFor();
    });

    await page.goto(url('/admin/sessions'));
    await byTestId('sessions-summary').waitFor();
    const mine = page.locator('[data-testid="session"]').filter({ hasText: 'Arrival' });
    expect(await mine.count()).toBe(0);

    const login = await emby('/Users/AuthenticateByName', {
      Username: MEMBER,
      Pw: MEMBER_PASSWORD,
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { AccessToken: string }).AccessToken;
    const arrival = media.seeded!.movies.arrival;
    const started = await emby(
      '/Sessions/Playing',
      { ItemId: arrival.id, PositionTicks: 30 * 600_000_000, PlayMethod: 'Transcode' },
      token,
    );
    expect(started.status).toBe(204);

    // The page's own refresh (every 10 s) brings it in.
    await mine.waitFor({ timeout: 25_000 });
    expect(await mine.locator('[data-testid="session-method"]').textContent()).toContain(
      'Transcode',
    );
    expect(await mine.locator('[data-testid="session-user"] a').getAttribute('href')).toBe(
      `/admin/users/${memberId}`,
    );
    expect(await mine.textContent()).toContain('Firefox');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="session"] img')].some(
        (img) => (img as HTMLImageElement).naturalWidth > 0,
      ),
    );
    expect(await accessibilityProblems(page)).toEqual([]);
    for (const lang of LANGUAGES) {
      await page.evaluate((value) => localStorage.setItem('usher.lang', value), lang);
      await page.reload();
      await shoot(`sessions-${lang}`, async () => {
        await mine.waitFor();
      });
    }
    await page.evaluate(() => localStorage.setItem('usher.lang', 'en'));
    await page.reload();
    await mine.waitFor();

    // The app signs out: the session ends on the server and leaves the page.
    const out = await emby('/Sessions/Logout', {}, token);
    expect(out.status).toBe(204);
    await mine.waitFor({ state: 'detached', timeout: 25_000 });
    await signOut();
  });
});
