/**
 * Issue 19 "must show", the calendar half: after a calendar sync of the fake Emby library against
 * the fake TMDB (Severance's second season airs weekly, episode 6 today), a member opens the watch
 * calendar, follows Severance with its toggle, and finds it under Following; the admin starts
 * "Sync now" and sees it run to the end. Screenshots of the week at 390 and 1280 px, both
 * languages, go to e2e/artifacts/calendar/.
 */
import type { Page } from 'playwright-core';
import { apiCall, createMember, readyAdmin } from './support/admin-session.js';
import { type ApiStack, type StackWithFakes, startStackWithFakes } from './support/api-stack.js';
import {
  type Browser,
  DESKTOP,
  type PageProblems,
  accessibilityProblems,
  describeWithChromium,
  launchBrowser,
  openPage,
  screenshot,
  shootBothWidths,
  signIn as signInAs,
  signOut as signOutOf,
} from './support/browser.js';

const ADMIN_PASSWORD = 'e2e-calendar-admin-1';
const MEMBER = 'marigold';
const MEMBER_PASSWORD = 'e2e-calendar-member-1';

describeWithChromium('watch calendar (Chromium)', () => {
  let fakes: StackWithFakes;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let admin = '';

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
    fakes = await startStackWithFakes({ tmdb: true });
    ({ stack } = fakes);
    admin = await readyAdmin(stack, ADMIN_PASSWORD);
    await createMember(stack, admin, MEMBER, MEMBER_PASSWORD);
    await syncNow();
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await fakes?.stop();
  });

  afterEach(() => {
    expect(problems.takeAll()).toEqual([]);
  });

  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const severance = () => byTestId('calendar-item').filter({ hasText: 'Severance' });

  /**
   * Signs in straight to the calendar (`?redirect=`): the overview's rail would ask the media
   * server for posters the seeded library has no art for, whose 404s are that page's business.
   */
  const signIn = (username: string, password: string, lang: string) =>
    signInAs(page, stack.baseUrl, { username, password }, { lang, landing: '/console/calendar' });
  const signOut = () => signOutOf(page, stack.baseUrl);

  /** Screenshots at both widths; the week never scrolls sideways. */
  const shoot = (name: string) =>
    shootBothWidths(page, `calendar/${name}`, {
      ready: async (size) => {
        await severance().first().waitFor();
        // On a desktop the drawer opens beside the page: wait for its entries.
        if (size.width >= 1280) await page.locator('a[href="/console/calendar"]').first().waitFor();
      },
    });

  it('lets a member follow a series on the calendar and find it in Following', async () => {
    await signIn(MEMBER, MEMBER_PASSWORD, 'en');
    // The navigation offers the page to members (the list renders once the page is idle).
    await page.locator('a[href="/console/calendar"]').first().waitFor();
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
