/**
 * Issue 36 "must show": the admin dashboard's figures equal the API's. A member watches on the
 * fake Emby (plays in Playback Reporting, one stream live now, transcoding) and has paid; the
 * admin opens `/admin/overview` and every figure — streams, transcodes, plays in 30 days, revenue
 * this month, active and new members, the most watched title — is the one the API answers
 * (`/admin/sessions`, `/admin/playback/summary`, `/admin/dashboard`). Then the charts above the
 * playback history and the portrait's heatmap; axe in both themes; screenshots at 390 and 1280 px
 * in both languages and both schemes go to e2e/artifacts/dashboard/.
 */
import { randomUUID } from 'node:crypto';
import type { AdminDashboard, PlaybackSummary, SessionList } from '@usher/contracts';
import type { FakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { apiCall, createMember, mediaUserId, readyAdmin } from './support/admin-session.js';
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
  shootBothWidths,
  signIn as signInAs,
  signOut as signOutOf,
  waitForDarkBackground,
} from './support/browser.js';

const ADMIN_PASSWORD = 'e2e-dashboard-admin-1';
const MEMBER = 'juniper';
const MEMBER_PASSWORD = 'e2e-dashboard-member-1';
const HOUR = 3_600_000;

describeWithChromium('admin dashboard (Chromium)', () => {
  let fakes: StackWithFakes;
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let adminToken = '';

  beforeAll(async () => {
    fakes = await startStackWithFakes();
    ({ media, stack } = fakes);
    adminToken = await readyAdmin(stack, ADMIN_PASSWORD);
    const memberId = await createMember(stack, adminToken, MEMBER, MEMBER_PASSWORD);
    const memberMediaId = await mediaUserId(stack, adminToken, memberId);
    const seeded = media.seeded!;
    const now = Date.now();
    // Evenings of the last days: films and episodes, some transcoded.
    const [first, second] = seeded.series.severance.episodes.filter(
      (e) => e.locationType === 'FileSystem',
    );
    [seeded.movies.dune, first!, seeded.movies.dune, second!, seeded.movies.arrival].forEach(
      (item, i) =>
        recordPlay(media, {
          mediaUserId: memberMediaId,
          item,
          at: new Date(now - (i * 30 + 2) * HOUR),
          seconds: 2400 + i * 300,
          method: i % 2 ? 'Transcode (v:h264 a:aac)' : 'DirectPlay',
        }),
    );
    // A stream live now, as the member's Emby app reports it.
    const client = `Client="Emby Web", Device="Firefox", DeviceId="${randomUUID()}", Version="4.9.1"`;
    const emby = (path: string, body: unknown, token?: string) =>
      fetch(`${media.url}/emby${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-emby-authorization': `Emby UserId="", ${client}${token ? `, Token="${token}"` : ''}`,
        },
        body: JSON.stringify(body),
      });
    const login = await emby('/Users/AuthenticateByName', {
      Username: MEMBER,
      Pw: MEMBER_PASSWORD,
    });
    const token = ((await login.json()) as { AccessToken: string }).AccessToken;
    const started = await emby(
      '/Sessions/Playing',
      {
        ItemId: seeded.movies.arrival.id,
        PositionTicks: 20 * 600_000_000,
        PlayMethod: 'Transcode',
      },
      token,
    );
    if (started.status !== 204) throw new Error(`no live session: ${started.status}`);
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
  const text = async (id: string) => ((await byTestId(id).textContent()) ?? '').trim();
  const signIn = (lang: string) =>
    signInAs(page, stack.baseUrl, { username: 'admin', password: ADMIN_PASSWORD }, { lang });
  const signOut = () => signOutOf(page, stack.baseUrl);
  const api = async <T>(path: string): Promise<T> => {
    const reply = await apiCall<T>(stack, 'GET', path, undefined, adminToken);
    expect(reply.status).toBe(200);
    return reply.body;
  };
  /** The dashboard with every part in: the chart drawn, the top titles' posters loaded. */
  const dashboardReady = async () => {
    await byTestId('kpi-streams-value').waitFor();
    await byTestId('kpi-members-value').waitFor();
    await byTestId('plays-chart').locator('[data-testid="chart"] svg').waitFor();
    await byTestId('top-title-0').waitFor();
  };

  it('shows the figures the API answers', async () => {
    await signIn('en');
    await page.goto(url('/admin/overview'));
    await dashboardReady();
    const [sessions, summary, dashboard] = await Promise.all([
      api<SessionList>('/admin/sessions'),
      api<PlaybackSummary>('/admin/playback/summary'),
      api<AdminDashboard>('/admin/dashboard'),
    ]);
    const playing = sessions.data.filter((s) => s.nowPlaying !== null);
    expect(playing.length).toBeGreaterThan(0);
    const count = (n: number) => new Intl.NumberFormat('en').format(n);
    expect(await text('kpi-streams-value')).toBe(count(playing.length));
    const transcoding = playing.filter((s) => s.playState?.transcoding).length;
    expect(transcoding).toBeGreaterThan(0);
    expect(await text('kpi-transcodes')).toBe(`${transcoding} transcoding`);
    expect(summary.totals.playCount).toBeGreaterThanOrEqual(5);
    expect(await text('kpi-plays-value')).toBe(count(summary.totals.playCount));
    expect(await text('kpi-members-value')).toBe(count(dashboard.members.active));
    expect(await text('members-joined')).toBe(count(dashboard.members.joined30d));
    expect(await text('members-expiring')).toBe(count(dashboard.members.expiring30d));
    expect(await text('members-lapsed')).toBe(count(dashboard.members.lapsed30d));
    // The member created above joined today and ends in 30 days.
    expect(dashboard.members.joined30d).toBeGreaterThanOrEqual(1);
    const revenue = dashboard.revenue.currencies[0];
    if (revenue) {
      const money = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: revenue.currency.toUpperCase(),
      }).format(revenue.thisMonth / 100);
      expect(await text('kpi-revenue-value')).toBe(money);
    }
    // The most watched title first, as the API ranks them, linked to its plays.
    const top = summary.topTitles[0]!;
    expect(await byTestId('top-title-0').textContent()).toContain(top.name);
    expect(await byTestId('top-title-0').getAttribute('href')).toContain(
      '/admin/playback?keyword=',
    );
    // The live stream: the member's film.
    expect(await byTestId('now-playing').textContent()).toContain('Arrival');
    // One bar a day for 30 days, its values the API's.
    const label = await byTestId('plays-chart')
      .locator('[data-testid="chart"]')
      .getAttribute('aria-label');
    const total = [...(label ?? '').matchAll(/: (\d+) plays?/g)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    expect(total).toBe(summary.totals.playCount);
    expect(await accessibilityProblems(page)).toEqual([]);
    await signOut();
  });

  for (const lang of LANGUAGES) {
    it(`photographs the dashboard, the playback charts and stays accessible in dark (${lang})`, async () => {
      await signIn(lang);
      await page.goto(url('/admin/overview'));
      await dashboardReady();
      await shootBothWidths(page, `dashboard/overview-${lang}`, {
        ready: dashboardReady,
        wholePage: true,
      });
      await page.goto(url('/admin/playback'));
      await byTestId('chart-per-day').locator('[data-testid="chart"] svg').waitFor();
      await byTestId('history-row').first().waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await shootBothWidths(page, `dashboard/playback-${lang}`, {
        ready: async () => {
          await byTestId('chart-methods').locator('[data-testid="chart"] svg').waitFor();
        },
        wholePage: true,
      });

      await page.evaluate(() => localStorage.setItem('usher.theme', 'dark'));
      await page.goto(url('/admin/overview'));
      await waitForDarkBackground(page);
      await dashboardReady();
      expect(await accessibilityProblems(page)).toEqual([]);
      await shootBothWidths(page, `dashboard/overview-dark-${lang}`, {
        ready: dashboardReady,
        wholePage: true,
      });
      await page.goto(url('/admin/playback'));
      await byTestId('chart-per-day').locator('[data-testid="chart"] svg').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.evaluate(() => localStorage.setItem('usher.theme', 'light'));
      await signOut();
    });
  }
});
