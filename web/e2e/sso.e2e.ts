/**
 * Single sign-on (issue 31) in a real browser against a real OpenID Provider (the testkit's
 * `oidc-provider`): a new member and an admin (by group) sign in with SSO, a password member
 * links a provider sign-in from the account page, and everyone signs out. Screenshots of the
 * sign-in page and the account page at 390 and 1280 px, in English and Simplified Chinese.
 */
import { randomBytes } from 'node:crypto';
import {
  type FakeMediaServer,
  type FakeOidcProvider,
  startFakeMediaServer,
  startFakeOidcProvider,
} from '@usher/testkit';
import type { Page } from 'playwright-core';
import { apiCall, createMember, readyAdmin } from './support/admin-session.js';
import { type ApiStack, startApiStack } from './support/api-stack.js';
import {
  type Browser,
  LANGUAGES,
  PageProblems,
  accessibilityProblems,
  describeWithChromium,
  launchBrowser,
  shootBothWidths,
  signIn,
  signOut,
  useLanguage,
} from './support/browser.js';

const MEDIA_KEY = randomBytes(16).toString('hex');
const CLIENT_SECRET = randomBytes(24).toString('hex');

describeWithChromium('single sign-on (Chromium, oidc-provider)', () => {
  let media: FakeMediaServer;
  let idp: FakeOidcProvider;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let adminToken: string;

  beforeAll(async () => {
    media = await startFakeMediaServer({ flavour: 'emby', apiKey: MEDIA_KEY, seed: true });
    idp = await startFakeOidcProvider({ issuerPath: '/application/o/usher/' });
    stack = await startApiStack({
      env: {
        MEDIA_SERVER_KIND: 'emby',
        MEDIA_SERVER_URL: media.url,
        MEDIA_SERVER_API_KEY: MEDIA_KEY,
        REGISTRATION_MODE: 'open',
        DEFAULT_TRIAL_DAYS: '7',
      },
    });
    // The redirect URI follows the API's address, known only now: register it at the provider.
    await idp.setClients([
      {
        clientId: 'usher',
        clientSecret: CLIENT_SECRET,
        redirectUris: [`${stack.baseUrl}/api/v1/auth/oidc/callback`],
      },
    ]);
    adminToken = await readyAdmin(stack, 'e2e-admin-password-1');
    const put = async (group: string, values: Record<string, unknown>) => {
      const res = await apiCall(stack, 'PUT', `/admin/settings/${group}`, { values }, adminToken);
      if (res.status !== 200) throw new Error(`settings ${group}: ${JSON.stringify(res.body)}`);
    };
    await put('general', { PUBLIC_WEB_URL: stack.baseUrl });
    await put('sso', {
      OIDC_ENABLED: true,
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: 'usher',
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_SCOPES: 'openid profile email groups',
      OIDC_BUTTON_LABEL: 'Sign in with Authentik',
      OIDC_ADMIN_GROUPS: ['usher-admins'],
    });
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    problems = new PageProblems(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await idp?.stop();
    await media?.close();
  });

  afterEach(() => {
    // A member's overview asks for posters of seeded items that have no artwork (404s); any
    // other failed response or console error is a problem.
    const failed = problems.failedResponses.splice(0);
    const unexpected = failed.filter((line) => !/ \S+\/api\/v1\/media\/posters\//.test(line));
    expect(unexpected).toEqual([]);
    expect(problems.expect(/status of 404/)).toBe(failed.length - unexpected.length);
    expect(problems.takeAll()).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

  /** Fills the provider's own login form (a fresh provider session each time). */
  async function atProvider(username: string): Promise<void> {
    await page.waitForURL((u) => u.href.startsWith(idp.origin));
    const user = idp.users.find((u) => u.username === username)!;
    await page.locator('#username').fill(username);
    await page.locator('#password').fill(user.password);
    await page.locator('button[type="submit"]', { hasText: 'Sign in' }).click();
  }

  it('shows "Sign in with …" on the sign-in page (both languages, phone and desktop)', async () => {
    for (const lang of LANGUAGES) {
      await useLanguage(page, stack.baseUrl, lang);
      await byTestId('sso-sign-in').waitFor();
      await expect(byTestId('sso-sign-in').textContent()).resolves.toContain(
        'Sign in with Authentik',
      );
      await shootBothWidths(page, `sso/login-${lang}`);
      expect(await accessibilityProblems(page)).toEqual([]);
    }
  });

  it('signs a new member in with SSO, creating the account, and signs out', async () => {
    await useLanguage(page, stack.baseUrl, 'en');
    await page.context().clearCookies();
    await byTestId('sso-sign-in').click();
    await atProvider('alice');
    await page.waitForURL(url('/console/overview'));
    await expect(byTestId('membership-state').textContent()).resolves.toContain('Active');
    await signOut(page, stack.baseUrl);
  });

  it('signs an admin in with SSO by group claim', async () => {
    await useLanguage(page, stack.baseUrl, 'en');
    await page.context().clearCookies();
    await byTestId('sso-sign-in').click();
    await atProvider('ada');
    await page.waitForURL(url('/console/overview'));
    await page.goto(url('/admin/users'));
    await page.waitForURL(url('/admin/users'));
    await page.locator('text=alice').first().waitFor();
    await signOut(page, stack.baseUrl);
  });

  it('links a provider sign-in from the account page, then signs in with it', async () => {
    await createMember(stack, adminToken, 'martha', 'martha-password-1');
    await signIn(page, stack.baseUrl, { username: 'martha', password: 'martha-password-1' });
    await page.goto(url('/console/account?section=sso'));
    await byTestId('sso-card').waitFor();
    await page.context().clearCookies();
    await byTestId('sso-link').click();
    await atProvider('uma');
    await page.waitForURL(url('/console/account?section=sso'));
    await byTestId('sso-identity').waitFor();
    await expect(byTestId('sso-identity').textContent()).resolves.toContain('127.0.0.1');
    for (const lang of LANGUAGES) {
      await page.evaluate((value) => localStorage.setItem('usher.lang', value), lang);
      await page.reload();
      await byTestId('sso-identity').waitFor();
      await shootBothWidths(page, `sso/account-${lang}`, { wholePage: true });
    }
    await page.evaluate(() => localStorage.setItem('usher.lang', 'en'));
    await signOut(page, stack.baseUrl);

    // The provider sign-in now opens martha's account.
    await page.context().clearCookies();
    await byTestId('sso-sign-in').click();
    await atProvider('uma');
    await page.waitForURL(url('/console/overview'));
    const me = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('usher.session') ?? '{}') as {
        token?: string;
      };
      const res = await fetch('/api/v1/me', {
        headers: { authorization: `Bearer ${session.token ?? ''}` },
      });
      return (await res.json()) as { username: string };
    });
    expect(me.username).toBe('martha');
    await signOut(page, stack.baseUrl);
  });
});
