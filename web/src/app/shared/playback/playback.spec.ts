import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { PlaybackProfile } from '@usher/contracts';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  flushAndRender,
  stubResizeObserver,
} from '../../../testing/dom';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import { provideFakeCharts, provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import UserDetail from '../../features/admin-users/user-detail';
import PortraitPage from '../../features/portrait/portrait-page';
import { ECHARTS_LOADER } from '../chart/echarts-loader';
import {
  formatDuration,
  hoursOf,
  playbackProblem,
  rangeProblem,
  weekdayNames,
} from './playback-format';
import { ApiError } from '../../core/api/api-error';

const ADMIN_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000ad';
const MEMBER_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000b0';
const bucket = (count: number, durationSeconds = count * 3600) => ({ count, durationSeconds });

function aPortrait(overrides: Partial<PlaybackProfile> = {}): PlaybackProfile {
  const byHour = Array.from({ length: 24 }, () => bucket(0));
  byHour[21] = bucket(3);
  byHour[8] = bucket(1);
  return {
    range: { from: '2026-10-27T00:00:00.000Z', to: '2026-11-25T12:00:00.000Z' },
    timeZone: 'Europe/Berlin',
    totals: {
      playCount: 4,
      durationSeconds: 4 * 3600 + 1800,
      activeDays: 3,
      averageSeconds: 4050,
      lastPlayedAt: '2026-11-24T20:00:00.000Z',
    },
    byHour,
    byWeekday: [bucket(2), bucket(0), bucket(0), bucket(0), bucket(1), bucket(1), bucket(0)],
    byWeekdayHour: Array.from({ length: 7 }, (_, day) =>
      Array.from({ length: 24 }, (_, hour) =>
        day === 0 && hour === 21 ? 2 : (day === 4 || day === 5) && hour === 21 - day + 4 ? 1 : 0,
      ),
    ),
    clients: [
      { name: 'Infuse', count: 3, durationSeconds: 10_800 },
      { name: 'Emby Web', count: 1, durationSeconds: 5400 },
    ],
    devices: [{ name: 'Living Room TV', count: 4, durationSeconds: 16_200 }],
    playMethods: { directPlay: 3, directStream: 0, transcode: 1 },
    tags: [{ name: 'Drama', count: 2, durationSeconds: 7200 }],
    recent: [
      {
        at: '2026-11-24T20:00:00.000Z',
        user: { mediaUserId: 'm-1', name: 'alice' },
        itemId: '101',
        itemName: 'Dune: Part Two',
        itemType: 'Movie',
        client: 'Infuse',
        device: 'Living Room TV',
        playMethod: 'DirectPlay',
        durationSeconds: 3600,
        posterUrl: '/api/v1/media/posters/101?u=x&exp=1&sig=s',
      },
    ],
    ...overrides,
  };
}

describe('playback formats', () => {
  it('should write durations in the UI language', () => {
    expect(formatDuration(2 * 3600 + 5 * 60, 'en')).toBe('2 hr 5 min');
    expect(formatDuration(45 * 60, 'en')).toBe('45 min');
    expect(formatDuration(3600, 'zh-CN')).toBe('1小时');
    expect(hoursOf(5400)).toBe(1.5);
  });

  it('should name weekdays Monday first', () => {
    expect(weekdayNames('en')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(weekdayNames('zh-CN')[0]).toBe('周一');
  });

  it('should refuse a reversed or too long range and accept one of the limit', () => {
    expect(rangeProblem('2026-01-10', '2026-01-01', 92)).toBe('order');
    expect(rangeProblem('2026-01-01', '2026-04-03', 92)).toBe('long');
    expect(rangeProblem('2026-01-01', '2026-04-02', 92)).toBeNull();
    expect(rangeProblem('', '2026-04-01', 92)).toBeNull();
  });

  it('should tell the plugin and the unlinked account from other failures', () => {
    const err = (code: string, details?: unknown) => new ApiError(503, code, 'm', 'r', details);
    expect(playbackProblem(err('NOT_CONFIGURED', { system: 'playback_reporting' }))).toBe('plugin');
    expect(playbackProblem(err('NOT_CONFIGURED', { system: 'media_server' }))).toBe('server');
    expect(playbackProblem(err('MEDIA_ACCOUNT_UNLINKED'))).toBe('unlinked');
    expect(playbackProblem(err('UPSTREAM_UNAVAILABLE'))).toBeNull();
  });
});

jest.setTimeout(20_000);
describe('PortraitPage', () => {
  let fixture: ComponentFixture<PortraitPage>;
  let http: HttpTestingController;
  let navigate: jest.SpyInstance;

  beforeAll(() => {
    stubResizeObserver();
  });

  async function render(inputs: Record<string, string> = {}, role: 'user' | 'admin' = 'user') {
    storeSession();
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS, provideFakeCharts()],
    });
    TestBed.inject(SessionStore).me.set(aUser({ role }));
    http = TestBed.inject(HttpTestingController);
    navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    fixture = TestBed.createComponent(PortraitPage);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const request = () => http.expectOne((r) => r.url === '/api/v1/me/playback');

  // Issue 36: "Plays 1480" without a separator.
  it('should write the totals with separators', async () => {
    const root = await render();
    request().flush({ ...aPortrait(), totals: { ...aPortrait().totals, playCount: 1480 } });
    await flushAndRender(fixture);
    expect(byTestId(root, 'total-plays')!.textContent!.trim()).toBe('1,480');
  });

  it('should show totals, the charts, genres and recent plays with posters', async () => {
    const root = await render();
    const req = request();
    expect(req.request.params.get('range')).toBe('30d');
    expect(req.request.params.has('from')).toBe(false);
    req.flush(aPortrait());
    await flushAndRender(fixture);
    expect(byTestId(root, 'total-duration')!.textContent).toContain('4 hr 30 min');
    expect(byTestId(root, 'total-plays')!.textContent).toContain('4');
    expect(root.textContent).toContain('Hours and days in Europe/Berlin.');
    // Issue 36: one weekday × hour heatmap, a table a screen reader reads cell by cell.
    const heatmap = byTestId(root, 'chart-heatmap')!;
    const rows = [...heatmap.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.querySelector('th')!.textContent!.trim())).toEqual([
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
    ]);
    const monday = [...rows[0]!.querySelectorAll('td')];
    expect(monday).toHaveLength(24);
    expect(monday[21]!.textContent!.trim()).toBe('2 plays');
    expect(monday[21]!.getAttribute('title')).toBe('Mon 21 · 2 plays');
    expect(monday[21]!.className).toBe('level-4');
    expect(monday[20]!.className).toBe('level-0');
    expect(rows[4]!.querySelectorAll('td')[21]!.className).toBe('level-2');
    expect(root.querySelector('[data-testid="chart-hours"]')).toBeNull();
    const methods = byTestId(root, 'chart-methods')!.querySelector('[data-testid="chart"]')!;
    // A method nobody used is left out of the donut.
    expect(methods.getAttribute('aria-label')).toBe(
      'How it played. Direct play: 3 plays; Transcode: 1 play.',
    );
    const clients = byTestId(root, 'chart-clients')!.querySelector('[data-testid="chart"]')!;
    expect(clients.getAttribute('aria-label')).toContain('Infuse: 3 hr; Emby Web: 1.5 hr');
    expect(byTestId(root, 'portrait-tags')!.textContent).toContain('Drama');
    const recent = byTestId(root, 'recent-play')!;
    expect(recent.textContent).toContain('Dune: Part Two');
    expect(recent.querySelector('img')!.getAttribute('src')).toBe(
      '/api/v1/media/posters/101?u=x&exp=1&sig=s',
    );
    http.verify();
  });

  it('should say so when nothing was watched instead of drawing empty charts', async () => {
    const root = await render({ range: 'today' });
    const req = request();
    expect(req.request.params.get('range')).toBe('today');
    const totals = { ...aPortrait().totals, playCount: 0, durationSeconds: 0, activeDays: 0 };
    req.flush(aPortrait({ totals: { ...totals, averageSeconds: 0, lastPlayedAt: null } }));
    await flushAndRender(fixture);
    expect(byTestId(root, 'portrait-empty')!.textContent).toContain('Nothing watched');
    expect(root.querySelector('app-chart-card')).toBeNull();
  });

  it('should put a picked range in the URL and ask for a custom one of at most 92 days', async () => {
    const root = await render({ range: 'custom', from: '2026-11-01', to: '2026-11-10' });
    const req = request();
    expect(req.request.params.get('range')).toBe('custom');
    expect(req.request.params.get('from')).toBe('2026-11-01');
    expect(req.request.params.get('to')).toBe('2026-11-10');
    req.flush(aPortrait());
    await flushAndRender(fixture);

    (byTestId(root, 'range-7d')!.querySelector('button') as HTMLButtonElement).click();
    await fixture.whenStable();
    expect(navigate).toHaveBeenCalledWith([], {
      queryParams: { range: '7d', from: null, to: null },
      queryParamsHandling: 'merge',
    });

    (byTestId(root, 'range-custom')!.querySelector('button') as HTMLButtonElement).click();
    await fixture.whenStable();
    const from = byTestId(root, 'range-from') as HTMLInputElement;
    const to = byTestId(root, 'range-to') as HTMLInputElement;
    from.value = '2026-01-01';
    from.dispatchEvent(new Event('change'));
    to.value = '2026-06-01';
    to.dispatchEvent(new Event('change'));
    await fixture.whenStable();
    expect(byTestId(root, 'range-problem')!.textContent).toContain('at most 92 days');
    expect((byTestId(root, 'range-apply') as HTMLButtonElement).disabled).toBe(true);
    to.value = '2026-03-01';
    to.dispatchEvent(new Event('change'));
    await fixture.whenStable();
    (byTestId(root, 'range-apply') as HTMLButtonElement).click();
    expect(navigate).toHaveBeenLastCalledWith([], {
      queryParams: { range: 'custom', from: '2026-01-01', to: '2026-03-01' },
      queryParamsHandling: 'merge',
    });
  });

  it('should explain the missing plugin instead of an empty chart', async () => {
    const root = await render({}, 'admin');
    request().flush(
      errorBody('NOT_CONFIGURED', 'Not configured', { system: 'playback_reporting' }),
      { status: 503, statusText: 'Service Unavailable' },
    );
    await flushAndRender(fixture);
    const notice = byTestId(root, 'plugin-missing')!;
    expect(notice.textContent).toContain('Playback Reporting plugin');
    expect(notice.querySelector('a')!.getAttribute('href')).toBe(
      '/admin/settings?group=media_server',
    );
    expect(root.querySelector('app-chart-card')).toBeNull();
  });

  it('should say there is no media account', async () => {
    const root = await render();
    request().flush(errorBody('MEDIA_ACCOUNT_UNLINKED'), {
      status: 422,
      statusText: 'Unprocessable',
    });
    await flushAndRender(fixture);
    expect(byTestId(root, 'portrait-unlinked')!.textContent).toContain(
      "Your account isn't linked to the media server yet",
    );
  });

  it("should draw a member's portrait on the admin user detail's Playback tab", async () => {
    storeSession();
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: ECHARTS_LOADER, useValue: () => new Promise(() => undefined) },
      ],
    });
    TestBed.inject(SessionStore).me.set(aUser({ id: ADMIN_ID, role: 'admin' }));
    http = TestBed.inject(HttpTestingController);
    const detail = TestBed.createComponent(UserDetail);
    detail.componentRef.setInput('id', MEMBER_ID);
    detail.componentRef.setInput('tab', 'playback');
    await detail.whenStable();
    http.expectOne(`/api/v1/admin/users/${MEMBER_ID}`).flush({
      ...aUser({ id: MEMBER_ID, username: 'bob' }),
      mediaDisabled: false,
      mediaAccessDisabled: false,
      updatedAt: '2026-01-01T00:00:00.000Z',
      counts: { redemptions: 0, payments: 0, activeRequests: 0 },
    });
    await flushAndRender(detail);
    const req = http.expectOne((r) => r.url === `/api/v1/admin/users/${MEMBER_ID}/playback`);
    expect(req.request.params.get('range')).toBe('30d');
    req.flush(aPortrait());
    await flushAndRender(detail);
    const root = detail.nativeElement as HTMLElement;
    expect(byTestId(root, 'total-plays')!.textContent).toContain('4');
    http.expectNone('/api/v1/me/playback');
  });
});
