/**
 * Issue 36's layout defects, each measured in the browser where only layout shows it, and the
 * touched pages photographed in both languages at 390 and 1280 px (e2e/artifacts/calm/):
 * the nav while a forced password change holds the admin, the side nav's labels, the portrait's
 * periods on a phone, Chinese "today" in the calendar, the request sheet at 900 px, the admin
 * tables' statuses inside their cells, and the settings inputs' labels (axe).
 */
import AxeBuilder from '@axe-core/playwright';
import { apiCall, createMember, readyAdmin } from './support/admin-session.js';
import {
  LANGUAGES,
  type Visit,
  describeWithChromium,
  screenshot,
  useLanguage,
  visitBothWidths,
} from './support/browser.js';
import { withStack } from './support/with-stack.js';

const ADMIN_PASSWORD = 'e2e-calm-admin-1';
const MEMBER = 'lena';
const MEMBER_PASSWORD = 'e2e-calm-member-1';

const MEMBER_PAGES: Visit[] = [
  { name: 'portrait', path: '/console/portrait', ready: '[data-testid="range-30d"]' },
  { name: 'calendar', path: '/console/calendar', ready: '[data-testid="calendar-week"]' },
  { name: 'rankings', path: '/console/rankings', ready: 'main h1' },
  { name: 'new-request', path: '/console/requests/new?q=Dune', ready: '.result-grid' },
];
const ADMIN_PAGES: Visit[] = [
  { name: 'admin-users', path: '/admin/users', ready: '[data-testid="users-table"]' },
  { name: 'admin-requests', path: '/admin/requests', ready: 'main h1' },
  { name: 'admin-jobs', path: '/admin/jobs', ready: '[data-testid="jobs-table"]' },
  { name: 'admin-devices', path: '/admin/devices', ready: '[data-testid="device-stats"]' },
  { name: 'admin-audit', path: '/admin/audit', ready: 'main h1' },
  { name: 'admin-media-quality', path: '/admin/media-quality', ready: 'main h1' },
  { name: 'admin-playback', path: '/admin/playback', ready: 'main h1' },
];

describeWithChromium('calm pages: issue 36 layout defects (Chromium)', () => {
  const app = withStack({ tmdb: true });

  it('does not paint the nav items a forced password change disables as selected', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await useLanguage(app.page, app.stack.baseUrl, 'en');
    await app.page.locator('[data-testid="username"]').fill('admin');
    await app.page.locator('[data-testid="password"]').fill(app.stack.temporaryPassword);
    await app.page.locator('[data-testid="sign-in"]').click();
    await app.page.waitForURL(/\/console\/account\?section=password/);
    try {
      const items = app.page.locator('mat-nav-list a[mat-list-item]');
      await items.first().waitFor();
      await screenshot(app.page, 'calm/locked-nav-en-1280');
      const looks = await items.evaluateAll((links) =>
        links.map((a) => ({
          disabled: a.classList.contains('mdc-list-item--disabled'),
          activated: a.classList.contains('mdc-list-item--activated'),
          background: getComputedStyle(a).backgroundColor,
          layer: getComputedStyle(a, '::before').opacity,
        })),
      );
      const selected = looks.find((l) => l.activated)!;
      const disabled = looks.filter((l) => l.disabled);
      expect(disabled.length).toBeGreaterThan(3);
      // Material paints a disabled item's state layer (a grey pill, like the selected one's).
      for (const item of disabled) {
        expect(item.background).not.toBe(selected.background);
        expect(item.layer).toBe('0');
      }
    } finally {
      // Ready the admin for the rest (the forced change done through the API), which ends the
      // page's session: its next read answers 401, then the page is signed out.
      const token = await readyAdmin(app.stack, ADMIN_PASSWORD);
      await createMember(app.stack, token, MEMBER, MEMBER_PASSWORD, 30);
      await useLanguage(app.page, app.stack.baseUrl, 'en');
      const failed = app.problems.failedResponses.splice(0);
      expect(failed.filter((line) => !line.startsWith('401 '))).toEqual([]);
      app.problems.expect(/status of 401/);
    }
  });

  it('keeps the admin tables calm: statuses inside their cells, and the settings labelled', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await app.signIn('admin', ADMIN_PASSWORD, 'zh-CN');
    await app.page.goto(app.url('/admin/users'));
    await app.page.locator('[data-testid="users-table"] tbody tr').first().waitFor();
    const spilling = await app.page.locator('table.list td app-status-chip').evaluateAll((chips) =>
      chips
        .filter((chip) => {
          const cell = chip.closest('td')!.getBoundingClientRect();
          return chip.getBoundingClientRect().right > cell.right + 0.5;
        })
        .map((chip) => chip.textContent?.trim()),
    );
    expect(spilling).toEqual([]);

    await app.page.goto(app.url('/admin/settings?group=media_server'));
    await app.page.locator('[data-testid="settings-actions"]').waitFor();
    const axe = await new AxeBuilder({ page: app.page }).withRules(['label-title-only']).analyze();
    expect(axe.violations.flatMap((v) => v.nodes.map((n) => n.html))).toEqual([]);
    await app.signOut();
  });

  it("fits the portrait's periods in a phone's width and keeps Chinese 'today' on one line", async () => {
    await app.page.setViewportSize({ width: 390, height: 844 });
    await app.signIn(MEMBER, MEMBER_PASSWORD, 'zh-CN');
    await app.page.goto(app.url('/console/portrait'));
    const toggles = app.page.locator('mat-button-toggle');
    await toggles.first().waitFor();
    const outside = await toggles.evaluateAll((all) =>
      all
        .filter((t) => {
          const box = t.getBoundingClientRect();
          return box.left < 0 || box.right > window.innerWidth;
        })
        .map((t) => t.textContent?.trim()),
    );
    expect(outside).toEqual([]);

    for (const width of [390, 1280]) {
      await app.page.setViewportSize({ width, height: 844 });
      await app.page.goto(app.url('/console/calendar'));
      const badge = app.page.locator('.today-badge');
      await badge.waitFor();
      const { height, lineHeight } = await badge.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(el).lineHeight),
      }));
      // One line of text plus the badge's padding.
      expect(height).toBeLessThan(lineHeight * 2);
    }
  });

  it("keeps a recent request's title readable on the overview", async () => {
    const login = await apiCall<{ token: string }>(app.stack, 'POST', '/auth/login', {
      username: MEMBER,
      password: MEMBER_PASSWORD,
    });
    const created = await apiCall(
      app.stack,
      'POST',
      '/media-requests',
      { type: 'MOVIE', tmdbId: 14337, season: 0, name: 'Primer', year: 2004 },
      login.body.token,
    );
    expect(created.status).toBe(201);
    const cut: string[] = [];
    for (const width of [390, 600, 800, 960, 1100, 1280]) {
      await app.page.setViewportSize({ width, height: 900 });
      await app.page.goto(app.url('/console/overview'));
      const name = app.page.locator('[data-testid="recent-requests"] .recent-name').first();
      await name.waitFor();
      // The audit saw it cut to "P…" beside its status.
      const box = await name.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      process.stdout.write(`recent name at ${width}: ${box.join('/')}\n`);
      if (box[0]! > box[1]!) cut.push(`${width}`);
    }
    expect(cut).toEqual([]);
  });

  it('opens the request sheet beside the results at 900 px, not over them', async () => {
    await app.page.setViewportSize({ width: 900, height: 800 });
    await app.page.goto(app.url('/console/requests/new?q=Dune'));
    await app.page.locator('.result-grid .result').first().click();
    const sheet = await app.page.locator('[data-testid="request-sheet"]').boundingBox();
    const results = await app.page.locator('.result-grid').boundingBox();
    expect(sheet).not.toBeNull();
    expect(results!.x + results!.width).toBeLessThanOrEqual(sheet!.x + 1);
    await app.signOut();
  });

  // After the member's request: "Request review" carries its count (the audit saw it cut).
  it('shows every admin nav label whole at 1280 px, in both languages', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    for (const lang of LANGUAGES) {
      await app.signIn('admin', ADMIN_PASSWORD, lang);
      const nav = app.page.locator('[data-testid="admin-nav"] [matListItemTitle]');
      await nav.first().waitFor();
      const cut = await nav.evaluateAll((titles) =>
        titles
          .filter((t) => (t as HTMLElement).scrollWidth > (t as HTMLElement).clientWidth + 1)
          .map((t) => t.textContent?.trim()),
      );
      expect(cut).toEqual([]);
      await app.signOut();
    }
  });

  for (const lang of LANGUAGES) {
    it(`photographs the touched pages in ${lang}`, async () => {
      const settle = () =>
        app.page
          .locator('main [role="progressbar"], .skeleton')
          .first()
          .waitFor({ state: 'hidden' });
      await app.signIn(MEMBER, MEMBER_PASSWORD, lang);
      const member = await visitBothWidths(app.page, app.stack.baseUrl, {
        folder: 'calm',
        lang,
        visits: MEMBER_PAGES,
        settle,
      });
      await app.signOut();
      await app.signIn('admin', ADMIN_PASSWORD, lang);
      const admin = await visitBothWidths(app.page, app.stack.baseUrl, {
        folder: 'calm',
        lang,
        visits: ADMIN_PAGES,
        settle,
      });
      await app.signOut();
      expect([...member, ...admin]).toEqual([]);
    });
  }
});
