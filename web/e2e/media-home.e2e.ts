/**
 * Issue 18 "must show", the media home and live sessions half: a member sees the overview's
 * "recently added" rail, with posters through the API's signed URLs (a plain <img src>); the
 * admin sees a live session appear on /admin/sessions when a media app starts playing on the
 * fake Emby (the app's own `/Sessions/Playing` report), and disappear when it signs out — both
 * by the page's own 10 s refresh. Screenshots of both pages, both languages, 390 and 1280 px, go
 * to e2e/artifacts/media-home/.
 */
import { randomUUID } from 'node:crypto';
import { type FakeMediaServer, startFakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { apiCall, readyAdmin } from './support/admin-session.js';
import { type ApiStack, startApiStack } from './support/api-stack.js';
import {
  type Browser,
  PageProblems,
  accessibilityProblems,
  describeWithChromium,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const ADMIN_PASSWORD = 'e2e-media-home-admin-1';
const MEMBER = 'juniper';
const MEMBER_PASSWORD = 'e2e-media-home-member-1';
const MEDIA_KEY = 'e2eMediaHomeKey0123456789ABCDEF';
const LANGUAGES = ['en', 'zh-CN'] as const;

describeWithChromium('media home and live sessions (Chromium)', () => {
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let memberId = '';
  /** Failed responses of the current test: only poster refusals (404) are expected. */
  const failed: string[] = [];

  beforeAll(async () => {
    media = await startFakeMediaServer({ flavour: 'emby', apiKey: MEDIA_KEY, seed: true });
    stack = await startApiStack({
      env: {
        MEDIA_SERVER_KIND: 'emby',
        MEDIA_SERVER_URL: media.url,
        MEDIA_SERVER_API_KEY: MEDIA_KEY,
      },
    });
    const admin = await readyAdmin(stack, ADMIN_PASSWORD);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
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
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await media?.close();
  });

  afterEach(() => {
    // Items without artwork answer 404 like any refused poster (docs/media.md); Chromium logs
    // each as a failed resource. Nothing else may fail.
    const posters = failed.filter((f) => /^404 .*\/api\/v1\/media\/posters\//.test(f));
    expect(failed.filter((f) => !posters.includes(f))).toEqual([]);
    failed.length = 0;
    const refused = problems.expect(/Failed to load resource: .* 404/);
    expect(refused).toBe(posters.length);
    const left = problems.list();
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

  async function signIn(username: string, password: string, lang: string): Promise<void> {
    await page.goto(url('/login'));
    await page.evaluate((value) => {
      localStorage.clear();
      localStorage.setItem('usher.lang', value);
    }, lang);
    await page.reload();
    await byTestId('username').fill(username);
    await byTestId('password').fill(password);
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/overview'));
  }

  async function signOut(): Promise<void> {
    await byTestId('user-menu').click();
    await byTestId('sign-out').click();
    await page.waitForURL(url('/login'));
  }

  /** Screenshots at both widths; the page must not scroll sideways on the phone. */
  async function shoot(name: string, ready: () => Promise<void>): Promise<void> {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await ready();
      await page.waitForLoadState('networkidle');
      // The side nav changes mode with the width (an animation): let the layout settle first.
      const deadline = Date.now() + 3000;
      while ((await horizontalOverflow(page)) > 0 && Date.now() < deadline) {
        await page.waitForTimeout(100);
      }
      expect(await horizontalOverflow(page)).toBe(0);
      // The console scrolls inside its drawer content: grow the window to show all of it.
      const height = await page.evaluate(() => {
        const content = document.querySelector('.mat-drawer-content');
        return content ? content.scrollHeight + content.getBoundingClientRect().top : 0;
      });
      await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
      await screenshot(page, `media-home/${name}-${size.width}`);
      await page.setViewportSize(size);
    }
  }

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
