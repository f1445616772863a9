/**
 * The e-mail code paths of issue 6 in a real browser, against the testkit's SMTP catcher:
 * registration with e-mail verification (send code → resend countdown → code from the mail),
 * and forgot → reset password → sign in with the new password.
 */
import { randomBytes } from 'node:crypto';
import {
  type FakeMediaServer,
  type FakeSmtp,
  startFakeMediaServer,
  startFakeSmtp,
} from '@usher/testkit';
import type { Page } from 'playwright-core';
import { type ApiStack, startApiStack } from './support/api-stack.js';
import {
  type Browser,
  PageProblems,
  accessibilityProblems,
  describeWithChromium,
  launchBrowser,
  screenshot,
} from './support/browser.js';

const MEDIA_KEY = randomBytes(16).toString('hex');
const SMTP_PASSWORD = `smtp-${randomBytes(8).toString('hex')}`;
const PHONE = { width: 360, height: 780 };

/** The 6-digit code of the last mail to `address`. */
async function codeFrom(smtp: FakeSmtp, address: string, after: number): Promise<string> {
  const mail = await smtp.waitForMessage(
    (m) => m.envelope.to.includes(address) && m.receivedAt.getTime() >= after,
    15_000,
  );
  const code = /\b(\d{6})\b/.exec(mail.text ?? mail.html ?? '')?.[1];
  if (!code) throw new Error(`no 6-digit code in the mail to ${address}`);
  return code;
}

describeWithChromium('e-mail codes (Chromium, SMTP catcher)', () => {
  let media: FakeMediaServer;
  let smtp: FakeSmtp;
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    media = await startFakeMediaServer({ flavour: 'emby', apiKey: MEDIA_KEY, seed: true });
    smtp = await startFakeSmtp({ security: 'none', auth: { user: 'usher', pass: SMTP_PASSWORD } });
    stack = await startApiStack({
      env: {
        MEDIA_SERVER_KIND: 'emby',
        MEDIA_SERVER_URL: media.url,
        MEDIA_SERVER_API_KEY: MEDIA_KEY,
        REGISTRATION_MODE: 'open',
        DEFAULT_TRIAL_DAYS: '7',
        EMAIL_VERIFICATION: 'true',
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
        SMTP_SECURITY: 'none',
        SMTP_USERNAME: 'usher',
        SMTP_PASSWORD,
        SMTP_FROM: 'Usher <no-reply@usher.test>',
      },
    });
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    problems = new PageProblems(page);
    await page.setViewportSize(PHONE);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await smtp?.close();
    await media?.close();
  });

  afterEach(() => {
    const left = problems.list();
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

  async function expectAccessible(): Promise<void> {
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(await accessibilityProblems(page)).toEqual([]);
  }

  it('registers with a code e-mailed to the address, with a resend countdown', async () => {
    await page.goto(url('/register'));
    await byTestId('register-email').fill('hana@example.com');
    const sentAfter = Date.now();
    await byTestId('register-send-code').click();
    await page
      .locator('[data-testid="register-send-code"]', { hasText: /Send again in \d+ s/ })
      .waitFor();
    expect(await byTestId('register-send-code').isDisabled()).toBe(true);
    const code = await codeFrom(smtp, 'hana@example.com', sentAfter);
    await screenshot(page, 'register-360-email-code');
    await expectAccessible();
    await byTestId('register-email-code').fill(code);
    await byTestId('register-username').fill('hana');
    await byTestId('register-password').fill('hana-password-1');
    await byTestId('register-confirm').fill('hana-password-1');
    await byTestId('register-submit').click();
    // Sign-up lands on the setup flow (issue 36); its last step leads to the overview.
    await page.waitForURL(url('/console/overview/welcome'));
    await byTestId('welcome-done').click();
    await page.waitForURL(url('/console/overview'));
    await expect(byTestId('membership-state').textContent()).resolves.toContain('Active');
    await page.evaluate(() => localStorage.removeItem('usher.session'));
  });

  it('resets a forgotten password with the e-mailed code', async () => {
    await page.goto(url('/login'));
    await page.locator('a[href="/forgot-password"]').click();
    await page.waitForURL(url('/forgot-password'));
    await byTestId('forgot-email').fill('hana@example.com');
    const sentAfter = Date.now();
    await byTestId('forgot-submit').click();
    await byTestId('forgot-sent').waitFor();
    await expectAccessible();
    await byTestId('forgot-continue').click();
    await page.waitForURL(/\/reset-password\?email=/);
    await expect(byTestId('reset-email').inputValue()).resolves.toBe('hana@example.com');
    const code = await codeFrom(smtp, 'hana@example.com', sentAfter);
    await byTestId('reset-code').fill(code);
    await byTestId('reset-password').fill('hana-password-2');
    await byTestId('reset-confirm').fill('hana-password-2');
    await screenshot(page, 'reset-password-360');
    await expectAccessible();
    await byTestId('reset-submit').click();
    await page.waitForURL(url('/login'));
    await byTestId('username').fill('hana');
    await byTestId('password').fill('hana-password-2');
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/overview'));
  });
});
