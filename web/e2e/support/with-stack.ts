/**
 * The start-up an e2e file shares: the API on the seeded fake Emby (and the fake TMDB when asked
 * for), one Chromium page with its problems watched, and after each test no problem left but
 * the expected ones. Call it first in the `describe`: its `beforeAll` runs before the file's own,
 * so the file's set-up already has the stack.
 */
import type { FakeMediaServer } from '@usher/testkit';
import type { Locator, Page } from 'playwright-core';
import {
  type ApiStack,
  type StackWithFakes,
  itemsWithoutArt,
  startStackWithFakes,
} from './api-stack.js';
import {
  type Browser,
  type PageProblems,
  expectOnlyPosterMisses,
  launchBrowser,
  openPage,
  signIn,
  signOut,
} from './browser.js';

export interface WithStackOptions {
  tmdb?: boolean;
  /** More API environment, asked for once the fakes are up (e.g. a fake SMTP server's port). */
  env?: () => Promise<Record<string, string>> | Record<string, string>;
  /**
   * What may be left after a test: nothing at all, or the poster 404s of the seeded items
   * without artwork (the default, for pages that show posters).
   */
  allow?: 'nothing' | 'poster-misses';
}

export interface StackSession {
  readonly fakes: StackWithFakes;
  readonly stack: ApiStack;
  readonly media: FakeMediaServer;
  readonly browser: Browser;
  readonly page: Page;
  readonly problems: PageProblems;
  /** `path` on the stack, e.g. `url('/admin/users')`. */
  url(path: string): string;
  byTestId(id: string): Locator;
  /** Signs in through the login form in `lang` and waits for `landing` (the overview). */
  signIn(username: string, password: string, lang?: string, landing?: string): Promise<void>;
  signOut(): Promise<void>;
}

export function withStack(options: WithStackOptions = {}): StackSession {
  let started: { fakes: StackWithFakes; browser: Browser; page: Page; problems: PageProblems };
  const now = () => {
    if (!started) throw new Error('withStack: used before its beforeAll ran');
    return started;
  };
  beforeAll(async () => {
    const env = options.env ? await options.env() : {};
    const fakes = await startStackWithFakes({ tmdb: options.tmdb ?? false, env });
    try {
      const browser = await launchBrowser();
      started = { fakes, browser, ...(await openPage(browser)) };
    } catch (error) {
      await fakes.stop();
      throw error;
    }
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.fakes.stop();
  });
  afterEach(() => {
    const { problems, fakes } = now();
    if (options.allow === 'nothing') expect(problems.takeAll()).toEqual([]);
    else expectOnlyPosterMisses(problems, itemsWithoutArt(fakes.media));
  });
  return {
    get fakes() {
      return now().fakes;
    },
    get stack() {
      return now().fakes.stack;
    },
    get media() {
      return now().fakes.media;
    },
    get browser() {
      return now().browser;
    },
    get page() {
      return now().page;
    },
    get problems() {
      return now().problems;
    },
    url: (path) => `${now().fakes.stack.baseUrl}${path}`,
    byTestId: (id) => now().page.locator(`[data-testid="${id}"]`),
    signIn: (username, password, lang = 'en', landing) =>
      signIn(
        now().page,
        now().fakes.stack.baseUrl,
        { username, password },
        { lang, ...(landing ? { landing } : {}) },
      ),
    signOut: () => signOut(now().page, now().fakes.stack.baseUrl),
  };
}
