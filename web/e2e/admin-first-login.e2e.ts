/**
 * Journey 1 (60-web.md §7.2), first cut: the bootstrap admin signs in with the temporary password
 * from the API log, is held on the forced password change, sets a new password and lands on the
 * overview. Along the way: a wrong password shows the translated error, the language switch is
 * remembered, the dark theme applies, and phone- and desktop-width screenshots are saved.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { type ApiStack, startApiStack } from './support/api-stack.js';
import {
  type Browser,
  PageProblems,
  accessibilityProblems,
  backgroundLuminance,
  describeWithChromium,
  horizontalOverflow,
  settledOverflow,
  launchBrowser,
  screenshot,
  waitForDarkBackground,
} from './support/browser.js';

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 800 };
const NEW_PASSWORD = 'e2e-new-password-1';
const LOGIN_JS_BUDGET = 250 * 1024;

describeWithChromium('admin first login (Chromium)', () => {
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    stack = await startApiStack();
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    problems = new PageProblems(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  afterEach(() => {
    // Every step must leave the console clean: no errors, no CSP violations. Each problem is
    // reported once, by the step that caused it.
    const left = problems.list();
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const heading = () => page.locator('main h1').first();

  async function expectAccessible(): Promise<void> {
    expect(await accessibilityProblems(page)).toEqual([]);
  }

  async function chooseLanguage(lang: 'en' | 'zh-CN'): Promise<void> {
    await byTestId('language-menu').first().click();
    await byTestId(`language-${lang}`).click();
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  }

  it('serves the login route within the JavaScript budget on a first visit', async () => {
    const scripts: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) {
        scripts.push(response.body().then((body) => gzipSync(body, { level: 6 }).length));
      }
    });
    await page.setViewportSize(PHONE);
    await page.goto(url('/login'));
    await page.waitForLoadState('networkidle');
    page.removeAllListeners('response');
    const sizes = await Promise.all(scripts);
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(
      `e2e: /login loaded ${sizes.length} JS files, ${(total / 1024).toFixed(1)} KB gzipped`,
    );
    expect(total).toBeLessThan(LOGIN_JS_BUDGET);
  });

  it('shows the home page with the first-start hint', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(url('/'));
    await expect(heading().textContent()).resolves.toContain('Welcome to Usher');
    await byTestId('setup-hint').waitFor();
    expect(await page.title()).toBe('Welcome · Usher');
    await screenshot(page, 'home-1280-light');
    await expectAccessible();
    await page.setViewportSize(PHONE);
    expect(await settledOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'home-360-light');
  });

  it('shows the translated error for a wrong password', async () => {
    await page.goto(url('/login'));
    await byTestId('username').fill('admin');
    await byTestId('password').fill('not-the-password');
    await byTestId('sign-in').click();
    await expect(byTestId('sign-in-error').textContent()).resolves.toContain(
      'Wrong username or password.',
    );
    expect(page.url()).toBe(url('/login'));
    await screenshot(page, 'login-360-error');
    expect(problems.expect(/status of 401/)).toBe(1);
  });

  it('switches to Simplified Chinese and remembers it', async () => {
    await chooseLanguage('zh-CN');
    await expect(heading().textContent()).resolves.toContain('登录 Usher');
    await page.reload();
    await expect(heading().textContent()).resolves.toContain('登录 Usher');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await byTestId('username').fill('admin');
    await byTestId('password').fill('still-not-it');
    await byTestId('sign-in').click();
    await expect(byTestId('sign-in-error').textContent()).resolves.toContain('用户名或密码错误。');
    expect(problems.expect(/status of 401/)).toBe(1);
    await screenshot(page, 'login-360-zh-CN');
    await chooseLanguage('en');
    await expect(heading().textContent()).resolves.toContain('Sign in to Usher');
  });

  it('looks right at phone and desktop width', async () => {
    await page.goto(url('/login'));
    await heading().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'login-360-light');
    await expectAccessible();
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'login-1280-light');
    await page.setViewportSize(PHONE);
  });

  it('holds the admin on the forced password change after signing in', async () => {
    await byTestId('username').fill('admin');
    await byTestId('password').fill(stack.temporaryPassword);
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/account?section=password'));
    await byTestId('forced-change').waitFor();
    await expect(byTestId('current-password').inputValue()).resolves.toBe(stack.temporaryPassword);
    await expect(byTestId('profile-card').count()).resolves.toBe(0);
    await screenshot(page, 'account-forced-360');
    await expectAccessible();

    // Any other page bounces back; after a reload the password must be typed again.
    await page.goto(url('/console/overview'));
    await page.waitForURL(url('/console/account?section=password'));
    await byTestId('forced-change').waitFor();
    await expect(byTestId('current-password').inputValue()).resolves.toBe('');
  });

  it('sets the new password and lands on the overview with real profile data', async () => {
    await byTestId('current-password').fill(stack.temporaryPassword);
    await byTestId('new-password').fill(NEW_PASSWORD);
    await byTestId('confirm-password').fill(NEW_PASSWORD);
    await byTestId('change-password').click();
    await page.waitForURL(url('/console/overview'));
    await expect(heading().textContent()).resolves.toContain('Hello, admin');
    await expect(byTestId('membership-state').textContent()).resolves.toContain('No expiry');
    expect(await page.title()).toBe('Overview · Usher');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'overview-360-light');
    await byTestId('nav-toggle').click();
    await page.locator('mat-sidenav.mat-drawer-opened').waitFor();
    await byTestId('admin-nav').waitFor();
    // The item labels fade in after the drawer reports itself open.
    await page.waitForTimeout(500);
    await screenshot(page, 'overview-360-nav');
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);
    await byTestId('admin-nav').waitFor();
    await screenshot(page, 'overview-1280-light');
    await expectAccessible();
  });

  it('navigates in the console with focus on the new page heading', async () => {
    await page.locator('#app-nav a[href="/console/account"]').click();
    await page.waitForURL(url('/console/account'));
    await byTestId('profile-card').waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await expect(byTestId('profile-username').textContent()).resolves.toContain('admin');
    expect(await page.title()).toBe('Account · Usher');
    await screenshot(page, 'account-1280-light');
    await expectAccessible();
    await page.locator('#app-nav a[href="/console/overview"]').click();
    await page.waitForURL(url('/console/overview'));
  });

  it('accepts only the new password from now on', async () => {
    const login = (password: string) =>
      fetch(url('/api/v1/auth/login'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      }).then((r) => r.status);
    expect(await login(stack.temporaryPassword)).toBe(401);
    expect(await login(NEW_PASSWORD)).toBe(200);
  });

  it('switches to the dark theme and keeps it after a reload', async () => {
    await byTestId('theme-menu').click();
    await byTestId('theme-dark').click();
    await page.waitForFunction(() => document.documentElement.dataset['theme'] === 'dark');
    await waitForDarkBackground(page);
    await page.reload();
    await heading().waitFor();
    expect(await backgroundLuminance(page)).toBeLessThan(0.1);
    await screenshot(page, 'overview-1280-dark');
    await expectAccessible();
    await page.setViewportSize(PHONE);
    await screenshot(page, 'overview-360-dark');
  });

  it('shows the overview in Chinese, then signs out', async () => {
    await chooseLanguage('zh-CN');
    await expect(heading().textContent()).resolves.toContain('你好，admin');
    await screenshot(page, 'overview-360-zh-CN');
    await chooseLanguage('en');
    await byTestId('user-menu').click();
    await byTestId('sign-out').click();
    await page.waitForURL(url('/login'));
    expect(await backgroundLuminance(page)).toBeLessThan(0.1);
    await screenshot(page, 'login-360-dark');
  });
});
