/**
 * Issue 20 "must show" in Chromium: the admin blacklists a client app at /admin/devices and sees
 * its devices disappear from the list (the fake Emby signed them out, and only them); the admin
 * scans a library at /admin/media-quality, watches the scan run, opens the report and drills
 * into a low-quality title. Then both pages, in both languages, on a phone and a desktop, for a
 * reviewer in e2e/artifacts/devices-quality/.
 */
import type { FakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { createMember, readyAdmin } from './support/admin-session.js';
import { type ApiStack, type StackWithFakes, startStackWithFakes } from './support/api-stack.js';
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
  signIn,
  visitBothWidths,
} from './support/browser.js';

const ADMIN_PASSWORD = 'e2e-devices-admin-1';
const MEMBER = 'wren';
const MEMBER_PASSWORD = 'e2e-devices-member-1';

describeWithChromium('devices and media quality (Chromium)', () => {
  let fakes: StackWithFakes;
  let media: FakeMediaServer;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let moviesId = '';
  let adminToken = '';

  beforeAll(async () => {
    fakes = await startStackWithFakes();
    ({ media, stack } = fakes);
    adminToken = await readyAdmin(stack, ADMIN_PASSWORD);
    browser = await launchBrowser();
    ({ page, problems } = await openPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await fakes?.stop();
  });

  afterEach(() => {
    problems.failedResponses.splice(0);
    expect(problems.takeAll()).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const deviceRows = () => page.locator('[data-testid="devices-table"] tbody tr');
  const clientsShown = () =>
    deviceRows().evaluateAll((rows) => rows.map((row) => row.getAttribute('data-client')));

  /** The fake's own device list: what the media server still has signed in. */
  async function fakeClients(): Promise<string[]> {
    const response = await fetch(`${media.url}/emby/Devices?api_key=${fakes.mediaKey}`);
    const body = (await response.json()) as { Items: { AppName: string }[] };
    return body.Items.map((d) => d.AppName).sort();
  }

  it('signs in as the admin', async () => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, stack.baseUrl, { username: 'admin', password: ADMIN_PASSWORD });
  });

  it('blacklists a client and sees exactly its devices disappear', async () => {
    await page.locator('#app-nav a[href="/admin/devices"]').click();
    await page.waitForURL(url('/admin/devices'));
    expect(await page.title()).toBe('Devices · Usher');
    await deviceRows().first().waitFor();
    const before = await clientsShown();
    expect(before.filter((c) => c === 'Infuse')).toHaveLength(2);
    const others = before.filter((c) => c !== 'Infuse').sort();
    expect(others.length).toBeGreaterThan(0);
    await expect(byTestId('stat-total').textContent()).resolves.toContain(String(before.length));

    await page.getByRole('tab', { name: 'Blacklist' }).click();
    await page.waitForURL(url('/admin/devices?tab=blacklist'));
    await byTestId('blacklist-add').click();
    // Matching ignores case and spacing.
    await byTestId('blacklist-client').fill('  infuse ');
    await byTestId('blacklist-reason').fill('Shared accounts');
    await expect(byTestId('blacklist-logout-now').locator('input').isChecked()).resolves.toBe(true);
    await byTestId('blacklist-save').click();
    await expect(byTestId('blacklist-outcome').textContent()).resolves.toContain(
      '2 devices logged out, 0 failed.',
    );
    await page.locator('[data-testid="blacklist-table"] tr[data-client="infuse"]').waitFor();
    await screenshot(page, 'devices-quality/devices-blacklist-after-add');

    // The same name again is refused on the field.
    await byTestId('blacklist-add').click();
    await byTestId('blacklist-client').fill('INFUSE');
    await byTestId('blacklist-save').click();
    await expect(byTestId('blacklist-client-error').textContent()).resolves.toContain(
      'That client is already on the blacklist.',
    );
    // Chromium logs the refused request; that one is expected.
    expect(problems.expect(/409 \(Conflict\)/)).toBe(1);
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Devices' }).click();
    await page.waitForURL(url('/admin/devices'));
    await page.waitForFunction(
      (count) =>
        document.querySelectorAll('[data-testid="devices-table"] tbody tr').length === count,
      others.length,
    );
    expect((await clientsShown()).sort()).toEqual(others);
    // The media server agrees: the Infuse devices, and only they, are signed out.
    expect(await fakeClients()).toEqual(others);

    await page.getByRole('tab', { name: 'Action log' }).click();
    const logouts = page.locator(
      '[data-testid="device-actions-table"] tr[data-action="enforce_blacklist"]',
    );
    await logouts.first().waitFor();
    await expect(logouts.count()).resolves.toBe(2);
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('scans a library, watching it run, and opens a low-quality title', async () => {
    // Slow item pages, so the running state is there to see.
    media.slow(2500, '/Items');
    await page.locator('#app-nav a[href="/admin/media-quality"]').click();
    await page.waitForURL(url('/admin/media-quality'));
    const movies = page.locator('[data-library]', { hasText: 'Movies' }).first();
    await movies.waitFor();
    moviesId = (await movies.getAttribute('data-library'))!;
    await expect(movies.textContent()).resolves.toContain('Never scanned');
    await movies.locator(`[data-testid="scan-${moviesId}"]`).click();
    await movies.locator('[data-testid="scan-progress"]').waitFor();
    await expect(movies.locator(`[data-testid="scan-${moviesId}"]`).isDisabled()).resolves.toBe(
      true,
    );
    // The All libraries card shows the scan too.
    await page.locator('[data-library="all"] [data-testid="scan-progress"]').waitFor();
    await screenshot(page, 'devices-quality/quality-scanning');
    await page
      .locator('.mdc-snackbar__label', { hasText: 'The scan of Movies finished.' })
      .waitFor({
        timeout: 60_000,
      });
    media.slow(0);
    await movies.locator('[data-testid="library-state"]', { hasText: 'Up to date' }).waitFor();
    await expect(movies.textContent()).resolves.toContain('8 videos');

    await movies.locator(`[data-testid="open-${moviesId}"]`).click();
    await page.waitForURL(url(`/admin/media-quality/${moviesId}`));
    await expect(byTestId('report-name').textContent()).resolves.toContain('Movies');
    await expect(page.locator('app-chart-card h2').allTextContents()).resolves.toEqual([
      'Resolution',
      'Video codec',
      'HDR',
    ]);
    await page.locator('[data-testid="chart"] svg').first().waitFor();
    const titles = page.locator('[data-testid="low-quality-table"] tbody tr');
    await expect(titles.allTextContents()).resolves.toEqual([
      expect.stringContaining('Casablanca'),
      expect.stringContaining('Summer Holiday 2019'),
      expect.stringContaining('Amélie'),
    ]);
    await titles.first().locator('a').click();
    await page.waitForURL(/group=/);
    await expect(byTestId('group-name').textContent()).resolves.toContain('Casablanca');
    const item = page.locator('[data-testid="group-items"] tbody tr').first();
    await expect(item.textContent()).resolves.toMatch(/720 × 480[^]*MPEG2[^]*SDR[^]*2\.0 Mbit\/s/);
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it("shows a member's devices on their detail page and logs one out", async () => {
    const memberId = await createMember(stack, adminToken, MEMBER, MEMBER_PASSWORD);
    // The member signs in to the media server from an app: the server now lists that device.
    const signIn = await fetch(`${media.url}/emby/Users/AuthenticateByName`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-emby-authorization':
          'MediaBrowser Client="Swiftfin", Device="Wren iPad", DeviceId="wren-ipad", Version="1.9"',
      },
      body: JSON.stringify({ Username: MEMBER, Pw: MEMBER_PASSWORD }),
    });
    expect(signIn.status).toBe(200);

    await page.goto(url(`/admin/users/${memberId}?tab=devices`));
    const row = page.locator('[data-testid="user-devices-table"] tbody tr[data-client="Swiftfin"]');
    await expect(row.textContent()).resolves.toContain('Wren iPad');
    await expect(page.locator('[data-testid="user-devices-table"] tbody tr').count()).resolves.toBe(
      1,
    );
    await row.locator('app-row-menu button').click();
    await byTestId('device-logout').click();
    await byTestId('confirm-ok').click();
    await page.locator('.mdc-snackbar__label', { hasText: 'Wren iPad was logged out.' }).waitFor();
    await byTestId('user-devices-empty').waitFor();
    expect(await fakeClients()).not.toContain('Swiftfin');
  });

  for (const lang of LANGUAGES) {
    it(`shows both pages in ${lang} on a phone and a desktop`, async () => {
      await page.evaluate((value) => localStorage.setItem('usher.lang', value), lang);
      const visits = [
        { name: 'devices', path: '/admin/devices', ready: '[data-testid="devices-table"]' },
        {
          name: 'devices-blacklist',
          path: '/admin/devices?tab=blacklist',
          ready: '[data-testid="blacklist-table"]',
        },
        {
          name: 'devices-actions',
          path: '/admin/devices?tab=actions',
          ready: '[data-testid="device-actions-table"]',
        },
        { name: 'quality', path: '/admin/media-quality', ready: '[data-library]' },
        {
          name: 'quality-report',
          path: `/admin/media-quality/${moviesId}`,
          ready: '[data-testid="chart"] svg',
        },
        { name: 'quality-all', path: '/admin/media-quality/all', ready: 'app-chart-card' },
        {
          name: 'quality-group',
          path: `/admin/media-quality/${moviesId}`,
          ready: '[data-testid="low-quality-table"] a',
          then: {
            act: () => page.locator('[data-testid="low-quality-table"] a').first().click(),
            shows: '[data-testid="group-items"]',
          },
        },
      ];
      const failures = await visitBothWidths(page, stack.baseUrl, {
        folder: 'devices-quality',
        lang,
        visits,
      });
      expect(failures).toEqual([]);
    });
  }

  it('reads well in the dark theme', async () => {
    await page.evaluate(() => localStorage.setItem('usher.lang', 'en'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize(DESKTOP);
    await page.goto(url('/admin/media-quality'));
    await page.locator('[data-library]').first().waitFor();
    await screenshot(page, 'devices-quality/quality-dark-1280');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.goto(url('/admin/devices'));
    await page.locator('[data-testid="devices-table"]').waitFor();
    await screenshot(page, 'devices-quality/devices-dark-1280');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
