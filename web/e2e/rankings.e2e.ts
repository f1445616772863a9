/**
 * Issue 19 "must show", the rankings half: a seeded playback history is ranked by the API (the
 * admin generates yesterday's daily ranking), and a member opens Rankings from the navigation and
 * sees the podium — the three most-watched movies with their signed posters, in order — with the
 * rest of the list, the series, the watch-time bars and the history; the admin previews the
 * running day. Screenshots at 390 and 1280 px in both languages go to e2e/artifacts/rankings/.
 */
import type { FakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { apiCall, createMember, mediaUserId, readyAdmin } from './support/admin-session.js';
import {
  type ApiStack,
  type StackWithFakes,
  recordPlay,
  startStackWithFakes,
} from './support/api-stack.js';
import {
  type Browser,
  DESKTOP,
  LANGUAGES,
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

const ADMIN_PASSWORD = 'e2e-rankings-admin-1';
const MEMBER = 'juniper';
const MEMBER_PASSWORD = 'e2e-rankings-member-1';
const DAY = 86_400_000;

describeWithChromium('rankings (Chromium)', () => {
  let fakes: StackWithFakes;
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let yesterday = '';

  beforeAll(async () => {
    fakes = await startStackWithFakes();
    ({ media, stack } = fakes);
    const adminToken = await readyAdmin(stack, ADMIN_PASSWORD);
    const memberId = await createMember(stack, adminToken, MEMBER, MEMBER_PASSWORD);
    const memberMediaId = await mediaUserId(stack, adminToken, memberId);
    // Yesterday (UTC, the default SCHEDULE_TIMEZONE): Dune three times, Oppenheimer, Arrival,
    // Mad Max, and two episodes of Severance. Only these plays are in the plugin's table.
    const seeded = media.seeded!;
    const [first, second] = seeded.series.severance.episodes.filter(
      (e) => e.locationType === 'FileSystem',
    );
    yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const plays: [typeof first, number][] = [
      [seeded.movies.dune, 3600],
      [seeded.movies.dune, 3600],
      [seeded.movies.dune, 3600],
      [seeded.movies.oppenheimer, 7200],
      [seeded.movies.arrival, 5400],
      [seeded.movies.madMax, 3000],
      [first!, 3000],
      [second!, 2400],
    ];
    media.state.playback.clear();
    plays.forEach(([item, seconds], i) => {
      recordPlay(media, {
        mediaUserId: memberMediaId,
        item: item!,
        at: new Date(`${yesterday}T${String(8 + i).padStart(2, '0')}:00:00Z`),
        seconds,
      });
    });
    const generated = await apiCall(
      stack,
      'POST',
      '/admin/rankings/generate',
      { period: 'daily', date: yesterday, push: false },
      adminToken,
    );
    if (generated.status !== 201) throw new Error(`ranking: ${JSON.stringify(generated)}`);
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await fakes?.stop();
  });

  afterEach(() => {
    const failed = problems.failedResponses.splice(0);
    if (failed.length) process.stdout.write(`failed requests: ${failed.join(', ')}\n`);
    expect(problems.takeAll()).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const signIn = (username: string, password: string, lang: string) =>
    signInAs(page, stack.baseUrl, { username, password }, { lang });
  const signOut = () => signOutOf(page, stack.baseUrl);
  /** Screenshots at both widths, the whole page; the page must not scroll sideways. */
  const shoot = (name: string) =>
    shootBothWidths(page, `rankings/${name}`, {
      ready: () => byTestId('movie-podium').waitFor(),
      wholePage: true,
    });

  for (const lang of LANGUAGES) {
    it(`shows a member the seeded podium (${lang})`, async () => {
      await signIn(MEMBER, MEMBER_PASSWORD, lang);
      await page.locator('a[href="/console/rankings"]').first().click();
      await page.waitForURL(url('/console/rankings'));
      const podium = byTestId('movie-podium').locator('[data-testid="podium-entry"]');
      await podium.first().waitFor();
      expect(await podium.count()).toBe(3);
      const titles = await podium.locator('.title').allTextContents();
      // Each title starts with its rank for screen readers ("Rank 1:", "第 1 名：").
      expect(titles.map((t) => t.replace(/^\s*(Rank \d+:|第 \d+ 名：)\s*/, '').trim())).toEqual([
        'Dune: Part Two',
        'Oppenheimer',
        'Arrival',
      ]);
      expect(await podium.first().textContent()).toContain(lang === 'en' ? '3 plays' : '3 次');
      // The winner's poster, signed for the member, actually loads.
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>(
          '[data-testid="movie-podium"] [data-testid="podium-entry"] img',
        );
        return !!img && img.naturalWidth > 0;
      });
      const rest = byTestId('movie-list').locator('[data-testid="ranking-row"]');
      expect(await rest.count()).toBe(1);
      expect(await rest.first().textContent()).toContain('Mad Max: Fury Road');
      expect(await byTestId('series-podium').textContent()).toContain('Severance');
      await byTestId('movie-chart').locator('[data-testid="chart"] svg').waitFor();
      expect(await byTestId('history-entry').count()).toBe(1);
      expect(await accessibilityProblems(page)).toEqual([]);
      await shoot(`member-${lang}`);
      // The overview the sign-in lands on shows the seeded Casablanca, which has no poster (a
      // 404 the browser logs); nothing on the rankings page may fail.
      const casablanca = `/api/v1/media/posters/${media.seeded!.movies.casablanca.id}?`;
      expect(problems.failedResponses.filter((f) => !f.includes(casablanca))).toEqual([]);
      problems.expect(/status of 404/);
      // Weekly: nothing generated yet.
      await byTestId('period-weekly').click();
      await page.waitForURL(/period=weekly/);
      await byTestId('rankings-empty').waitFor();
      await signOut();
    });
  }

  it('lets the admin preview the running day without storing it', async () => {
    await signIn('admin', ADMIN_PASSWORD, 'en');
    await page.goto(url('/console/rankings'));
    await byTestId('movie-podium').waitFor();
    expect(await byTestId('ranking-push').textContent()).toContain('Not posted');
    await byTestId('ranking-preview').click();
    await byTestId('preview-banner').waitFor();
    // Nothing was played today: an empty preview, and the history still holds one day.
    await byTestId('movie-none').waitFor();
    expect(await byTestId('history-entry').count()).toBe(1);
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'rankings/admin-preview-1280');
    await signOut();
  });
});
