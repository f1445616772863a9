/**
 * Issue 15 "must show": the admin changes the expiry schedule at /admin/settings, sees the new
 * next run at /admin/jobs, runs the job now and watches it finish, then finds that settings
 * change on the audit page by its action prefix, with the before/after details.
 */
import type { Page } from 'playwright-core';
import { apiCall, readyAdmin } from './support/admin-session.js';
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
import { pollUntil } from './support/poll.js';

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 800 };
const ADMIN_PASSWORD = 'e2e-jobs-admin-123';
const NEW_CRON = '15 * * * *';

/** The next hh:15 after `from` in UTC (the default SCHEDULE_TIMEZONE). */
function nextQuarterPast(from: Date): string {
  const next = new Date(from);
  next.setUTCMinutes(15, 0, 0);
  if (next <= from) next.setUTCHours(next.getUTCHours() + 1);
  return next.toISOString();
}

describeWithChromium('admin jobs and audit log (Chromium)', () => {
  let stack: ApiStack;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let adminToken: string;

  beforeAll(async () => {
    stack = await startApiStack();
    adminToken = await readyAdmin(stack, ADMIN_PASSWORD);
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
    const left = problems.list();
    problems.expect(/[^]*/);
    expect(left).toEqual([]);
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const expiryRow = () => page.locator('[data-job="expiry_check"]');

  it('changes the expiry schedule in the settings center', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(url('/login'));
    await byTestId('username').fill('admin');
    await byTestId('password').fill(ADMIN_PASSWORD);
    await byTestId('sign-in').click();
    await page.waitForURL(url('/console/overview'));
    await page.goto(url('/admin/settings?group=schedule'));
    await byTestId('panel-schedule').waitFor();
    await byTestId('setting-EXPIRY_CHECK_CRON-input').fill(NEW_CRON);
    await byTestId('save').click();
    await byTestId('setting-EXPIRY_CHECK_CRON')
      .locator('[data-testid="source-badge"]', { hasText: 'Database' })
      .waitFor();
  });

  it('sees the new schedule and the next run it fires at /admin/jobs', async () => {
    await page.locator('#app-nav a[href="/admin/jobs"]').click();
    await page.waitForURL(url('/admin/jobs'));
    expect(await page.title()).toBe('Scheduled jobs · Usher');
    const schedule = expiryRow().locator('[data-testid="job-schedule"]');
    await schedule.filter({ hasText: 'At 15 minutes past the hour' }).waitFor();
    await expect(schedule.textContent()).resolves.toContain(`${NEW_CRON} · UTC`);
    const next = await expiryRow()
      .locator('[data-testid="job-next-run"] time')
      .getAttribute('datetime');
    // The page loaded a moment ago: the next hh:15 then, or the one after if it just passed.
    const expected = nextQuarterPast(new Date(Date.now() - 60_000));
    expect([expected, nextQuarterPast(new Date())]).toContain(next);
    await screenshot(page, 'jobs-1280');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('runs the expiry check now and watches it finish', async () => {
    await byTestId('run-expiry_check').click();
    // The job changes users: it asks first.
    await byTestId('confirm-ok').click();
    // The page follows the run (first poll after 2 s): "Running…" with the elapsed time.
    await expect(byTestId('job-running').textContent()).resolves.toMatch(/Running… \d+ s/);
    // Without a media server the run ends as "skipped" at once; the page follows it until then.
    const lastRun = expiryRow().locator('[data-testid="job-last-run"]');
    await lastRun.locator('[data-run-status="skipped"]').waitFor();
    await expect(lastRun.textContent()).resolves.toContain('Skipped');
    await page
      .locator('.mdc-snackbar__label', { hasText: 'Expiry check had nothing to do' })
      .waitFor();
    await expect(byTestId('run-expiry_check').isEnabled()).resolves.toBe(true);
    await byTestId('history-expiry_check').click();
    const history = byTestId('runs-expiry_check').locator('tr[data-run-status="skipped"]');
    await history.first().waitFor();
    await expect(history.first().textContent()).resolves.toContain('Manual');
  });

  it('finds that settings change on the audit page by its action prefix', async () => {
    await page.locator('#app-nav a[href="/admin/audit"]').click();
    await page.waitForURL(url('/admin/audit'));
    await byTestId('audit-action').fill('settings.');
    await byTestId('audit-action').press('Enter');
    await page.waitForURL(url('/admin/audit?action=settings.'));
    const rows = page.locator('[data-testid="audit-table"] tbody tr[data-action]');
    const actions = () =>
      rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action')));
    // The filtered page replaces the unfiltered rows (a CI run read the table in between, empty):
    // wait until the rows on screen are settings rows, or give up and let the check below say why.
    const shown = await pollUntil(
      actions,
      (now) => now.length > 0 && now.every((a) => a?.startsWith('settings.')),
      { within: 10_000, every: 100 },
    );
    // Only settings entries are left (the password change and the job run are filtered out).
    expect(new Set(shown)).toEqual(new Set(['settings.update']));
    const entry = rows.filter({ hasText: 'EXPIRY_CHECK_CRON' });
    await expect(entry.textContent()).resolves.toContain(`0 * * * * → ${NEW_CRON}`);
    await entry.locator('[data-testid="audit-details-toggle"]').click();
    const details = byTestId('audit-details');
    await expect(details.locator('.before').textContent()).resolves.toBe('0 * * * *');
    await expect(details.textContent()).resolves.toContain(NEW_CRON);
    await screenshot(page, 'audit-1280');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it("opens a user's audit entries from the user detail page", async () => {
    const created = await apiCall<{ user: { id: string } }>(
      stack,
      'POST',
      '/admin/users',
      { username: 'auditee', role: 'admin', password: 'auditee-password-1' },
      adminToken,
    );
    expect(created.status).toBe(201);
    const id = created.body.user.id;
    await page.goto(url(`/admin/users/${id}`));
    await byTestId('user-audit-link').click();
    await page.waitForURL(url(`/admin/audit?targetType=user&targetId=${id}`));
    const rows = page.locator('[data-testid="audit-table"] tbody tr[data-action]');
    await rows.first().waitFor();
    const actions = await rows.evaluateAll((trs) =>
      trs.map((tr) => tr.getAttribute('data-action')),
    );
    expect(actions).toEqual(['user.create']);
  });

  it('fits a phone', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(url('/admin/jobs'));
    await expiryRow().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'jobs-360');
    await page.goto(url('/admin/audit?action=settings.'));
    await page.locator('[data-testid="audit-table"] tbody tr[data-action]').first().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'audit-360');
  });
});
