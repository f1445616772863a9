/**
 * Journey 7 of 60-web.md §7.2 (issue 17), on one stack: the real API on a throwaway PGlite
 * database with the testkit's Stripe fake behind STRIPE_API_BASE.
 *   - the admin creates a plan in /admin/plans (the banner goes once it is on sale)
 *   - a member buys it from the renewal page's Plans tab, pays on the fake's hosted Checkout
 *     page, which delivers the signed webhook and sends the browser back; the return panel
 *     shows the new expiry and the History tab the completed payment
 *   - the admin sees the payment on /admin/payments with the right total and its Stripe events
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeStripe, startFakeStripe } from '@usher/testkit';
import type { Page } from 'playwright-core';
import { apiCall, readyAdmin } from './support/api-client.js';
import { type ApiStack, startApiStack } from './support/api-stack.js';
import {
  ARTIFACTS,
  type Browser,
  PageProblems,
  accessibilityProblems,
  describeWithChromium,
  launchBrowser,
  screenshot,
} from './support/browser.js';

const DESKTOP = { width: 1280, height: 800 };
const ADMIN_PASSWORD = 'e2e-admin-password-1';
const MEMBER_PASSWORD = 'e2e-member-password-1';
const DAY_MS = 86_400_000;

/** A date as the web shows it in English (`Intl`, medium style). */
const shown = (date: Date) => new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(date);

describeWithChromium('payments (Chromium, Stripe fake)', () => {
  let stripe: FakeStripe;
  let stack: ApiStack;
  let adminToken: string;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  const memberEnd = new Date(Date.now() + 10 * DAY_MS);

  beforeAll(async () => {
    stripe = await startFakeStripe();
    stack = await startApiStack({
      env: {
        STRIPE_API_BASE: stripe.url,
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      },
    });
    stripe.setWebhookUrl(`${stack.baseUrl}/api/v1/webhooks/stripe`);
    adminToken = await readyAdmin(stack, ADMIN_PASSWORD);
    // The return pages are built from the public address, which is this stack's.
    await asAdmin('PUT', '/admin/settings/general', {
      values: { PUBLIC_WEB_URL: stack.baseUrl },
    });
    await asAdmin('POST', '/admin/users', {
      username: 'paula',
      password: MEMBER_PASSWORD,
      expiresAt: memberEnd.toISOString(),
      createMediaUser: false,
    });
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    problems = new PageProblems(page);
  });

  afterAll(async () => {
    await browser?.close();
    mkdirSync(ARTIFACTS, { recursive: true });
    if (stack) writeFileSync(join(ARTIFACTS, 'payments-api.log'), stack.log());
    await stack?.stop();
    await stripe?.close();
  });

  afterEach(() => {
    const left = problems.list();
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  async function asAdmin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const reply = await apiCall<T>(stack, method, path, body, adminToken);
    if (reply.status >= 300) {
      throw new Error(`${method} ${path} → ${reply.status}: ${JSON.stringify(reply.body)}`);
    }
    return reply.body;
  }
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

  async function expectAccessible(): Promise<void> {
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(await accessibilityProblems(page)).toEqual([]);
  }

  async function signIn(username: string, password: string): Promise<void> {
    await page.evaluate(() => localStorage.removeItem('usher.session')).catch(() => undefined);
    await page.goto(url('/login'));
    await byTestId('username').fill(username);
    await byTestId('password').fill(password);
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/overview'));
  }

  it('lets the admin put a plan on sale', async () => {
    await page.setViewportSize(DESKTOP);
    await signIn('admin', ADMIN_PASSWORD);
    await page.goto(url('/admin/plans'));
    await byTestId('plans-disabled-banner').waitFor();
    await byTestId('plans-create').click();
    await byTestId('plan-name').fill('Monthly');
    await byTestId('plan-days').fill('30');
    await byTestId('plan-price-input').fill('4.99');
    await byTestId('plan-save').click();
    await page.locator('tr[data-plan="Monthly"]').waitFor();
    await expect(page.locator('tr[data-plan="Monthly"]').textContent()).resolves.toContain('$4.99');
    await byTestId('plans-disabled-banner').waitFor({ state: 'detached' });
    await screenshot(page, 'admin-plans-1280');
    await expectAccessible();
  });

  it('lets a member buy the plan on Stripe Checkout and shows the new expiry and the payment', async () => {
    await signIn('paula', MEMBER_PASSWORD);
    await page.goto(url('/console/renewal?tab=plans'));
    await expect(byTestId('plan-price').first().textContent()).resolves.toContain('$4.99');
    await expectAccessible();
    await byTestId('plan-buy').click();

    // The fake's hosted Checkout page (its own origin, like checkout.stripe.com): pay by card.
    await page.waitForURL((u) => u.toString().startsWith(`${stripe.url}/c/pay/`));
    await expect(page.locator('body').textContent()).resolves.toContain('4.99 USD');
    await page.locator('button[value="pay"]').click();

    await page.waitForURL(
      (u) => u.pathname === '/console/renewal' && u.search.includes('checkout=success'),
    );
    const newEnd = new Date(memberEnd.getTime() + 30 * DAY_MS);
    await expect(byTestId('checkout-completed').textContent()).resolves.toContain(shown(newEnd));
    await expect(byTestId('renewal-expiry').textContent()).resolves.toContain(shown(newEnd));
    await screenshot(page, 'renewal-1280-paid');
    await expectAccessible();

    await page.goto(url('/console/renewal?tab=history'));
    const row = byTestId('payment-history').locator('tbody tr').first();
    await expect(row.textContent()).resolves.toContain('Monthly');
    await expect(row.textContent()).resolves.toContain('$4.99');
    await expect(row.textContent()).resolves.toContain('Completed');
    expect(stripe.deliveries.map((d) => [d.type, d.status])).toEqual([
      ['checkout.session.completed', 200],
    ]);
  });

  it('shows the admin the payment with the completed total and its Stripe event', async () => {
    await signIn('admin', ADMIN_PASSWORD);
    await page.goto(url('/admin/payments'));
    await expect(byTestId('payments-table').textContent()).resolves.toContain('paula');
    await expect(
      byTestId('payments-totals').locator('[data-currency="usd"]').textContent(),
    ).resolves.toBe('$4.99');
    await screenshot(page, 'admin-payments-1280');
    await expectAccessible();
    await byTestId('payments-table').locator('tbody tr').first().click();
    await expect(byTestId('payment-events').textContent()).resolves.toContain(
      'checkout.session.completed',
    );
    await expectAccessible();
  });
});
