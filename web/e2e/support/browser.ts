import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { describeWhen } from '@usher/testkit';
import { pollUntil } from './poll.js';

/** Debian's Chromium; never a Playwright-downloaded browser. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/**
 * `describe` for a browser journey. Without Chromium it is skipped locally and fails on CI
 * (`CI=true`) naming the browser, like the deploy suites' missing tools: a journey that quietly
 * skips there would turn a broken provisioning step into a green run.
 */
export function describeWithChromium(title: string, body: () => void): void {
  describeWhen(hasChromium, title, `Chromium at ${CHROMIUM} (apt-get install -y chromium)`, body);
}

/** Headless, unsandboxed (containers), and quiet: no background calls to Google services. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ARTIFACTS = join(import.meta.dirname, '../artifacts');

export interface Browser {
  context: BrowserContext;
  close: () => Promise<void>;
}

/** One persistent context on a fresh `--user-data-dir`, deleted on close. */
export async function launchBrowser(options: { hasTouch?: boolean } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'usher-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    locale: 'en-US',
    reducedMotion: 'reduce',
    // Taps (`locator.tap()`) need a touch screen; mouse clicks still work beside it.
    hasTouch: options.hasTouch ?? false,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Console errors, page errors and CSP violations of a page. Expected ones (the 401 of a wrong
 * password, which Chromium logs as a failed resource) are taken out by the test with `expect`.
 */
export class PageProblems {
  private readonly seen: string[] = [];
  /**
   * Responses of 400 and up (`404 http://…`), in order: the console says "404" without the
   * address. A test empties it when it has read it.
   */
  readonly failedResponses: string[] = [];

  constructor(page: Page) {
    page.on('response', (response) => {
      if (response.status() >= 400) {
        this.failedResponses.push(`${response.status()} ${response.url()}`);
      }
    });
    page.on('console', (message) => {
      if (message.type() === 'error') this.seen.push(message.text());
    });
    page.on('pageerror', (error) => this.seen.push(`page error: ${error.message}`));
    void page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
  }

  /** Removes problems matching `pattern`, returning how many there were. */
  expect(pattern: RegExp): number {
    const before = this.seen.length;
    const kept = this.seen.filter((text) => !pattern.test(text));
    this.seen.splice(0, this.seen.length, ...kept);
    return before - kept.length;
  }

  list(): string[] {
    return [...this.seen];
  }

  /**
   * Every problem left, each with the failed response of the same position (the console line
   * names no address), and forgets them and the failed responses: `expect(…).toEqual([])`.
   */
  takeAll(): string[] {
    const failed = this.failedResponses.splice(0);
    return this.seen.splice(0).map((problem, i) => `${problem} ${failed[i] ?? ''}`.trim());
  }
}

/**
 * Expects no problem but the poster 404s of items without artwork (`itemsWithoutArt`), one
 * console line each, and the failed responses `also` names (`'503 /api/v1/metadata/discover'`:
 * status and path, for a stack that leaves an integration out on purpose); forgets them all.
 */
export function expectOnlyPosterMisses(
  problems: PageProblems,
  itemIds: string[],
  also: string[] = [],
): void {
  const posters = itemIds.map((id) => `/api/v1/media/posters/${id}?`);
  const failed = problems.failedResponses.splice(0);
  const allowed = (line: string) =>
    (line.startsWith('404 ') && posters.some((path) => line.includes(path))) ||
    also.some((entry) => {
      const [status, path] = entry.split(' ');
      return line.startsWith(`${status} `) && line.includes(path!);
    });
  const unexpected = failed.filter((line) => !allowed(line));
  expect(unexpected).toEqual([]);
  expect(problems.expect(/status of \d{3}/)).toBe(failed.length - unexpected.length);
  expect(problems.takeAll()).toEqual([]);
}

/** The browser's page, with a 15 s default timeout and its problems watched. */
export async function openPage(browser: Browser): Promise<{ page: Page; problems: PageProblems }> {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(15_000);
  return { page, problems: new PageProblems(page) };
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
export const LANGUAGES = ['en', 'zh-CN'] as const;

/** Opens `path` (the login page by default) signed out and in `lang`, whatever came before. */
export async function useLanguage(
  page: Page,
  baseUrl: string,
  lang: string,
  path = '/login',
): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.evaluate((value) => {
    localStorage.clear();
    localStorage.setItem('usher.lang', value);
  }, lang);
  await page.reload();
}

/**
 * Signs in through the login form in `lang` and waits for `landing` (the overview by default;
 * another page through `?redirect=`).
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  credentials: { username: string; password: string },
  options: { lang?: string; landing?: string } = {},
): Promise<void> {
  const landing = options.landing ?? '/console/overview';
  const login =
    landing === '/console/overview' ? '/login' : `/login?redirect=${encodeURIComponent(landing)}`;
  await useLanguage(page, baseUrl, options.lang ?? 'en', login);
  await page.locator('[data-testid="username"]').fill(credentials.username);
  await page.locator('[data-testid="password"]').fill(credentials.password);
  await page.locator('[data-testid="sign-in"]').click();
  await page.waitForURL(`${baseUrl}${landing}`);
}

export async function signOut(page: Page, baseUrl: string): Promise<void> {
  await page.locator('[data-testid="user-menu"]').click();
  await page.locator('[data-testid="sign-out"]').click();
  await page.waitForURL(`${baseUrl}/login`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(ARTIFACTS, `${name}.png`);
  // A name may hold a folder (`pages/login-en-390`).
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Widest sideways overflow of the page and of the console's scrolling content, in px. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const boxes = [
      document.documentElement,
      document.body,
      ...document.querySelectorAll('.mat-drawer-content'),
    ];
    return Math.max(...boxes.map((el) => el.scrollWidth - el.clientWidth));
  });
}

/**
 * The sideways overflow once the layout has settled: after a resize the side nav changes mode
 * (an animation) and charts redraw to the new width, so it waits up to 5 s for none.
 */
export async function settledOverflow(page: Page): Promise<number> {
  return pollUntil(
    () => horizontalOverflow(page),
    (overflow) => overflow === 0,
    { within: 5000, every: 100 },
  );
}

/**
 * Screenshots `name-390` and `name-1280` (a phone and a desktop), expecting no sideways scrolling
 * on either. `ready` waits for what the page must show after each resize; `wholePage` grows the
 * window to the console's content first, since the console scrolls inside its drawer.
 */
export async function shootBothWidths(
  page: Page,
  name: string,
  options: { ready?: (size: typeof PHONE) => Promise<void>; wholePage?: boolean } = {},
): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await options.ready?.(size);
    await page.waitForLoadState('networkidle');
    expect(await settledOverflow(page)).toBe(0);
    if (options.wholePage) {
      const height = await page.evaluate(() => {
        const content = document.querySelector('.mat-drawer-content');
        return content ? content.scrollHeight + content.getBoundingClientRect().top : 0;
      });
      await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
      // Charts redraw to the new size (ngx-echarts resizes on a throttled observer).
      await page.waitForTimeout(400);
    }
    await screenshot(page, `${name}-${size.width}`);
    await page.setViewportSize(size);
  }
}

/** A page to screenshot: its address and what it shows once it has its data. */
export interface Visit {
  name: string;
  path: string;
  ready: string;
  /** A step taken on the page before the picture (opening a row), and what shows after it. */
  then?: { act: () => Promise<void>; shows: string };
}

/**
 * Opens every visit on a phone, then on a desktop, screenshots each as
 * `folder/name-lang-width` and returns what is wrong with them: sideways scrolling, and what
 * `check` finds (after `settle`, which waits for what must be gone before the picture).
 */
export async function visitBothWidths(
  page: Page,
  baseUrl: string,
  options: {
    folder: string;
    lang: string;
    visits: Visit[];
    settle?: () => Promise<void>;
    check?: (name: string) => Promise<string[]>;
  },
): Promise<string[]> {
  const failures: string[] = [];
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    for (const visit of options.visits) {
      await page.goto(`${baseUrl}${visit.path}`);
      await page.locator(visit.ready).first().waitFor();
      if (visit.then) {
        await visit.then.act();
        await page.locator(visit.then.shows).first().waitFor();
      }
      await page.waitForLoadState('networkidle');
      await options.settle?.();
      const name = `${visit.name}-${options.lang}-${size.width}`;
      await screenshot(page, `${options.folder}/${name}`);
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) failures.push(`${name}: ${overflow}px sideways`);
      failures.push(...((await options.check?.(name)) ?? []));
    }
  }
  return failures;
}

/** Serious and critical axe findings (WCAG 2.x A/AA) on the current page. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Relative luminance of the body background (0 black … 1 white), computed in the page. */
function luminance(): number {
  const [r, g, b] = (getComputedStyle(document.body).backgroundColor.match(/[\d.]+/g) ?? [])
    .slice(0, 3)
    .map((v) => Number(v) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

export function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(luminance);
}

/**
 * Waits until the page background is dark (the switch repaints asynchronously). Polls with a
 * function, not a string: a string would be `eval`ed in the page, which the CSP rightly blocks.
 */
export async function waitForDarkBackground(page: Page): Promise<void> {
  const luminance = await pollUntil(
    () => backgroundLuminance(page),
    (l) => l < 0.1,
    { within: 5000, every: 50 },
  );
  if (luminance >= 0.1) throw new Error('the page did not turn dark within 5 s');
}
