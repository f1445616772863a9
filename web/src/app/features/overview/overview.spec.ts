import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { aUser, settle, storeSession } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import { aRequest } from '../../shared/requests/request-fixtures';
import Overview from './overview';

const NO_STATS = {
  configured: false,
  movieCount: 0,
  seriesCount: 0,
  episodeCount: 0,
  cachedAt: null,
};

const STREAMS_OFF = { enabled: false, limit: 2, streams: [], suspendedUntil: null, recent: [] };

/** Issue 14: the member's overview answers "what now?" — renew, and where the requests stand. */
describe('Overview', () => {
  /** The media reads the overview's children make; these tests are about the requests card. */
  function answerMedia(http: HttpTestingController): void {
    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: false, kind: 'emby', publicUrl: null });
    http.expectOne('/api/v1/media/stats').flush(NO_STATS);
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state: 'not_configured', items: [] });
    }
    for (const r of http.match((r) => r.url === '/api/v1/media/resume')) {
      r.flush({ state: 'not_configured', items: [] });
    }
    for (const r of http.match('/api/v1/me/announcements')) r.flush({ data: [], unread: 0 });
    for (const r of http.match('/api/v1/me/streams')) r.flush(STREAMS_OFF);
  }

  async function render(expiresInDays: number | null) {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const expiresAt =
      expiresInDays === null
        ? null
        : new Date(Date.now() + expiresInDays * 86_400_000).toISOString();
    const me = aUser({ expiresAt, isExpired: false });
    TestBed.inject(SessionStore).me.set(me);
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(Overview);
    await fixture.whenStable();
    http.expectOne('/api/v1/me').flush(me);
    await settle();
    return { fixture, http, root: fixture.nativeElement as HTMLElement };
  }

  it('should list the latest requests with their status, and offer renewal', async () => {
    const { fixture, http, root } = await render(5);
    const list = http.expectOne((r) => r.url === '/api/v1/media-requests');
    expect(list.request.params.get('pageSize')).toBe('3');
    list.flush({
      data: [aRequest({ name: 'Winter Harbour', status: 'APPROVED' })],
      total: 1,
      page: 1,
      pageSize: 3,
    });
    answerMedia(http);
    await settle();
    await fixture.whenStable();
    const recent = root.querySelector('[data-testid="recent-requests"]')!;
    expect(recent.textContent).toContain('Winter Harbour');
    expect(recent.textContent).toContain('Approved');
    expect(recent.querySelector('a[href="/console/requests/new"]')).not.toBeNull();
    // 5 days before the end the hero at the top carries the Renew, the card does not repeat it.
    const renew = root.querySelector('[data-testid="hero-renew"]')!;
    expect(renew.getAttribute('href')).toBe('/console/renewal?from=overview');
    expect(root.querySelector('[data-testid="overview-renew-membership"]')).toBeNull();
    http.verify();
  });

  it('should offer renewal on the membership card while the end is more than 14 days away', async () => {
    const { fixture, http, root } = await render(30);
    http
      .expectOne((r) => r.url === '/api/v1/media-requests')
      .flush({ data: [], total: 0, page: 1, pageSize: 3 });
    answerMedia(http);
    await settle();
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="renew-hero"]')).toBeNull();
    const renew = root.querySelector('[data-testid="overview-renew-membership"]')!;
    expect(renew.getAttribute('href')).toBe('/console/renewal');
    http.verify();
  });

  it('should say there are no requests yet, and offer no renewal without an end date', async () => {
    const { fixture, http, root } = await render(null);
    http
      .expectOne((r) => r.url === '/api/v1/media-requests')
      .flush({ data: [], total: 0, page: 1, pageSize: 3 });
    answerMedia(http);
    await settle();
    await fixture.whenStable();
    expect(root.querySelector('[data-testid="recent-requests"]')!.textContent).toContain(
      'No requests yet',
    );
    expect(root.querySelector('[data-testid="overview-renew-membership"]')).toBeNull();
    http.verify();
  });

  it('should not ask for me again right after the app start loaded it', async () => {
    storeSession();
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const session = TestBed.inject(SessionStore);
    const http = TestBed.inject(HttpTestingController);
    const started = session.bootstrap();
    http.expectOne('/api/v1/me').flush(aUser({ username: 'lila' }));
    await started;
    const fixture = TestBed.createComponent(Overview);
    await fixture.whenStable();
    await settle();
    http.expectNone('/api/v1/me');
    expect((fixture.nativeElement as HTMLElement).querySelector('h1')!.textContent).toContain(
      'lila',
    );
  });

  it('should show admins the setup checklist first, and members no checklist', async () => {
    const member = await render(30);
    member.http.expectNone('/api/v1/admin/system/info');
    expect(member.root.querySelector('app-setup-checklist')).toBeNull();
    TestBed.resetTestingModule();

    TestBed.configureTestingModule({ providers: provideTestApp() });
    const admin = aUser({ role: 'admin', expiresAt: null });
    TestBed.inject(SessionStore).me.set(admin);
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(Overview);
    await fixture.whenStable();
    http.expectOne('/api/v1/me').flush(admin);
    await settle();
    await fixture.whenStable();
    http.expectOne('/api/v1/admin/system/info');
    const root = fixture.nativeElement as HTMLElement;
    const checklist = root.querySelector('app-setup-checklist')!;
    expect(checklist).not.toBeNull();
    // Before the rails and the cards.
    expect(
      checklist.compareDocumentPosition(root.querySelector('app-media-library')!) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('should show a member their own streams and limit while the sharing watch is on', async () => {
    const { fixture, http, root } = await render(30);
    http
      .expectOne((r) => r.url === '/api/v1/media-requests')
      .flush({ data: [], total: 0, page: 1, pageSize: 3 });
    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: false, kind: 'emby', publicUrl: null });
    http.expectOne('/api/v1/media/stats').flush(NO_STATS);
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state: 'not_configured', items: [] });
    }
    for (const r of http.match((r) => r.url === '/api/v1/media/resume')) {
      r.flush({ state: 'not_configured', items: [] });
    }
    for (const r of http.match('/api/v1/me/announcements')) r.flush({ data: [], unread: 0 });
    http.expectOne('/api/v1/me/streams').flush({
      enabled: true,
      limit: 1,
      suspendedUntil: null,
      streams: [
        {
          deviceName: 'Living room TV',
          client: 'Emby Theater',
          itemName: 'Winter Harbour',
          city: 'Berlin',
          country: 'DE',
          home: false,
          startedAt: '2026-12-07T10:00:00.000Z',
          lastSeenAt: '2026-12-07T10:05:00.000Z',
        },
      ],
      recent: [
        {
          rule: 'streams',
          detectedAt: '2026-12-06T21:00:00.000Z',
          actionTaken: 'stop',
          status: 'actioned',
        },
      ],
    });
    await settle();
    await fixture.whenStable();
    const card = root.querySelector('[data-testid="my-streams"]')!;
    expect(card.textContent).toContain('1 playing now · up to 1 at once');
    expect(card.textContent).toContain('Living room TV');
    expect(card.textContent).toContain('Berlin, Germany');
    expect(card.querySelector('[data-testid="my-streams-latest"]')!.textContent).toContain(
      'Streams at once',
    );
    http.verify();
  });
});
