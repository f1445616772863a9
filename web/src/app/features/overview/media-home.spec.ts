import { Clipboard } from '@angular/cdk/clipboard';
import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { MediaLatestItem, MediaResumeItem, SystemInfo } from '@usher/contracts';
import { aUser, settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { CONNECTION_TESTS_KEY, ConnectionTests } from '../../core/api/connection-tests';
import { MediaLinks } from '../../shared/media-link';
import { MediaLibrary, cardLines, resumeCard } from './media-library';
import { MediaServerCard } from './media-server-card';
import { SetupChecklist } from './setup-checklist';

const STATS = {
  configured: true,
  movieCount: 1204,
  seriesCount: 87,
  episodeCount: 3410,
  cachedAt: '2026-11-25T10:00:00.000Z',
};

function anItem(overrides: Partial<MediaLatestItem> = {}): MediaLatestItem {
  return {
    itemId: 'a1',
    name: 'Winter Harbour',
    type: 'Movie',
    year: 2024,
    addedAt: '2026-11-24T10:00:00.000Z',
    posterUrl: '/api/v1/media/posters/a1?u=u1&exp=1&sig=s',
    ...overrides,
  };
}

async function flushAndRender(fixture: { whenStable: () => Promise<unknown> }): Promise<void> {
  await settle();
  await fixture.whenStable();
  await settle();
  await fixture.whenStable();
}

describe('MediaLibrary (overview rails and counts)', () => {
  function render() {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), MediaLinks] });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(MediaLibrary);
    return { fixture, http, root: fixture.nativeElement as HTMLElement };
  }

  it('should show the counts and a poster rail per type, posters from the signed URLs', async () => {
    const { fixture, http, root } = render();
    await fixture.whenStable();
    // Skeletons while loading: the rails keep their size.
    expect(root.querySelectorAll('app-poster-card.is-loading').length).toBeGreaterThan(0);
    http.expectOne('/api/v1/media/stats').flush(STATS);
    const movie = http.expectOne(
      (r) => r.url === '/api/v1/media/latest' && r.params.get('type') === 'movie',
    );
    expect(movie.request.params.get('limit')).toBe('20');
    movie.flush({ state: 'ok', items: [anItem()] });
    http
      .expectOne((r) => r.url === '/api/v1/media/latest' && r.params.get('type') === 'series')
      .flush({
        state: 'ok',
        items: [
          anItem({
            itemId: 'e1',
            name: 'The Long Night',
            type: 'Episode',
            year: null,
            seriesName: 'Severance',
            posterUrl: '/api/v1/media/posters/e1?u=u1&exp=1&sig=t',
          }),
        ],
      });
    await flushAndRender(fixture);
    expect(root.querySelector('[data-testid="library-stats"]')!.textContent).toContain(
      '1,204 movies',
    );
    expect(root.querySelector('[data-testid="library-stats"]')!.textContent).toContain(
      '3,410 episodes',
    );
    const movies = root.querySelector('[data-testid="rail-movie"]')!;
    expect(movies.querySelector('[role="region"]')!.getAttribute('aria-label')).toBe(
      'Recently added movies',
    );
    // Asked for at the width the card shows (issue 36); 320 is the largest candidate.
    expect(movies.querySelector('img')!.getAttribute('src')).toBe(
      '/api/v1/media/posters/a1?u=u1&exp=1&sig=s&width=320',
    );
    expect(movies.querySelector('img')!.getAttribute('sizes')).toBe(
      '(min-width: 600px) 160px, 140px',
    );
    expect(movies.querySelector('.subtitle')!.textContent).toBe('2024');
    const series = root.querySelector('[data-testid="rail-series"]')!;
    expect(series.querySelector('.title')!.textContent).toBe('Severance');
    expect(series.querySelector('.subtitle')!.textContent).toBe('The Long Night');
    expect(root.querySelector('[data-testid="latest-state"]')).toBeNull();

    // Refresh reads everything again.
    root.querySelector<HTMLButtonElement>('[data-testid="recent-refresh"]')!.click();
    await flushAndRender(fixture);
    expect(http.match((r) => r.url === '/api/v1/media/latest').length).toBe(2);
    expect(http.match('/api/v1/media/stats').length).toBe(1);
  });

  it.each([
    ['expired', 'Paused until you renew'],
    ['unlinked', 'not linked to a media-server account'],
    ['disabled', 'An administrator has paused'],
    ['not_configured', 'not set up yet'],
  ])('should say why instead of empty rails when the state is %s', async (state, text) => {
    const { fixture, http, root } = render();
    await fixture.whenStable();
    http.expectOne('/api/v1/media/stats').flush({
      ...STATS,
      configured: state !== 'not_configured',
    });
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state, items: [] });
    }
    await flushAndRender(fixture);
    const message = root.querySelector('[data-testid="latest-state"]')!;
    expect(message.textContent).toContain(text);
    expect(root.querySelector('app-poster-rail')).toBeNull();
    // Expired: the overview's hero carries the one Renew, not the rails (issue 29).
    expect(root.querySelector('a[href^="/console/renewal"]')).toBeNull();
    // No counts card without a media server.
    expect(root.querySelector('[data-testid="library-stats"]') !== null).toBe(
      state !== 'not_configured',
    );
  });

  it('should fetch only the largest paint at once, at high priority, and the rest lazily', async () => {
    const { fixture, http, root } = render();
    await fixture.whenStable();
    http.expectOne('/api/v1/media/stats').flush(STATS);
    const items = Array.from({ length: 5 }, (_, i) =>
      anItem({ itemId: `m${i}`, posterUrl: `/api/v1/media/posters/m${i}?u=u1&exp=1&sig=s` }),
    );
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state: 'ok', items });
    }
    http.expectOne((r) => r.url === '/api/v1/media/resume').flush({ state: 'ok', items: [] });
    await flushAndRender(fixture);
    // Issue 36: with nothing to continue, the overview's largest paint is the first movie poster
    // (public/boot.js preloads it); high priority on more of them only made them share the
    // phone link with it.
    const attributes = (type: string, name: string) =>
      [...root.querySelectorAll(`[data-testid="rail-${type}"] img`)].map((img) =>
        img.getAttribute(name),
      );
    expect(attributes('movie', 'fetchpriority')).toEqual(['high', null, null, null, null]);
    expect(attributes('movie', 'loading')).toEqual([null, 'lazy', 'lazy', 'lazy', 'lazy']);
    expect(attributes('series', 'fetchpriority')).toEqual([null, null, null, null, null]);
    expect(attributes('series', 'loading')).toEqual(['lazy', 'lazy', 'lazy', 'lazy', 'lazy']);
  });

  it('should make the first continue-watching poster the eager one when there is any', async () => {
    const { fixture, http, root } = render();
    await fixture.whenStable();
    const items = (prefix: string) =>
      Array.from({ length: 3 }, (_, i) =>
        anItem({
          itemId: `${prefix}${i}`,
          posterUrl: `/api/v1/media/posters/${prefix}${i}?u=u&sig=s`,
        }),
      );
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state: 'ok', items: items('m') });
    }
    await flushAndRender(fixture);
    const priorities = (selector: string) =>
      [...root.querySelectorAll(`${selector} img`)].map((img) => img.getAttribute('fetchpriority'));
    // While "continue watching" is still loading no movie poster is eager: it may stand below.
    expect(priorities('[data-testid="rail-movie"]')).toEqual([null, null, null]);
    http
      .expectOne((r) => r.url === '/api/v1/media/resume')
      .flush({
        state: 'ok',
        items: [
          aResume(),
          aResume({ itemId: 'r2', posterUrl: '/api/v1/media/posters/r2?u=u&sig=s' }),
        ],
      });
    await flushAndRender(fixture);
    expect(priorities('[data-testid="continue-watching"]')).toEqual(['high', null]);
    expect(priorities('[data-testid="rail-movie"]')).toEqual([null, null, null]);
    // The eager poster asks for the widths boot.js preloads (the same srcset and sizes).
    const first = root.querySelector('[data-testid="continue-watching"] img')!;
    expect(first.getAttribute('sizes')).toBe('(min-width: 600px) 160px, 140px');
    expect(first.getAttribute('srcset')).toContain('r1?u=u1&exp=1&sig=s&width=160 160w');
  });

  function aResume(overrides: Partial<MediaResumeItem> = {}): MediaResumeItem {
    return {
      itemId: 'r1',
      name: 'Winter Harbour',
      type: 'Movie',
      year: 2024,
      positionSeconds: 45 * 60,
      runtimeSeconds: 126 * 60,
      percent: 35.7,
      lastPlayedAt: '2026-11-24T20:00:00.000Z',
      posterUrl: '/api/v1/media/posters/r1?u=u1&exp=1&sig=s',
      ...overrides,
    };
  }

  // Issue 36: "continue watching" from the member's resume points, every poster a link to the
  // item on the media server; the library's counts as the section's subtitle.
  it('should lead with continue watching, each poster opening its item on the media server', async () => {
    const { fixture, http, root } = render();
    await fixture.whenStable();
    http.expectOne('/api/v1/media/stats').flush(STATS);
    const resume = http.expectOne((r) => r.url === '/api/v1/media/resume');
    expect(resume.request.params.get('limit')).toBe('12');
    resume.flush({
      state: 'ok',
      items: [
        aResume(),
        aResume({
          itemId: 'e7',
          name: 'Hello, Ms. Cobel',
          type: 'Episode',
          seriesName: 'Severance',
          season: 1,
          episode: 2,
          positionSeconds: 20 * 60,
          runtimeSeconds: 55 * 60,
          percent: 36.4,
        }),
      ],
    });
    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: true, kind: 'jellyfin', publicUrl: 'https://watch.example.org/' });
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state: 'ok', items: [anItem()] });
    }
    await flushAndRender(fixture);

    const section = root.querySelector('[data-testid="continue-watching"]')!;
    // It stands before "recently added".
    expect(
      section.compareDocumentPosition(root.querySelector('[data-testid="recently-added"]')!),
    ).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    const cards = [...section.querySelectorAll<HTMLAnchorElement>('[data-testid="continue-item"]')];
    expect(cards.map((a) => a.getAttribute('href'))).toEqual([
      'https://watch.example.org/web/#/details?id=r1',
      'https://watch.example.org/web/#/details?id=e7',
    ]);
    expect(cards[0]!.getAttribute('target')).toBe('_blank');
    // The card's own words name the link (axe: label-content-name-mismatch); the title says where.
    expect(cards[0]!.getAttribute('title')).toBe('Open Winter Harbour on the media server');
    expect(cards.map((a) => a.querySelector('.subtitle')!.textContent)).toEqual([
      '1 h 21 min left',
      'S1:E2 · 35 min left',
    ]);
    expect(cards[1]!.querySelector('.title')!.textContent).toBe('Severance');
    const bar = cards[0]!.querySelector<HTMLElement>('[data-testid="poster-progress"] span')!;
    expect(bar.style.width).toBe('35.7%');
    // The recently added posters open their items too.
    expect(root.querySelector('[data-testid="rail-movie"] a.card-link')!.getAttribute('href')).toBe(
      'https://watch.example.org/web/#/details?id=a1',
    );
    // Counts as the subtitle of the section.
    expect(root.querySelector('#recent-heading + [data-testid="library-stats"]')).not.toBeNull();
  });

  it('should leave continue watching out when there is nothing to continue or no access', async () => {
    for (const reply of [
      { state: 'ok', items: [] },
      { state: 'expired', items: [] },
    ]) {
      TestBed.resetTestingModule();
      const { fixture, http, root } = render();
      await fixture.whenStable();
      http.expectOne((r) => r.url === '/api/v1/media/resume').flush(reply);
      await flushAndRender(fixture);
      expect(root.querySelector('[data-testid="continue-watching"]')).toBeNull();
    }
  });

  it('should say how much is left, or where the viewer stopped without a runtime', () => {
    expect(resumeCard(aResume({ positionSeconds: 3000, runtimeSeconds: 3600 }))).toMatchObject({
      title: 'Winter Harbour',
      key: 'mediaHome.resume.movieLeft',
      time: { key: 'mediaHome.resume.minutes', m: 10 },
    });
    expect(
      resumeCard(aResume({ runtimeSeconds: null, positionSeconds: 5400, season: 2, episode: 3 })),
    ).toMatchObject({
      key: 'mediaHome.resume.episodeStoppedAt',
      time: { key: 'mediaHome.resume.hoursMinutes', h: 1, m: 30 },
      season: 2,
      episode: 3,
    });
  });

  it('should take a show name over its episode and a film over its year', () => {
    expect(cardLines(anItem({ year: null }))).toEqual({ title: 'Winter Harbour', subtitle: null });
    expect(cardLines(anItem({ seriesName: 'Severance', name: 'Hello' }))).toEqual({
      title: 'Severance',
      subtitle: 'Hello',
    });
  });
});

describe('MediaServerCard', () => {
  function render() {
    TestBed.configureTestingModule({ providers: [...provideTestApp(), MediaLinks] });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(MediaServerCard);
    fixture.componentRef.setInput('me', aUser());
    return { fixture, http, root: fixture.nativeElement as HTMLElement };
  }

  it.each([
    ['emby', 'Emby Theater'],
    ['jellyfin', 'Swiftfin'],
  ] as const)('should show the address, copy it, and explain the %s apps', async (kind, app) => {
    const { fixture, http, root } = render();
    const copy = jest.spyOn(TestBed.inject(Clipboard), 'copy').mockReturnValue(true);
    await fixture.whenStable();
    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: true, kind, publicUrl: 'https://watch.example.org' });
    await flushAndRender(fixture);
    expect(root.querySelector('[data-testid="server-url"]')!.textContent).toBe(
      'https://watch.example.org',
    );
    root.querySelector<HTMLButtonElement>('[data-testid="server-copy"]')!.click();
    expect(copy).toHaveBeenCalledWith('https://watch.example.org');
    const help = root.querySelector('[data-testid="connect-help"]')!;
    expect(help.textContent).toContain(app);
    expect(help.textContent).toContain('https://watch.example.org');
    // The full setup flow is one click away.
    expect(help.querySelector('[data-testid="setup-guide"]')!.getAttribute('href')).toBe(
      '/console/overview/welcome',
    );
    // The card has no QR code; the setup flow does.
    expect(root.querySelector('[data-testid="server-qr"]')).toBeNull();
  });

  it('should say the server is not set up when it is not configured', async () => {
    const { fixture, http, root } = render();
    await fixture.whenStable();
    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: false, kind: 'emby', publicUrl: null });
    await flushAndRender(fixture);
    expect(root.querySelector('[data-testid="server-not-configured"]')).not.toBeNull();
    expect(root.querySelector('[data-testid="server-url"]')).toBeNull();
    expect(root.querySelector('[data-testid="connect-help"]')).toBeNull();
  });
});

describe('SetupChecklist', () => {
  const integrations: SystemInfo['integrations'] = {
    mediaServer: 'configured',
    metadata: 'configured',
    automation: 'not_configured',
    email: 'not_configured',
    payments: 'not_configured',
    bot: 'not_configured',
  };

  beforeEach(() => localStorage.removeItem(CONNECTION_TESTS_KEY));

  async function render() {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(SetupChecklist);
    await fixture.whenStable();
    // The checklist reads only `integrations`; the dev-mode check wants a whole SystemInfo.
    http.expectOne('/api/v1/admin/system/info').flush(aSystemInfo(integrations));
    await flushAndRender(fixture);
    return { fixture, http, root: fixture.nativeElement as HTMLElement };
  }

  it('should list each system with its state, settings link and last test', async () => {
    const { root } = await render();
    expect(root.querySelector('h2')!.textContent).toContain('Finish setup');
    expect(root.querySelector('[data-testid="setup-progress"]')!.textContent).toContain(
      '2 of 6 configured',
    );
    const media = root.querySelector('[data-testid="setup-mediaServer"]')!;
    expect(media.querySelector('[data-testid="setup-state"]')!.textContent).toContain('Configured');
    expect(media.querySelector('a')!.getAttribute('href')).toBe(
      '/admin/settings?group=media_server',
    );
    expect(media.querySelector('[data-testid="setup-last-test"]')!.textContent).toContain(
      'Not tested',
    );
    const bot = root.querySelector('[data-testid="setup-bot"]')!;
    expect(bot.querySelector('a')!.getAttribute('href')).toBe('/admin/settings?group=messenger');
    // Nothing to test before it is configured.
    expect(bot.querySelector('[data-testid="setup-test-bot"]')).toBeNull();
    expect(root.querySelector('[data-testid="setup-payments"] a')!.getAttribute('href')).toBe(
      '/admin/settings?group=payment',
    );
  });

  it('should test the saved settings, show the worst check and remember it', async () => {
    const { fixture, http, root } = await render();
    root.querySelector<HTMLButtonElement>('[data-testid="setup-test-mediaServer"]')!.click();
    await settle();
    const test = http.expectOne('/api/v1/admin/settings/media_server/test');
    expect(test.request.method).toBe('POST');
    // The saved settings: no draft values.
    expect(test.request.body).toEqual({});
    test.flush({
      ok: true,
      checks: [
        { target: 'server', status: 'ok', message: 'Emby 4.9', latencyMs: 12 },
        {
          target: 'playback_reporting',
          status: 'warn',
          message: 'Playback Reporting is not installed',
          latencyMs: 8,
        },
      ],
    });
    await flushAndRender(fixture);
    const last = root.querySelector(
      '[data-testid="setup-mediaServer"] [data-testid="setup-last-test"]',
    )!;
    expect(last.textContent).toContain('Warning');
    expect(last.textContent).toContain('Playback Reporting is not installed');
    const stored = JSON.parse(localStorage.getItem(CONNECTION_TESTS_KEY)!);
    expect(stored.media_server.status).toBe('warn');
    // A later visit (a fresh store) still shows it.
    TestBed.resetTestingModule();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    expect(TestBed.inject(ConnectionTests).last().media_server?.status).toBe('warn');
  });
});

function aSystemInfo(integrations: SystemInfo['integrations']): SystemInfo {
  return {
    version: '1.0.0',
    nodeVersion: 'v24.0.0',
    replicaId: 'r1',
    uptimeSeconds: 10,
    database: 'pglite',
    databaseVersion: '17',
    databaseSizeBytes: 1,
    users: { total: 1, active: 0, expired: 0, mediaDisabled: 0, admins: 1 },
    redeemCodes: { active: 0 },
    requests: { pending: 0, automationErrors: 0 },
    payments: { pending: 0, completed30d: 0 },
    retryQueue: { pending: 0, gaveUp: 0 },
    settings: { undecryptable: 0 },
    integrations,
    jobs: [],
  };
}
