/**
 * Issue 19 "must show", the calendar half: after a calendar sync of the fake Emby library against
 * the fake TMDB (Severance's second season airs weekly, episode 6 today), a member opens the watch
 * calendar, follows Severance with its toggle, and finds it under Following; the admin starts
 * "Sync now" and sees it run to the end. Screenshots of the week at 390 and 1280 px, both
 * languages, go to e2e/artifacts/calendar/.
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
  accessibilityProblems,
  describeWithChromium,
  horizontalOverflow,
  launchBrowser,
  screenshot,
} from './support/browser.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const ADMIN_PASSWORD = 'e2e-calendar-admin-1';
const MEMBER = 'marigold';
const MEMBER_PASSWORD = 'e2e-calendar-member-1';
const MEDIA_KEY = 'e2eCalendarKey0123456789ABCDEFGH';

describeWithChromium('watch calendar (Chromium)', () => {
  let media: FakeMediaServer;
  let tmdb: FakeTmdb;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let admin = '';
  const failedResponses: string[] = [];

  /** Runs the calendar sync through the API and waits for its end (the start-up one may run). */
  async function syncNow(): Promise<void> {
    for (let attempt = 0; attempt < 60; attempt++) {
      const started = await apiCall<{ runId: string }>(
        stack,
        'POST',
        '/admin/calendar/sync',
        {},
        admin,
      );
      if (started.status === 409) {
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (started.status !== 202) throw new Error(`sync refused: ${JSON.stringify(started)}`);
      for (let i = 0; i < 300; i++) {
        const run = await apiCall<{ status: string }>(
          stack,
          'GET',
          `/admin/job-runs/${started.body.runId}`,
          undefined,
          admin,
        );
        if (run.body.status !== 'running') {
          if (run.body.status !== 'succeeded') throw new Error(`sync ended ${run.body.status}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('sync did not finish in 30 s');
    }
    throw new Error('sync never started');
  }

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
        TMDB_IMAGE_BASE: tmdb.imageBase,
      },
    });
    admin = await readyAdmin(stack, ADMIN_PASSWORD);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await apiCall(
      stack,
      'POST',
      '/admin/users',
      { username: MEMBER, password: MEMBER_PASSWORD, expiresAt, createMediaUser: true },
      admin,
    );
    if (created.status !== 201) throw new Error(`member not created: ${JSON.stringify(created)}`);
    await syncNow();
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
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const severance = () => byTestId('calendar-item').filter({ hasText: 'Severance' });

  /**
   * Signs in straight to the calendar (`?redirect=`): the overview's rail would ask the media
   * server for posters the seeded library has no art for, whose 404s are that page's business.
   */
  async function signIn(username: string, password: string, lang: string): Promise<void> {
    await page.goto(url('/login?redirect=%2Fconsole%2Fcalendar'));
    await page.evaluate((value) => {
      localStorage.clear();
      localStorage.setItem('usher.lang', value);
    }, lang);
    await page.reload();
    await byTestId('username').fill(username);
    await byTestId('password').fill(password);
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/calendar'));
  }

  async function signOut(): Promise<void> {
    await byTestId('user-menu').click();
    await byTestId('sign-out').click();
    await page.waitForURL(url('/login'));
  }

  /** Screenshots at both widths; the week never scrolls sideways. */
  async function shoot(name: string): Promise<void> {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await severance().first().waitFor();
      // On a desktop the drawer opens beside the page: wait for its entries.
      if (size.width >= 1280) await page.locator('a[href="/console/calendar"]').first().waitFor();
      await page.waitForLoadState('networkidle');
      // The shell's drawer animates from side to over mode after a resize: let it settle.
      for (let i = 0; i < 20 && (await horizontalOverflow(page)) > 0; i++) {
        await page.waitForTimeout(250);
      }
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `calendar/${name}-${size.width}`);
    }
  }

  it('lets a member follow a series on the calendar and find it in Following', async () => {
    await signIn(MEMBER, MEMBER_PASSWORD, 'en');
    // The navigation offers the page to members.
    expect(await page.locator('a[href="/console/calendar"]').count()).toBeGreaterThan(0);
    await severance().first().waitFor();
    const tile = severance().first();
    expect(await tile.textContent()).toContain('S02E06');
    expect(await tile.textContent()).toContain('Airing today');
    // Today's column is marked.
    expect(await page.locator('section.day.today').count()).toBe(1);

    // Following is empty until the member follows something.
    await byTestId('scope-following').click();
    await page.waitForURL(/scope=following/);
    await page.getByText('Follow shows from the Global view').waitFor();

    await byTestId('scope-global').click();
    await severance().first().waitFor();
    const toggle = severance().first().locator('[data-testid="follow-toggle"]');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="calendar-item"]')].some(
        (el) =>
          el.textContent?.includes('Severance') &&
          el.querySelector('[data-testid="follow-toggle"]')?.getAttribute('aria-pressed') ===
            'true',
      ),
    );

    await byTestId('scope-following').click();
    await page.waitForURL(/scope=following/);
    await severance().first().waitFor();
    expect(await severance().first().textContent()).toContain('S02E06');
    expect(
      await severance()
        .first()
        .locator('[data-testid="follow-toggle"]')
        .getAttribute('aria-pressed'),
    ).toBe('true');

    // Next week holds episode 7, still to come.
    await byTestId('week-next').click();
    await page.waitForURL(/week=/);
    await severance().filter({ hasText: 'S02E07' }).waitFor();
    expect(await severance().first().textContent()).toContain('Upcoming');
    await byTestId('week-today').click();
    await severance().filter({ hasText: 'S02E06' }).waitFor();

    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot('following-en');
    await signOut();
  });

  it('shows the week in Chinese on a phone and on a desktop', async () => {
    await signIn(MEMBER, MEMBER_PASSWORD, 'zh-CN');
    await severance().first().waitFor();
    expect(await severance().first().textContent()).toContain('今日播出');
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot('global-zh-CN');
    await signOut();
  });

  it('lets the admin sync now and see it finish', async () => {
    await signIn('admin', ADMIN_PASSWORD, 'en');
    await severance().first().waitFor();
    const button = byTestId('calendar-sync');
    await button.click();
    await page.getByText(/Calendar synced: \d+ episodes refreshed/).waitFor({ timeout: 60_000 });
    expect(await button.isDisabled()).toBe(false);
    await severance().first().waitFor();
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'calendar/admin-en-1280');
    await signOut();
  });
});
