/**
 * Issue 18 "must show", the playback half: a member sees their viewing portrait — totals, the
 * weekday × hour heatmap, the charts drawn by the lazily loaded ECharts (SVG), the table alternative,
 * genres and recent plays with signed posters — and the admin sees the playback history with
 * rows, the profiles with their summary, and the same portrait on the user's Playback tab.
 * Screenshots at 390 and 1280 px in both languages go to e2e/artifacts/portrait/.
 */
import type { FakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { createMember, mediaUserId, readyAdmin } from './support/admin-session.js';
import {
  type ApiStack,
  type StackWithFakes,
  itemsWithoutArt,
  recordPlay,
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
  screenshot,
  shootBothWidths,
  signIn as signInAs,
  signOut as signOutOf,
} from './support/browser.js';

const ADMIN_PASSWORD = 'e2e-portrait-admin-1';
const MEMBER = 'linden';
const MEMBER_PASSWORD = 'e2e-portrait-member-1';
const HOUR = 3_600_000;

describeWithChromium('viewing portrait and admin playback (Chromium)', () => {
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
    const adminToken = await readyAdmin(stack, ADMIN_PASSWORD);
    memberId = await createMember(stack, adminToken, MEMBER, MEMBER_PASSWORD);
    const memberMediaId = await mediaUserId(stack, adminToken, memberId);
    // What Playback Reporting records when the member watches: a few evenings of films and
    // episodes over the last days, in the server's local time.
    const seeded = media.seeded!;
    // Episodes on disk: the seed's virtual (missing) ones have no image.
    const [first, second] = seeded.series.severance.episodes.filter(
      (e) => e.locationType === 'FileSystem',
    );
    const items = [
      seeded.movies.dune,
      first!,
      seeded.movies.arrival,
      seeded.movies.oppenheimer,
      second!,
      seeded.movies.dune,
    ];
    const now = Date.now();
    items.forEach((item, i) => {
      recordPlay(media, {
        mediaUserId: memberMediaId,
        item,
        at: new Date(now - (i * 26 + 3) * HOUR),
        seconds: 1800 + i * 600,
        method: i % 3 === 0 ? 'Transcode (v:h264 a:aac)' : 'DirectPlay',
        client: i % 2 ? 'Infuse' : 'Emby Web',
        device: i % 2 ? 'Living Room Apple TV' : 'Firefox',
      });
    });
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await fakes?.stop();
  });

  afterEach(() => {
    // The seed has a film without a poster (Casablanca): the overview rail's URL for it answers
    // 404 (the browser logs that) and the placeholder shows; its plays get no poster URL at all.
    // Any other failed request is a failure.
    expectOnlyPosterMisses(problems, itemsWithoutArt(media));
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const signIn = (username: string, password: string, lang: string) =>
    signInAs(page, stack.baseUrl, { username, password }, { lang });
  const signOut = () => signOutOf(page, stack.baseUrl);
  /** Screenshots at both widths, the whole page; the page must not scroll sideways. */
  const shoot = (name: string, ready: () => Promise<void>) =>
    shootBothWidths(page, `portrait/${name}`, { ready, wholePage: true });

  /** The chart of a card, drawn as SVG by ECharts. */
  const chartSvg = (card: string) => byTestId(card).locator('[data-testid="chart"] svg');

  for (const lang of LANGUAGES) {
    it(`shows the member their portrait charts (${lang})`, async () => {
      await signIn(MEMBER, MEMBER_PASSWORD, lang);
      await page.locator(`a[href="/console/portrait"]`).first().click();
      await page.waitForURL(url('/console/portrait'));
      await byTestId('portrait-totals').waitFor();
      expect(await byTestId('total-plays').textContent()).toContain('6');
      for (const card of ['chart-methods', 'chart-clients']) {
        await chartSvg(card).waitFor();
      }
      // Bars are drawn: ECharts writes each as an SVG path.
      expect(await chartSvg('chart-clients').locator('path').count()).toBeGreaterThan(1);
      expect(
        await byTestId('chart-clients').locator('[data-testid="chart"]').getAttribute('aria-label'),
      ).toMatch(/\d/);
      // Issue 36: when they watch, as a weekday × hour heatmap — six plays shade some cells.
      const heat = byTestId('chart-heatmap');
      await heat.waitFor();
      expect(await heat.locator('tbody tr').count()).toBe(7);
      expect(await heat.locator('tbody td:not(.level-0)').count()).toBeGreaterThan(0);
      // …and a shaded cell is drawn in another colour than an empty one.
      const background = (cells: string) =>
        heat
          .locator(cells)
          .first()
          .evaluate((cell) => getComputedStyle(cell).backgroundColor);
      expect(await background('tbody td:not(.level-0)')).not.toBe(
        await background('tbody td.level-0'),
      );
      // Recent plays with the posters the API signed for the member.
      await byTestId('recent-play').first().waitFor();
      expect(await byTestId('recent-play').count()).toBe(6);
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid="recent-play"] img')].some(
          (img) => (img as HTMLImageElement).naturalWidth > 0,
        ),
      );
      expect(await accessibilityProblems(page)).toEqual([]);
      await shoot(`portrait-${lang}`, async () => {
        await chartSvg('chart-methods').waitFor();
      });

      if (lang === 'en') {
        // Theme-aware: the axis labels are redrawn in the dark scheme's colours.
        const labelFill = () =>
          chartSvg('chart-clients')
            .locator('text')
            .first()
            .evaluate((text) => getComputedStyle(text).fill);
        const light = await labelFill();
        await page.evaluate(() => localStorage.setItem('usher.theme', 'dark'));
        await page.reload();
        await chartSvg('chart-clients').waitFor();
        expect(await labelFill()).not.toBe(light);
        await page.waitForTimeout(400);
        await screenshot(page, 'portrait/portrait-dark-en-1280');
        await page.evaluate(() => localStorage.setItem('usher.theme', 'light'));
        await page.reload();
        await chartSvg('chart-clients').waitFor();
      }

      // The table alternative of a chart.
      const toggle = byTestId('chart-clients').locator('[data-testid="chart-toggle"]');
      await toggle.click();
      // Change detection runs after the click's task (zoneless), possibly behind the shell's
      // deferred menus loading on idle: wait for the pressed state as a user would see it.
      await byTestId('chart-clients')
        .locator('[data-testid="chart-toggle"][aria-pressed="true"]')
        .waitFor();
      const rows = byTestId('chart-clients').locator('[data-testid="chart-table"] tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      expect(await rows.first().textContent()).toMatch(/Emby Web|Infuse/);

      // A shorter range goes to the URL and reloads.
      await byTestId('range-7d').click();
      await page.waitForURL(/range=7d/);
      await byTestId('portrait-totals').waitFor();
      await signOut();
    });
  }

  it('shows the admin the playback history, the profiles and the Playback tab', async () => {
    for (const lang of LANGUAGES) {
      await signIn('admin', ADMIN_PASSWORD, lang);
      await page.goto(url('/admin/playback'));
      const rows = byTestId('history-row');
      await rows.first().waitFor();
      // The member's six plays and the seeded members' plays of the last 30 days.
      expect(await rows.count()).toBeGreaterThan(6);
      const mine = rows.filter({ hasText: MEMBER });
      expect(await mine.count()).toBeGreaterThan(0);
      expect(await mine.first().locator('a').getAttribute('href')).toBe(
        `/admin/users/${memberId}?tab=playback`,
      );
      expect(await accessibilityProblems(page)).toEqual([]);
      await shoot(`admin-history-${lang}`, async () => {
        await rows.first().waitFor();
      });

      // Filter by user: only the member's plays.
      await byTestId('history-username').fill(MEMBER);
      await byTestId('history-username').press('Enter');
      await page.waitForURL(/username=linden/);
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="history-row"]').length === 6,
      );

      await page.goto(url('/admin/playback?tab=profiles'));
      await byTestId('profiles-summary').waitFor();
      await byTestId('profile-row').first().waitFor();
      await byTestId('sort-plays').click();
      await page.waitForURL(/sort=plays/);
      await shoot(`admin-profiles-${lang}`, async () => {
        await byTestId('profile-row').first().waitFor();
      });

      await page.goto(url(`/admin/users/${memberId}?tab=playback`));
      await chartSvg('chart-clients').waitFor();
      expect(await byTestId('total-plays').textContent()).toContain('6');
      await shoot(`admin-user-playback-${lang}`, async () => {
        await chartSvg('chart-clients').waitFor();
      });
      await signOut();
    }
  });
});
