import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { User } from '@usher/contracts';
import { aUser, errorBody, settle } from '../../../testing/fixtures';
import { byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { MemberAnnouncementsCard } from './announcements';
import Overview from './overview';
import { renewHeroState } from './renew-hero';

const DAY = 86_400_000;
const NOW = new Date('2026-03-01T12:00:00.000Z');
const ends = (ms: number) => aUser({ expiresAt: new Date(NOW.getTime() + ms).toISOString() });
const FIRST = '01936f6e-8a7b-7c3d-9e4f-0000000000c1';
const SECOND = '01936f6e-8a7b-7c3d-9e4f-0000000000c2';

describe('renewHeroState (issue 29: Renew from 14 days before the end)', () => {
  it.each([
    ['15 days out', 15 * DAY, null],
    ['14 days and a minute out', 14 * DAY + 60_000, null],
    ['exactly 14 days out', 14 * DAY, 14],
    ['30 hours out', 30 * 3_600_000, 2],
    ['an hour out', 3_600_000, 1],
  ])('should say %s', (_label, ms, daysLeft) => {
    const state = renewHeroState(ends(ms), NOW);
    expect(state === null ? null : state.kind === 'expiring' && state.daysLeft).toBe(daysLeft);
  });

  it('should say ended after the end, and nothing without an end or for an admin', () => {
    expect(
      renewHeroState(aUser({ isExpired: true, expiresAt: '2026-02-01T00:00:00.000Z' }), NOW),
    ).toMatchObject({ kind: 'expired' });
    expect(renewHeroState(aUser({ expiresAt: null }), NOW)).toBeNull();
    expect(renewHeroState(aUser({ role: 'admin', expiresAt: null }), NOW)).toBeNull();
  });
});

describe('Overview top (issue 29)', () => {
  jest.setTimeout(30_000);

  async function render(me: User) {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    TestBed.inject(SessionStore).me.set(me);
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(Overview);
    await fixture.whenStable();
    http.expectOne('/api/v1/me').flush(me);
    await settle();
    await fixture.whenStable();
    http
      .match((r) => r.url === '/api/v1/media-requests')[0]!
      .flush({
        data: [],
        total: 0,
        page: 1,
        pageSize: 3,
      });
    return { fixture, http, root: fixture.nativeElement as HTMLElement };
  }

  it('should give an expired member one banner and one Renew, not one per card', async () => {
    const me = aUser({
      isExpired: true,
      expiresAt: new Date(Date.now() - 2 * DAY).toISOString(),
      media: { linked: true, mediaUserId: 'm-1', state: 'disabled_expired' },
    });
    const { fixture, http, root } = await render(me);
    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: true, kind: 'emby', publicUrl: 'https://media.example' });
    http.expectOne('/api/v1/media/stats').flush({
      configured: true,
      movieCount: 3,
      seriesCount: 1,
      episodeCount: 8,
      cachedAt: null,
    });
    for (const r of http.match((r) => r.url === '/api/v1/media/latest')) {
      r.flush({ state: 'expired', items: [] });
    }
    http.expectOne('/api/v1/me/announcements').flush({ data: [], unread: 0 });
    await flushAndRender(fixture);
    const heroes = root.querySelectorAll('[data-testid="renew-hero"]');
    expect(heroes.length).toBe(1);
    expect(heroes[0]!.getAttribute('data-state')).toBe('expired');
    expect(heroes[0]!.textContent).toContain('Your membership has ended');
    const renewLinks = [...root.querySelectorAll('a')].filter((a) =>
      (a.getAttribute('href') ?? '').startsWith('/console/renewal'),
    );
    expect(renewLinks.map((a) => a.getAttribute('data-testid'))).toEqual(['hero-renew']);
    expect(renewLinks[0]!.getAttribute('href')).toBe('/console/renewal?from=overview');
    // The cards still say why playback is paused, without a button of their own.
    expect(byTestId(root, 'media-explain')).not.toBeNull();
    expect(byTestId(root, 'latest-state')).not.toBeNull();
  });

  it('should show the days left with Renew 5 days before the end', async () => {
    const me = aUser({ expiresAt: new Date(Date.now() + 5 * DAY - 60_000).toISOString() });
    const { fixture, http, root } = await render(me);
    http.expectOne('/api/v1/me/announcements').flush({ data: [], unread: 0 });
    await flushAndRender(fixture);
    const hero = byTestId(root, 'renew-hero')!;
    expect(hero.getAttribute('data-state')).toBe('expiring');
    expect(byTestId(root, 'renew-hero-title')!.textContent).toContain(
      'Your membership ends in 5 days',
    );
  });
});

describe('MemberAnnouncementsCard', () => {
  async function render() {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    const http = TestBed.inject(HttpTestingController);
    jest.spyOn(TestBed.inject(Notifier), 'show').mockImplementation(() => undefined);
    const fixture = TestBed.createComponent(MemberAnnouncementsCard);
    fixture.componentRef.setInput('userId', aUser().id);
    await fixture.whenStable();
    http.expectOne('/api/v1/me/announcements').flush({
      data: [
        {
          id: FIRST,
          title: 'New films',
          body: 'Ten this week.',
          createdAt: NOW.toISOString(),
          read: false,
        },
        {
          id: SECOND,
          title: 'Old news',
          body: 'Read already.',
          createdAt: NOW.toISOString(),
          read: true,
        },
      ],
      unread: 1,
    });
    await flushAndRender(fixture);
    return { fixture, http, root: fixture.nativeElement as HTMLElement };
  }

  it('should show the unread ones and hide one once marked read', async () => {
    const { fixture, http, root } = await render();
    const shown = root.querySelectorAll('[data-testid="member-announcement"]');
    expect([...shown].map((a) => a.getAttribute('data-id'))).toEqual([FIRST]);
    expect(shown[0]!.textContent).toContain('Ten this week.');
    byTestId(root, 'announcement-read')!.click();
    await flushAndRender(fixture);
    const read = http.expectOne(`/api/v1/me/announcements/${FIRST}/read`);
    expect(read.request.method).toBe('POST');
    read.flush(null, { status: 204, statusText: 'No Content' });
    await flushAndRender(fixture);
    expect(byTestId(root, 'member-announcements')).toBeNull();
    http.verify();
  });

  it('should keep it and say why when marking fails', async () => {
    const { fixture, http, root } = await render();
    byTestId(root, 'announcement-read')!.click();
    await flushAndRender(fixture);
    http
      .expectOne(`/api/v1/me/announcements/${FIRST}/read`)
      .flush(errorBody('NOT_FOUND', 'Not found'), { status: 404, statusText: 'Not Found' });
    await flushAndRender(fixture);
    expect(root.querySelectorAll('[data-testid="member-announcement"]').length).toBe(1);
    expect(byTestId(root, 'announcement-read-error')).not.toBeNull();
  });
});
