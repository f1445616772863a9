/**
 * Journey 6 (60-web.md §7.2, issue 5 "must show"): the admin types the media-server URL and API
 * key of the testkit's fake Emby, tests the draft (✓), saves (Database badge, key masked), then
 * tries a wrong key (✗ with the server target's reason).
 */
import { type FakeMediaServer, startFakeMediaServer } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { readyAdmin } from './support/admin-session.js';
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

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 800 };
const ADMIN_PASSWORD = 'e2e-settings-admin-1';
const MEDIA_KEY = 'e2eMediaKey0123456789abcdefABCD';
const WRONG_KEY = 'wrongMediaKey0123456789abcdefXY';

describeWithChromium('admin settings: media server (Chromium)', () => {
  let stack: ApiStack;
  let media: FakeMediaServer;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    media = await startFakeMediaServer({ flavour: 'emby', apiKey: MEDIA_KEY, seed: true });
    stack = await startApiStack();
    await readyAdmin(stack, ADMIN_PASSWORD);
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    problems = new PageProblems(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await media?.close();
  });

  afterEach(() => {
    const left = problems.list();
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const field = (key: string) => byTestId(`setting-${key}`);
  const input = (key: string) => byTestId(`setting-${key}-input`);
  /** Waits until the item's source badge reads `text` (saving and loading are asynchronous). */
  const sourceBadge = (key: string, text: string) =>
    field(key).locator('[data-testid="source-badge"]', { hasText: text }).waitFor();

  it('opens the media-server group from the navigation', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(url('/login'));
    await byTestId('username').fill('admin');
    await byTestId('password').fill(ADMIN_PASSWORD);
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/overview'));
    await page.locator('#app-nav a[href="/admin/settings"]').click();
    await page.waitForURL(url('/admin/settings'));
    await byTestId('panel-general').waitFor();
    expect(await page.title()).toBe('Settings · Usher');
    await byTestId('group-media_server').click();
    await page.waitForURL(url('/admin/settings?group=media_server'));
    await byTestId('panel-media_server').waitFor();
    await sourceBadge('MEDIA_SERVER_URL', 'Not set');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('tests the unsaved URL and key against the fake Emby and sees success', async () => {
    await input('MEDIA_SERVER_URL').fill(media.url);
    await input('MEDIA_SERVER_API_KEY').fill(MEDIA_KEY);
    await byTestId('test').click();
    const server = page.locator('[data-testid="check-server"].ok');
    await server.waitFor();
    await expect(server.textContent()).resolves.toContain('OK');
    await byTestId('test-results').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-1280-test-ok');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('saves: both keys come from the database and the key is only shown masked', async () => {
    await byTestId('save').click();
    await sourceBadge('MEDIA_SERVER_URL', 'Database');
    await sourceBadge('MEDIA_SERVER_API_KEY', 'Database');
    await expect(input('MEDIA_SERVER_API_KEY').inputValue()).resolves.toBe('');
    await expect(field('MEDIA_SERVER_API_KEY').textContent()).resolves.toContain(
      `Saved (••••${MEDIA_KEY.slice(-4)})`,
    );
    expect(await page.content()).not.toContain(MEDIA_KEY);
    // After a reload the values come from the API, not from the page's memory.
    await page.reload();
    await expect(input('MEDIA_SERVER_URL').inputValue()).resolves.toBe(media.url);
    await sourceBadge('MEDIA_SERVER_URL', 'Database');
  });

  it('shows the failure reason for a wrong key, and leaves the saved key alone', async () => {
    await input('MEDIA_SERVER_API_KEY').fill(WRONG_KEY);
    await byTestId('test').click();
    const server = page.locator('[data-testid="check-server"].fail');
    await server.waitFor();
    await expect(server.textContent()).resolves.toContain('Failed');
    const message = (await server.locator('.message').textContent())?.trim() ?? '';
    expect(message).toMatch(/refused the API key/);
    // The reason, translated, then the English details.
    await expect(server.locator('.reason').textContent()).resolves.toBe('Credentials refused');
    console.log(`e2e: wrong media-server key → "${message}"`);
    await expect(byTestId('test-results').textContent()).resolves.toContain('Some checks failed');
    await byTestId('test-results').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-1280-test-fail');
    // Only the draft was tested: the stored key still works.
    await byTestId('discard').click();
    await byTestId('test').click();
    await page.locator('[data-testid="check-server"].ok').waitFor();
  });

  it('fits a phone: the group list becomes a select', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(url('/admin/settings?group=media_server'));
    await byTestId('panel-media_server').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'settings-360-light');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('reads in Simplified Chinese', async () => {
    await page.setViewportSize(DESKTOP);
    await byTestId('language-menu').first().click();
    await byTestId('language-zh-CN').click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await expect(page.locator('main h1').first().textContent()).resolves.toContain('设置');
    await expect(byTestId('group-media_server').textContent()).resolves.toContain('媒体服务器');
    await expect(field('MEDIA_SERVER_URL').textContent()).resolves.toContain('服务器地址');
    await field('MEDIA_SERVER_URL')
      .locator('[data-testid="source-badge"]', { hasText: '数据库' })
      .waitFor();
    await screenshot(page, 'settings-1280-zh-CN');
    await byTestId('language-menu').first().click();
    await byTestId('language-en').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });
});
