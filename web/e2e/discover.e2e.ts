/**
 * Issue 36 "must show", the member's half: the new-request page opens on TMDB's rails with every
 * card badged before any click, a card opens the title sheet and requests from it (and the badge
 * says "Requested" on the next visit); a series' sheet gives each season its status; the
 * overview leads with the membership hero, whose Renew goes to the renewal page, and shows
 * "continue watching" from the member's resume points, each poster a link to the item on the
 * media server. Screenshots of both pages (390 and 1280 px, English and Chinese, light and dark)
 * go to e2e/artifacts/discover/; axe finds nothing serious on either, in either theme.
 */
import { setMediaUserData, type FakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { createMember, mediaUserId, readyAdmin } from './support/admin-session.js';
import {
  type ApiStack,
  type StackWithFakes,
  itemsWithoutArt,
  startStackWithFakes,
} from './support/api-stack.js';
import {
  type Browser,
  DESKTOP,
  LANGUAGES,
  PHONE,
  type PageProblems,
  accessibilityProblems,
  describeWithChromium,
  expectOnlyPosterMisses,
  launchBrowser,
  openPage,
  screenshot,
  settledOverflow,
  signIn as signInAs,
  signOut as signOutOf,
  waitForDarkBackground,
} from './support/browser.js';

const ADMIN_PASSWORD = 'e2e-discover-admin-1';
const MEMBER = 'marlowe';
const MEMBER_PASSWORD = 'e2e-discover-member-1';
/** On the fake TMDB: Dune: Part Two (on the fake Emby), The Long Orbit (upcoming), Severance. */
const DUNE_TWO = 693134;
const LONG_ORBIT = 1311031;
const SEVERANCE = 95396;
const MINUTE_TICKS = 60 * 10_000_000;

describeWithChromium('discovery, the title sheet and the member overview (Chromium)', () => {
  let fakes: StackWithFakes;
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    fakes = await startStackWithFakes({ tmdb: true });
    ({ media, stack } = fakes);
    const admin = await readyAdmin(stack, ADMIN_PASSWORD);
    // Five days left: the overview's hero offers Renew.
    const memberId = await createMember(stack, admin, MEMBER, MEMBER_PASSWORD, 5);
    const mediaUser = await mediaUserId(stack, admin, memberId);
    const { dune } = media.seeded!.movies;
    const episode = media.seeded!.series.severance.episodes[1]!;
    setMediaUserData(media.state, mediaUser, dune.id, {
      positionTicks: 45 * MINUTE_TICKS,
      lastPlayedDate: new Date(Date.now() - 3_600_000),
    });
    setMediaUserData(media.state, mediaUser, episode.id, {
      positionTicks: 20 * MINUTE_TICKS,
      lastPlayedDate: new Date(Date.now() - 86_400_000),
    });
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await fakes?.stop();
  });

  afterEach(() => {
    expectOnlyPosterMisses(problems, itemsWithoutArt(media));
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const signIn = (lang = 'en', landing?: string) =>
    signInAs(
      page,
      stack.baseUrl,
      { username: MEMBER, password: MEMBER_PASSWORD },
      { lang, ...(landing ? { landing } : {}) },
    );
  const badgeOf = (id: string) => byTestId(id).locator('[data-testid="poster-badge"]');
  /**
   * Opens Severance's sheet from the trending rail and waits for its season picker. A failure
   * says what the sheet showed instead (its error line, or that it never opened), so a CI run
   * that misses the picker explains itself.
   */
  const openSeriesSheet = async () => {
    await byTestId(`discover-trending-tv-${SEVERANCE}`).click();
    const sheet = byTestId('request-sheet');
    const outcome = await page
      .locator('[data-testid="season-picker"], [data-testid="title-error"]')
      .first()
      .waitFor()
      .then(async () =>
        (await byTestId('season-picker').count())
          ? 'picker'
          : `title error: ${await byTestId('title-error').textContent()}`,
      )
      .catch(async (error: unknown) => {
        const text = (await sheet.count()) ? await sheet.innerText() : 'no sheet open';
        return `${String(error)}; sheet: ${text.slice(0, 400)}`;
      });
    expect(outcome).toBe('picker');
  };

  it('opens on rails with every card badged before any click, and requests from a rail', async () => {
    await page.setViewportSize(DESKTOP);
    await signIn('en', '/console/requests/new');
    await byTestId('discover-trending').waitFor();
    // What the server holds says so before anything is typed or pressed (issue 36's defect).
    await expect(badgeOf(`discover-popular_movies-movie-${DUNE_TWO}`).textContent()).resolves.toBe(
      'In library',
    );
    await expect(badgeOf(`discover-upcoming-movie-${LONG_ORBIT}`).count()).resolves.toBe(0);

    await byTestId(`discover-upcoming-movie-${LONG_ORBIT}`).click();
    const sheet = byTestId('request-sheet');
    await sheet.locator('h2', { hasText: 'The Long Orbit' }).waitFor();
    await expect(byTestId('title-meta').textContent()).resolves.toContain('2 h 8 min');
    // Beside the rails, not over them (the 900 px defect stays fixed with rails too).
    await page.setViewportSize({ width: 900, height: 800 });
    const sheetBox = (await sheet.boundingBox())!;
    const railsBox = (await byTestId('discover').boundingBox())!;
    expect(railsBox.x + railsBox.width).toBeLessThanOrEqual(sheetBox.x + 1);
    await page.setViewportSize(DESKTOP);

    await byTestId('submit-request').click();
    await page.waitForURL(url('/console/requests'));
    await page.locator('main', { hasText: 'The Long Orbit' }).waitFor();
    // The badge is not forgotten: the next visit shows it before any click.
    await page.goto(url('/console/requests/new'));
    await expect(badgeOf(`discover-upcoming-movie-${LONG_ORBIT}`).textContent()).resolves.toBe(
      'Requested',
    );
  });

  it("gives a series' sheet its cast and each season's status", async () => {
    await openSeriesSheet();
    await expect(byTestId('title-cast').textContent()).resolves.toContain('Adam Scott');
    // The fake Emby has three of season 1's nine episodes: partly there.
    await expect(byTestId('season-1').getAttribute('data-state')).resolves.toBe('missing');
    await expect(byTestId('season-1').textContent()).resolves.toContain('Partly available');
    await expect(byTestId('season-3').getAttribute('data-state')).resolves.toBe('none');
    await signOutOf(page, stack.baseUrl);
  });

  it('leads the overview with the hero, whose Renew opens the renewal page', async () => {
    await signIn();
    const hero = byTestId('hero-renew');
    await hero.waitFor();
    await byTestId('continue-watching').waitFor();
    const heroBox = (await hero.boundingBox())!;
    const continueBox = (await byTestId('continue-watching').boundingBox())!;
    expect(heroBox.y).toBeLessThan(continueBox.y);
    await hero.click();
    await page.waitForURL(url('/console/renewal?from=overview'));
  });

  it('shows continue watching, newest first, each poster opening its item on the media server', async () => {
    await page.goto(url('/console/overview'));
    const items = byTestId('continue-item');
    await items.first().waitFor();
    const { dune } = media.seeded!.movies;
    const episode = media.seeded!.series.severance.episodes[1]!;
    const hrefs = await items.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([
      `${media.url}/web/index.html#!/item?id=${dune.id}`,
      `${media.url}/web/index.html#!/item?id=${episode.id}`,
    ]);
    await expect(items.first().getAttribute('target')).resolves.toBe('_blank');
    await expect(items.first().locator('.subtitle').textContent()).resolves.toMatch(/ left$/);
    await expect(items.nth(1).locator('.subtitle').textContent()).resolves.toMatch(/^S1:E2 · /);
    await items.first().locator('[data-testid="poster-progress"]').waitFor();
    // The recently added posters open their items too.
    const latest = page.locator('[data-testid="rail-movie"] a.card-link').first();
    await expect(latest.getAttribute('href')).resolves.toContain('/web/index.html#!/item?id=');
    await signOutOf(page, stack.baseUrl);
  });

  for (const lang of LANGUAGES) {
    it(`photographs discovery, the sheet and the overview in ${lang}, light and dark, axe-clean`, async () => {
      await signIn(lang);
      const shots: [string, string, string, (() => Promise<void>)?][] = [
        ['overview', '/console/overview', '[data-testid="continue-item"]'],
        [
          'discover',
          '/console/requests/new',
          '[data-testid="discover-trending"] app-poster-card img',
        ],
        [
          'sheet',
          '/console/requests/new',
          '[data-testid="discover-trending"] app-poster-card img',
          openSeriesSheet,
        ],
      ];
      for (const theme of ['light', 'dark']) {
        await page.evaluate((value) => localStorage.setItem('usher.theme', value), theme);
        for (const size of [PHONE, DESKTOP]) {
          await page.setViewportSize(size);
          for (const [name, path, ready, act] of shots) {
            await page.goto(url(path));
            if (theme === 'dark') await waitForDarkBackground(page);
            await page.locator(ready).first().waitFor();
            await act?.();
            await page.waitForLoadState('networkidle');
            expect(await settledOverflow(page)).toBe(0);
            // The console scrolls inside its drawer: grow the window to the content first.
            const height = await page.evaluate(() => {
              const content = document.querySelector('.mat-drawer-content');
              return content ? content.scrollHeight + content.getBoundingClientRect().top : 0;
            });
            await page.setViewportSize({
              width: size.width,
              height: Math.max(size.height, height),
            });
            await screenshot(page, `discover/${name}-${lang}-${theme}-${size.width}`);
            await page.setViewportSize(size);
            if (size === DESKTOP) expect(await accessibilityProblems(page)).toEqual([]);
          }
        }
      }
      await page.evaluate(() => localStorage.setItem('usher.theme', 'light'));
      await signOutOf(page, stack.baseUrl);
    });
  }
});
