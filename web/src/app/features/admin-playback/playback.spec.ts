import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { PlaybackProfilesPage, PlaybackRecord } from '@usher/contracts';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  flushAndRender,
  stubResizeObserver,
} from '../../../testing/dom';
import { aSummary } from '../../../testing/playback';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import { provideFakeCharts, provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import PlaybackPage from './playback-page';

const ALICE = '01936f6e-8a7b-7c3d-9e4f-0000000000a1';

function aPlay(overrides: Partial<PlaybackRecord> = {}): PlaybackRecord {
  return {
    at: '2026-11-24T20:00:00.000Z',
    user: { mediaUserId: 'm-1', name: 'alice', userId: ALICE },
    itemId: '101',
    itemName: 'Dune: Part Two',
    itemType: 'Movie',
    client: 'Infuse',
    device: 'Living Room TV',
    playMethod: 'Transcode',
    durationSeconds: 5400,
    posterUrl: '/api/v1/media/posters/101?u=a&exp=1&sig=s',
    ...overrides,
  };
}

const PROFILES: PlaybackProfilesPage = {
  data: [
    {
      user: { id: ALICE, username: 'alice', mediaUserId: 'm-1', name: 'alice' },
      totals: {
        playCount: 12,
        durationSeconds: 36_000,
        activeDays: 5,
        averageSeconds: 3000,
        lastPlayedAt: '2026-11-24T20:00:00.000Z',
      },
      peakHour: 21,
      tags: ['Drama', 'Science Fiction'],
    },
    {
      user: { id: null, username: null, mediaUserId: 'm-9', name: 'guest' },
      totals: {
        playCount: 1,
        durationSeconds: 600,
        activeDays: 1,
        averageSeconds: 600,
        lastPlayedAt: '2026-11-20T10:00:00.000Z',
      },
      peakHour: 9,
      tags: [],
    },
  ],
  total: 2,
  page: 1,
  pageSize: 20,
  summary: { userCount: 2, playCount: 13, durationSeconds: 36_600 },
  range: { from: '2026-10-27T00:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
};

jest.setTimeout(20_000);
describe('PlaybackPage', () => {
  let fixture: ComponentFixture<PlaybackPage>;
  let http: HttpTestingController;
  let navigate: jest.SpyInstance;

  beforeAll(() => stubResizeObserver());

  async function render(inputs: Record<string, string> = {}) {
    storeSession();
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS, provideFakeCharts()],
    });
    TestBed.inject(SessionStore).me.set(aUser({ role: 'admin' }));
    http = TestBed.inject(HttpTestingController);
    navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    fixture = TestBed.createComponent(PlaybackPage);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  it('should list plays with the URL filters, users linked to their Playback tab', async () => {
    const root = await render({ username: 'alice', keyword: 'dune', from: '2026-11-01' });
    const req = http.expectOne((r) => r.url === '/api/v1/admin/playback/history');
    expect(req.request.params.get('username')).toBe('alice');
    expect(req.request.params.get('keyword')).toBe('dune');
    expect(req.request.params.get('from')).toBe('2026-11-01');
    expect(req.request.params.has('to')).toBe(false);
    req.flush({
      data: [
        aPlay(),
        aPlay({ user: { mediaUserId: 'm-9', name: 'guest' }, playMethod: 'DirectPlay' }),
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    await flushAndRender(fixture);
    const rows = root.querySelectorAll('[data-testid="history-row"]');
    expect(rows).toHaveLength(2);
    const link = rows[0]!.querySelector('a')!;
    expect(link.getAttribute('href')).toBe(`/admin/users/${ALICE}?tab=playback`);
    expect(rows[0]!.textContent).toContain('Transcode');
    expect(rows[0]!.textContent).toContain('1 hr 30 min');
    expect(rows[0]!.querySelector('img')!.getAttribute('src')).toContain(
      '/api/v1/media/posters/101',
    );
    // Someone Usher does not know: a name, no link.
    expect(rows[1]!.querySelector('a')).toBeNull();
    expect(rows[1]!.textContent).toContain('Direct play');
    // The profiles tab loads nothing until it is opened.
    http.expectNone((r) => r.url === '/api/v1/admin/playback/profiles');
  });

  // Issue 36: charts above the history, for the history's days.
  it("should chart everyone's plays per day, methods and apps above the history", async () => {
    const root = await render({ from: '2026-11-01', to: '2026-11-30' });
    const summary = http.expectOne((r) => r.url === '/api/v1/admin/playback/summary');
    expect(summary.request.params.get('from')).toBe('2026-11-01');
    expect(summary.request.params.get('to')).toBe('2026-11-30');
    summary.flush(aSummary({ clients: [{ name: 'Infuse', count: 3, durationSeconds: 7200 }] }));
    http
      .expectOne((r) => r.url === '/api/v1/admin/playback/history')
      .flush({ data: [aPlay()], total: 1, page: 1, pageSize: 20 });
    await flushAndRender(fixture);
    const perDay = byTestId(root, 'chart-per-day')!.querySelector('[data-testid="chart"]')!;
    expect(perDay.getAttribute('aria-label')).toMatch(
      /^Everyone's plays per day\. 11\/1: 0 plays; 11\/2: 1 play/,
    );
    const methods = byTestId(root, 'chart-methods')!.querySelector('[data-testid="chart"]')!;
    expect(methods.getAttribute('aria-label')).toBe(
      'How it played. Direct play: 3 plays; Direct stream: 1 play; Transcode: 2 plays.',
    );
    const clients = byTestId(root, 'chart-clients')!.querySelector('[data-testid="chart"]')!;
    expect(clients.getAttribute('aria-label')).toContain('Infuse: 2 hr');
  });

  it('should draw no charts over a range nobody played in', async () => {
    const root = await render();
    http
      .expectOne((r) => r.url === '/api/v1/admin/playback/summary')
      .flush(aSummary({ totals: { playCount: 0, durationSeconds: 0 } }));
    http
      .expectOne((r) => r.url === '/api/v1/admin/playback/history')
      .flush({ data: [], total: 0, page: 1, pageSize: 20 });
    await flushAndRender(fixture);
    expect(byTestId(root, 'history-charts')).toBeNull();
  });

  it('should not ask for more than 366 days', async () => {
    const root = await render({ from: '2025-01-01', to: '2026-06-01' });
    await flushAndRender(fixture);
    http.expectNone((r) => r.url === '/api/v1/admin/playback/history');
    expect(byTestId(root, 'history-range-problem')!.textContent).toContain('at most 366 days');
  });

  it('should explain the missing plugin', async () => {
    const root = await render();
    http
      .expectOne((r) => r.url === '/api/v1/admin/playback/history')
      .flush(errorBody('NOT_CONFIGURED', 'Not configured', { system: 'playback_reporting' }), {
        status: 503,
        statusText: 'Service Unavailable',
      });
    await flushAndRender(fixture);
    expect(byTestId(root, 'plugin-missing')!.textContent).toContain('Playback Reporting');
  });

  it('should show the profiles with their summary, sortable by column', async () => {
    const root = await render({ tab: 'profiles', range: '7d', sort: 'plays', order: 'asc' });
    const req = http.expectOne((r) => r.url === '/api/v1/admin/playback/profiles');
    expect(req.request.params.get('range')).toBe('7d');
    expect(req.request.params.get('sort')).toBe('plays');
    expect(req.request.params.get('order')).toBe('asc');
    req.flush(PROFILES);
    await flushAndRender(fixture);
    const summary = byTestId(root, 'profiles-summary')!;
    expect(summary.textContent).toContain('13');
    expect(summary.textContent).toContain('10 hr 10 min');
    const rows = root.querySelectorAll('[data-testid="profile-row"]');
    expect(rows[0]!.querySelector('a')!.getAttribute('href')).toBe(
      `/admin/users/${ALICE}?tab=playback`,
    );
    expect(rows[0]!.textContent).toContain('21:00');
    expect(rows[0]!.textContent).toContain('Drama · Science Fiction');
    expect(rows[1]!.textContent).toContain('Not an Usher member');
    // Phones show cards without headers: the sort is also a field.
    expect(byTestId(root, 'profiles-sort')).not.toBeNull();
    const plays = byTestId(root, 'sort-plays')!;
    expect(plays.closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    plays.click();
    expect(navigate).toHaveBeenLastCalledWith([], {
      queryParams: { sort: 'plays', order: 'desc', page: null },
      queryParamsHandling: 'merge',
    });
    byTestId(root, 'sort-duration')!.click();
    expect(navigate).toHaveBeenLastCalledWith([], {
      queryParams: { sort: 'duration', order: 'desc', page: null },
      queryParamsHandling: 'merge',
    });
    http.expectNone((r) => r.url === '/api/v1/admin/playback/history');
  });
});
