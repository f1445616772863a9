/**
 * Issue 29 "must show", the web half: the admin previews the reminders coming up on
 * /admin/lifecycle, runs the reminder job and reads the sent log, edits the reminder's text with
 * its live preview and sends a test to themselves, and posts an announcement (the number of
 * recipients reported). A member five days from the end sees the overview's hero with the days
 * left and the announcement, marks it read, opens Renew from the hero (the renewal page), and
 * turns reminder mails off on the account page (still off after a reload). An expired member
 * gets one banner and one Renew on the overview. Screenshots of every page touched, both
 * languages, 390 and 1280 px, go to e2e/artifacts/lifecycle/.
 */
import { randomBytes } from 'node:crypto';
import { type FakeSmtp, startFakeSmtp } from '@usher/testkit';
import { apiCall, readyAdmin } from './support/admin-session.js';
import {
  DESKTOP,
  LANGUAGES,
  accessibilityProblems,
  describeWithChromium,
  visitBothWidths,
} from './support/browser.js';
import { pollUntil } from './support/poll.js';
import { withStack } from './support/with-stack.js';

const DAY_MS = 86_400_000;
const ADMIN_PASSWORD = 'e2e-lifecycle-admin-1';
const PASSWORD = 'e2e-lifecycle-member-1';
const SMTP_PASSWORD = `smtp-${randomBytes(8).toString('hex')}`;

/** Members by how far their end is: the reminders (7/3/1) reach the first three in 14 days. */
const MEMBERS = [
  { username: 'wren', days: 5, email: 'wren@example.com' },
  { username: 'oakley', days: 2, email: 'oakley@example.com' },
  { username: 'ivy', days: 9 },
  { username: 'ashford', days: 40, email: 'ashford@example.com' },
  { username: 'elm', days: -3, email: 'elm@example.com' },
] as const;

describeWithChromium('membership lifecycle (Chromium)', () => {
  let smtp: FakeSmtp;
  // The overview's rails ask for every poster; the seeded items without art answer 404.
  const app = withStack({
    env: async () => {
      smtp = await startFakeSmtp({
        security: 'none',
        auth: { user: 'usher', pass: SMTP_PASSWORD },
      });
      return {
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
        SMTP_SECURITY: 'none',
        SMTP_USERNAME: 'usher',
        SMTP_PASSWORD,
        SMTP_FROM: 'Usher <no-reply@usher.test>',
      };
    },
  });
  const { url, byTestId, signIn, signOut } = app;
  let adminToken: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    adminToken = await readyAdmin(app.stack, ADMIN_PASSWORD);
    for (const m of MEMBERS) {
      const created = await apiCall<{ user: { id: string } }>(
        app.stack,
        'POST',
        '/admin/users',
        {
          username: m.username,
          password: PASSWORD,
          ...('email' in m ? { email: m.email } : {}),
          expiresAt: new Date(Date.now() + m.days * DAY_MS).toISOString(),
          createMediaUser: true,
        },
        adminToken,
      );
      if (created.status !== 201) throw new Error(`member not created: ${JSON.stringify(created)}`);
      ids.set(m.username, created.body.user.id);
    }
    // The admin's own address, for "send me a test" by e-mail.
    const me = await apiCall<{ id: string }>(app.stack, 'GET', '/me', undefined, adminToken);
    await apiCall(
      app.stack,
      'PATCH',
      `/admin/users/${me.body.id}`,
      { email: 'admin@example.com' },
      adminToken,
    );
  });

  afterAll(async () => {
    await smtp?.close();
  });

  async function expectAccessible(): Promise<void> {
    await app.page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(await accessibilityProblems(app.page)).toEqual([]);
  }

  /** Runs a job now through the API and waits for its run to finish. */
  async function runJob(name: string): Promise<void> {
    const started = await apiCall<{ runId: string }>(
      app.stack,
      'POST',
      `/admin/jobs/${name}/run`,
      {},
      adminToken,
    );
    expect(started.status).toBe(202);
    const status = await pollUntil(
      async () =>
        (
          await apiCall<{ status: string }>(
            app.stack,
            'GET',
            `/admin/job-runs/${started.body.runId}`,
            undefined,
            adminToken,
          )
        ).body.status,
      (s) => s !== 'running',
      { within: 30_000, every: 250 },
    );
    expect(status).toBe('succeeded');
  }

  it('shows the admin the reminders coming up, then what the job sent', async () => {
    await app.page.setViewportSize(DESKTOP);
    await signIn('admin', ADMIN_PASSWORD);
    await app.page.locator('nav a[href="/admin/lifecycle"]').click();
    await app.page.waitForURL(url('/admin/lifecycle'));
    const items = app.page.locator('[data-testid="upcoming-item"]');
    await items.first().waitFor();
    // wren (5 days: the 7-day reminder due now — the tightest reached —, then 3 and 1), oakley
    // (2 days: 3 now, then 1), ivy (9 days: 7, 3 and 1); nobody 40 days out, nobody expired.
    const users = await items.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user')));
    expect([...users].sort()).toEqual([
      'ivy',
      'ivy',
      'ivy',
      'oakley',
      'oakley',
      'wren',
      'wren',
      'wren',
    ]);
    await expect(byTestId('upcoming-summary').textContent()).resolves.toContain(
      '8 reminders in the next 14 days · 3 members',
    );
    // SMTP is configured: mail is due; ivy has no address, and the bot is not set up.
    const today = app.page.locator('[data-testid="upcoming-item"][data-user="oakley"]').first();
    await expect(today.locator('[data-channel="email"]').getAttribute('data-status')).resolves.toBe(
      'pending',
    );
    const ivy = app.page.locator('[data-testid="upcoming-item"][data-user="ivy"]').first();
    await expect(ivy.locator('[data-channel="email"]').getAttribute('data-status')).resolves.toBe(
      'skipped',
    );
    await expectAccessible();

    await runJob('expiry_reminders');
    const mail = await smtp.waitForMessage(
      (m) => m.envelope.to.includes('wren@example.com'),
      15_000,
    );
    expect(mail.text).toContain('/console/renewal?from=reminder');
    await app.page.getByRole('tab', { name: 'Sent log' }).click();
    await app.page.waitForURL(/tab=log/);
    const sent = app.page.locator('[data-notice][data-status="sent"]');
    await sent.first().waitFor();
    expect(await sent.count()).toBe(2);
    await expect(
      app.page.locator('[data-testid="notices-table"]').textContent(),
    ).resolves.toContain('Renewal reminder');
    await expectAccessible();
    // The member's page lists the member's notices.
    await app.page.goto(url(`/admin/users/${ids.get('wren')}?tab=notices`));
    await app.page.locator('[data-testid="user-notices-table"] [data-status="sent"]').waitFor();
    await expectAccessible();
  });

  it('lets the admin edit the reminder with a live preview and send a test', async () => {
    await app.page.goto(url('/admin/lifecycle?tab=templates'));
    await byTestId('preview-subject').waitFor();
    const text = byTestId('template-text');
    await text.fill('Hello {username}, {daysLeft} days to go. ');
    await byTestId('placeholder-renewUrl').click();
    await app.page
      .locator('[data-testid="preview-text"]', {
        hasText: /Hello admin, 3 days to go\. \S*renewal/,
      })
      .waitFor();
    await text.fill('Hello {nickname}');
    await app.page
      .locator('[data-testid="template-preview-error"]', { hasText: 'nickname' })
      .waitFor();
    // The refused preview is the API's 400, which Chromium logs as a failed resource.
    expect(app.problems.expect(/status of 400/)).toBe(1);
    expect(app.problems.failedResponses.splice(0)).toEqual([
      `400 ${url('/api/v1/admin/lifecycle/preview')}`,
    ]);
    await text.fill('Hello {username}, renew here: {renewUrl}');
    await app.page.locator('[data-testid="preview-text"]', { hasText: 'Hello admin' }).waitFor();
    await byTestId('template-save').click();
    await app.page.locator('[data-testid="template-save"][disabled]').waitFor();
    await expectAccessible();
    const sentAfter = Date.now();
    await byTestId('template-test-email').click();
    const test = await smtp.waitForMessage(
      (m) => m.envelope.to.includes('admin@example.com') && m.receivedAt.getTime() >= sentAfter,
      15_000,
    );
    expect(test.text).toContain('Hello admin, renew here:');

    // The deletion warning: its own texts, placeholders, preview and test.
    await byTestId('template-kind-deletion_warning').click();
    await app.page
      .locator('[data-testid="preview-subject"]', { hasText: 'your media account will be deleted' })
      .waitFor();
    expect(await byTestId('placeholder-deleteAt').isVisible()).toBe(true);
    expect(await byTestId('placeholder-daysLeft').count()).toBe(0);
    await expectAccessible();
    const warnedAfter = Date.now();
    await byTestId('template-test-email').click();
    const warning = await smtp.waitForMessage(
      (m) => m.envelope.to.includes('admin@example.com') && m.receivedAt.getTime() >= warnedAfter,
      15_000,
    );
    expect(warning.subject).toContain('your media account will be deleted on');
  });

  it('composes an announcement and reports how many members it went to', async () => {
    await app.page.goto(url('/admin/lifecycle?tab=announcements'));
    await byTestId('announce-open').click();
    await byTestId('announce-title').fill('New films this week');
    await byTestId('announce-body').fill('Ten new films arrived. Enjoy!');
    await byTestId('announce-audience').click();
    await app.page.getByRole('option', { name: 'All members' }).click();
    await byTestId('announce-channel-email').locator('input').check();
    await expectAccessible();
    await byTestId('announce-send').click();
    // Every member who can sign in: the five above (the admin is not a member).
    await app.page
      .locator('[data-testid="announce-posted"]', { hasText: 'Posted to 5 members.' })
      .waitFor();
    await app.page.locator('[data-announcement]', { hasText: 'New films this week' }).waitFor();
    await smtp.waitForMessage(
      (m) => m.envelope.to.includes('ashford@example.com') && /New films/.test(m.subject ?? ''),
      20_000,
    );
    await signOut();
  });

  it('shows a member near the end the hero, the announcement, Renew and preferences', async () => {
    await app.page.setViewportSize(DESKTOP);
    await signIn('wren', PASSWORD);
    const hero = byTestId('renew-hero');
    await hero.waitFor();
    expect(await hero.getAttribute('data-state')).toBe('expiring');
    await expect(byTestId('renew-hero-title').textContent()).resolves.toMatch(/ends in 5 days/);
    const announcement = app.page.locator('[data-testid="member-announcement"]', {
      hasText: 'New films this week',
    });
    await announcement.waitFor();
    await expectAccessible();
    await announcement.locator('[data-testid="announcement-read"]').click();
    await announcement.waitFor({ state: 'detached' });

    await byTestId('hero-renew').click();
    await app.page.waitForURL(url('/console/renewal?from=overview'));
    await byTestId('redeem-code').waitFor();

    await app.page.goto(url('/console/account?section=notifications'));
    const email = byTestId('notify-email').locator('button');
    await expect(email.getAttribute('aria-checked')).resolves.toBe('true');
    await email.click();
    await app.page.locator('[data-testid="notify-email"] button[aria-checked="false"]').waitFor();
    await app.page.waitForLoadState('networkidle');
    await app.page.reload();
    await app.page.locator('[data-testid="notify-email"] button[aria-checked="false"]').waitFor();
    await expect(
      byTestId('notify-messenger').locator('button').getAttribute('aria-checked'),
    ).resolves.toBe('true');
    await expectAccessible();
    const prefs = await apiCall<{ email: boolean }>(app.stack, 'POST', '/auth/login', {
      username: 'wren',
      password: PASSWORD,
    }).then((login) =>
      apiCall<{ email: boolean; messenger: boolean }>(
        app.stack,
        'GET',
        '/me/notifications',
        undefined,
        (login.body as unknown as { token: string }).token,
      ),
    );
    expect(prefs.body).toEqual({ email: false, messenger: true });
    await signOut();
  });

  it('gives an expired member one banner and one Renew on the overview', async () => {
    await app.page.setViewportSize(DESKTOP);
    await signIn('elm', PASSWORD);
    await app.page.locator('[data-testid="renew-hero"][data-state="expired"]').waitFor();
    expect(await byTestId('banner-renew').count()).toBe(0);
    expect(await app.page.locator('main a[href^="/console/renewal"]').count()).toBe(1);
    expect(await app.page.locator('main [data-testid="renew-hero"]').count()).toBe(1);
    await expectAccessible();
    await signOut();
  });

  for (const lang of LANGUAGES) {
    it(`screenshots every page touched (${lang})`, async () => {
      const failures: string[] = [];
      await signIn('admin', ADMIN_PASSWORD, lang);
      failures.push(
        ...(await visitBothWidths(app.page, app.stack.baseUrl, {
          folder: 'lifecycle',
          lang,
          visits: [
            { name: 'upcoming', path: '/admin/lifecycle', ready: '[data-testid="upcoming-item"]' },
            { name: 'log', path: '/admin/lifecycle?tab=log', ready: '[data-notice]' },
            {
              name: 'templates',
              path: '/admin/lifecycle?tab=templates',
              ready: '[data-testid="preview-subject"]',
            },
            {
              name: 'templates-inactivity',
              path: '/admin/lifecycle?tab=templates',
              ready: '[data-testid="preview-subject"]',
              then: {
                act: () => byTestId('template-kind-inactivity_warning').click(),
                shows: '[data-testid="placeholder-disableAt"]',
              },
            },
            {
              name: 'announcements',
              path: '/admin/lifecycle?tab=announcements',
              ready: '[data-announcement]',
            },
            {
              name: 'announce-dialog',
              path: '/admin/lifecycle?tab=announcements',
              ready: '[data-announcement]',
              then: {
                act: () => byTestId('announce-open').click(),
                shows: '[data-testid="announce-title"]',
              },
            },
            {
              name: 'user-notices',
              path: `/admin/users/${ids.get('wren')}?tab=notices`,
              ready: '[data-notice]',
            },
          ],
          check: async () => accessibilityProblems(app.page),
        })),
      );
      await app.page.keyboard.press('Escape');
      await signOut();
      for (const member of ['oakley', 'elm']) {
        await signIn(member, PASSWORD, lang);
        failures.push(
          ...(await visitBothWidths(app.page, app.stack.baseUrl, {
            folder: 'lifecycle',
            lang,
            visits: [
              {
                name: `overview-${member}`,
                path: '/console/overview',
                ready: '[data-testid="renew-hero"]',
              },
              {
                name: `account-${member}`,
                path: '/console/account?section=notifications',
                ready: '[data-testid="notify-email"]',
              },
            ],
            check: async () => accessibilityProblems(app.page),
          })),
        );
        await signOut();
      }
      expect(failures).toEqual([]);
    });
  }
});
