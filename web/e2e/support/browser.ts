import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { describeWhen } from '@usher/testkit';

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

  constructor(page: Page) {
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
  const deadline = Date.now() + 5000;
  while ((await backgroundLuminance(page)) >= 0.1) {
    if (Date.now() > deadline) throw new Error('the page did not turn dark within 5 s');
    await page.waitForTimeout(50);
  }
}
