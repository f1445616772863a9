/**
 * Issue 30 "must show" in Chromium: a 1-stream member plays from Berlin and Sydney at once; the
 * sharing watch (SHARING_CONFIRM on) records the event; the admin opens /admin/sharing, reads
 * the evidence (places, networks, devices, the offending stream), confirms a stop, and the fake
 * Emby's session stops playing. Then the page, the user's Sharing tab and the member's own
 * streams, in both languages, on a phone and a desktop, and in the dark theme, for a reviewer in
 * e2e/artifacts/sharing/.
 */
import { addLiveSession, type FakeSession } from '@usher/testkit';
import { apiCall, createMember, mediaUserId, readyAdmin } from './support/admin-session.js';
import { itemsWithoutArt } from './support/api-stack.js';
import {
  DESKTOP,
  LANGUAGES,
  accessibilityProblems,
  describeWithChromium,
  expectOnlyPosterMisses,
  screenshot,
  visitBothWidths,
} from './support/browser.js';
import { pollUntil } from './support/poll.js';
import { withStack } from './support/with-stack.js';

const ADMIN_PASSWORD = 'e2e-sharing-admin-1';
const MEMBER = 'juniper';
const MEMBER_PASSWORD = 'e2e-sharing-member-1';

describeWithChromium('account sharing (Chromium)', () => {
  const app = withStack({ allow: 'nothing' });
  let adminToken = '';
  let memberId = '';
  let sydney: FakeSession;

  beforeAll(async () => {
    adminToken = await readyAdmin(app.stack, ADMIN_PASSWORD);
    const saved = await apiCall(
      app.stack,
      'PUT',
      '/admin/settings/sharing',
      {
        values: {
          SHARING_ENABLED: true,
          SHARING_CONFIRM: true,
          SHARING_ACTION: 'stop',
          SHARING_MAX_STREAMS: 1,
        },
      },
      adminToken,
    );
    if (saved.status !== 200) throw new Error(`settings not saved: ${JSON.stringify(saved)}`);
    memberId = await createMember(app.stack, adminToken, MEMBER, MEMBER_PASSWORD);
    const mediaId = await mediaUserId(app.stack, adminToken, memberId);
    const film = [...app.media.state.items.values()].find((i) => i.type === 'Movie')!;
    addLiveSession(app.media.state, {
      userId: mediaId,
      deviceId: 'juniper-tv',
      deviceName: 'Living room TV',
      client: 'Emby Theater',
      remoteEndPoint: '85.214.132.117',
      itemId: film.id,
    });
    sydney = addLiveSession(app.media.state, {
      userId: mediaId,
      deviceId: 'friend-laptop',
      deviceName: 'Laptop',
      client: 'Emby Web',
      remoteEndPoint: '1.1.1.1',
      itemId: film.id,
    });
    const run = await pollUntil(
      () => apiCall(app.stack, 'POST', '/admin/jobs/sharing_watch/run', {}, adminToken),
      (reply) => reply.status === 202,
      { within: 10_000, every: 250 },
    );
    if (run.status !== 202) throw new Error(`job not started: ${JSON.stringify(run)}`);
    const events = await pollUntil(
      () =>
        apiCall<{ total: number }>(
          app.stack,
          'GET',
          `/admin/sharing/events?userId=${memberId}`,
          undefined,
          adminToken,
        ),
      (reply) => reply.body.total > 0,
      { within: 15_000, every: 250 },
    );
    if (events.body.total === 0) throw new Error('the sharing watch recorded no event');
  });

  it('shows the admin the event with its evidence and stops the offending stream', async () => {
    await app.page.setViewportSize(DESKTOP);
    await app.signIn('admin', ADMIN_PASSWORD);
    await app.page.locator('#app-nav a[href="/admin/sharing"]').click();
    await app.page.waitForURL(app.url('/admin/sharing'));
    expect(await app.page.title()).toBe('Account sharing · Usher');
    const rows = app.page.locator('[data-testid="sharing-table"] tbody tr[data-event]');
    await rows.first().waitFor();
    const row = rows.first();
    expect(await row.getAttribute('data-status')).toBe('open');
    expect(await row.textContent()).toContain(MEMBER);

    await row.locator('[data-testid="sharing-evidence-toggle"]').click();
    const evidence = app.byTestId('sharing-evidence');
    await evidence.waitFor();
    expect(await app.byTestId('evidence-places').textContent()).toContain('Germany');
    expect(await app.byTestId('evidence-places').textContent()).toContain('Sydney, Australia');
    expect(await app.byTestId('evidence-networks').textContent()).toContain('1.1.1.1');
    expect(await evidence.locator('[data-offending="true"]').first().textContent()).toContain(
      'Laptop',
    );
    // The places on the bundled world map: a marker each, named for a screen reader.
    const map = app.byTestId('world-map');
    await map.waitFor();
    expect(await map.getAttribute('role')).toBe('img');
    expect(await map.getAttribute('aria-label')).toMatch(/^World map of the .*Sydney, Australia/);
    expect(await map.locator('[data-testid="map-marker"]').count()).toBe(2);
    await screenshot(app.page, 'sharing/evidence-en-1280');
    expect(await accessibilityProblems(app.page)).toEqual([]);

    await row.locator('[data-testid="sharing-row-menu"]').click();
    await app.page.locator('[data-testid="sharing-confirm"]').click();
    await app.page.locator('[data-testid="sharing-act-stop"]').waitFor();
    await screenshot(app.page, 'sharing/confirm-en-1280');
    await app.page.locator('[data-testid="sharing-act-submit"]').click();
    await app.page.locator('[data-testid="sharing-table"] tr[data-status="actioned"]').waitFor();

    // The fake Emby received the stop: the session is still there, its item is gone.
    expect(app.media.state.sessions.get(sydney.id)?.playing).toBeUndefined();
    const listed = await fetch(`${app.media.url}/emby/Sessions?api_key=${app.fakes.mediaKey}`);
    const sessions = (await listed.json()) as { Id: string; NowPlayingItem?: unknown }[];
    expect(sessions.find((s) => s.Id === sydney.id)?.NowPlayingItem).toBeUndefined();
    expect(app.media.state.sessionCommands.map((c) => [c.sessionId, c.command])).toEqual([
      [sydney.id, 'Stop'],
    ]);
  });

  for (const lang of LANGUAGES) {
    it(`shows the sharing pages in ${lang} on a phone and a desktop`, async () => {
      await app.page.evaluate((value) => localStorage.setItem('usher.lang', value), lang);
      const failures = await visitBothWidths(app.page, app.stack.baseUrl, {
        folder: 'sharing',
        lang,
        visits: [
          {
            name: 'events',
            path: '/admin/sharing',
            ready: '[data-testid="sharing-table"] tr[data-event]',
            then: {
              act: () =>
                app.page.locator('[data-testid="sharing-evidence-toggle"]').first().click(),
              shows: '[data-testid="world-map"]',
            },
          },
          {
            name: 'user-tab',
            path: `/admin/users/${memberId}?tab=sharing`,
            // The places' map comes last (deferred): the page is whole once it is there.
            ready: '[data-testid="world-map"]',
          },
        ],
        check: async () => accessibilityProblems(app.page),
      });
      expect(failures).toEqual([]);
    });
  }

  it('reads well in the dark theme', async () => {
    await app.page.evaluate(() => localStorage.setItem('usher.lang', 'en'));
    await app.page.emulateMedia({ colorScheme: 'dark' });
    await app.page.setViewportSize(DESKTOP);
    await app.page.goto(app.url('/admin/sharing'));
    await app.page.locator('[data-testid="sharing-evidence-toggle"]').first().click();
    await app.byTestId('world-map').waitFor();
    await screenshot(app.page, 'sharing/evidence-dark-1280');
    expect(await accessibilityProblems(app.page)).toEqual([]);
    await app.page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the member their own streams and limit on the overview', async () => {
    // One more tick: the stopped stream is over, the other still plays.
    // A scheduled tick may hold the job's lease for a moment (409): ask again.
    const run = await pollUntil(
      () =>
        apiCall<{ runId: string }>(
          app.stack,
          'POST',
          '/admin/jobs/sharing_watch/run',
          {},
          adminToken,
        ),
      (reply) => reply.status === 202,
      { within: 10_000, every: 250 },
    );
    await pollUntil(
      () =>
        apiCall<{ status: string }>(
          app.stack,
          'GET',
          `/admin/job-runs/${run.body.runId}`,
          undefined,
          adminToken,
        ),
      (reply) => reply.body.status !== 'running',
      { within: 15_000, every: 250 },
    );
    await app.signOut();
    await app.signIn(MEMBER, MEMBER_PASSWORD);
    await app.page.goto(app.url('/console/overview'));
    const card = app.byTestId('my-streams');
    await card.waitFor();
    expect(await card.textContent()).toContain('1 playing now · up to 1 at once');
    expect(await card.textContent()).toContain('Living room TV');
    await card.scrollIntoViewIfNeeded();
    await screenshot(app.page, 'sharing/my-streams-en-1280');
    expect(await accessibilityProblems(app.page)).toEqual([]);
    // The overview's rails ask for posters the seed has no artwork for.
    expectOnlyPosterMisses(app.problems, itemsWithoutArt(app.media));
  });
});
