import type { HttpTestingController } from '@angular/common/http/testing';
import type { ComponentFixture } from '@angular/core/testing';
import type { Router } from '@angular/router';
import type { CalendarItem, CalendarWeek, JobRun } from '@usher/contracts';
import { flushAndRender } from '../../../testing/dom';
import { settle } from '../../../testing/fixtures';
import { renderPage } from '../../../testing/page';
import { POLL_FAST_MS } from '../../shared/long-action';
import CalendarPage from './calendar-page';
import { episodeCode, formatDay, parseStatus, shiftDay, syncProgress } from './calendar-view';

const DAYS = [
  '2026-06-08',
  '2026-06-09',
  '2026-06-10',
  '2026-06-11',
  '2026-06-12',
  '2026-06-13',
  '2026-06-14',
];

function anItem(overrides: Partial<CalendarItem> = {}): CalendarItem {
  return {
    episodeId: '0190f5a4-0000-7000-8000-000000000001',
    series: { tmdbId: 95396, name: 'Severance', posterPath: '/severance.jpg' },
    season: 2,
    episode: 6,
    name: 'Attila',
    airDate: '2026-06-08',
    status: 'today',
    following: false,
    ...overrides,
  };
}

function aWeek(items: CalendarItem[] = [anItem()]): CalendarWeek {
  const count = (status: string) => items.filter((i) => i.status === status).length;
  return {
    week: { start: DAYS[0]!, end: DAYS[6]!, timezone: 'Asia/Shanghai' },
    summary: {
      total: items.length,
      ready: count('ready'),
      today: count('today'),
      upcoming: count('upcoming'),
      missing: count('missing'),
    },
    days: DAYS.map((date) => ({
      date,
      isToday: date === '2026-06-08',
      items: items.filter((i) => i.airDate === date),
    })),
  };
}

function aRun(overrides: Partial<JobRun> = {}): JobRun {
  return {
    id: '0190f5a4-0000-7000-8000-0000000000aa',
    jobName: 'calendar_sync',
    trigger: 'manual',
    scheduledFor: null,
    triggeredBy: null,
    replicaId: 'r1',
    status: 'running',
    params: null,
    summary: null,
    error: null,
    startedAt: '2026-06-08T01:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

describe('calendar view helpers', () => {
  it('should format a business day without shifting it, whatever the browser zone', () => {
    // 2026-06-08 is a Monday everywhere: the day is formatted as the date itself.
    expect(formatDay('2026-06-08', 'en', { weekday: 'long' })).toBe('Monday');
    expect(formatDay('2026-06-08', 'zh-CN', { weekday: 'long' })).toBe('星期一');
  });

  it('should move weeks by plain date arithmetic and read filters strictly', () => {
    expect(shiftDay('2026-06-08', -7)).toBe('2026-06-01');
    expect(shiftDay('2026-12-28', 7)).toBe('2027-01-04');
    expect(parseStatus('missing')).toBe('missing');
    expect(parseStatus('lost')).toBe('');
    expect(episodeCode({ season: 2, episode: 5 })).toBe('S02E05');
  });

  it('should turn the run summary into series progress', () => {
    expect(syncProgress(null)).toBeNull();
    expect(syncProgress(aRun({ summary: { progress: { series: 0, seriesDone: 0 } } }))).toBeNull();
    expect(syncProgress(aRun({ summary: { progress: { series: 4, seriesDone: 1 } } }))).toEqual({
      done: 1,
      total: 4,
      percent: 25,
    });
  });
});

describe('CalendarPage', () => {
  let fixture: ComponentFixture<CalendarPage>;
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };
  let dialogAnswers: unknown[];
  let root: HTMLElement;

  async function render(inputs: Record<string, string> = {}, admin = false) {
    ({ fixture, http, router, notifier, dialogAnswers, root } = await renderPage(CalendarPage, {
      user: admin ? { role: 'admin' } : {},
      inputs,
    }));
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  const all = (id: string) => [...root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

  async function flushWeek(url: string, body: CalendarWeek): Promise<void> {
    http.expectOne(url).flush(body);
    await settle();
    await fixture.whenStable();
  }

  afterEach(() => {
    http.verify();
    jest.useRealTimers();
  });

  it('should show seven days with the episode on its business day, status and poster', async () => {
    await render();
    await flushWeek('/api/v1/calendar/global', aWeek());
    const days = [...root.querySelectorAll<HTMLElement>('section.day')];
    expect(days.map((d) => d.dataset['date'])).toEqual(DAYS);
    expect(days[0]!.classList).toContain('today');
    const tile = all('calendar-item')[0]!;
    expect(days[0]!.contains(tile)).toBe(true);
    expect(tile.textContent).toContain('Severance');
    expect(tile.textContent).toContain('S02E06');
    expect(tile.textContent).toContain('Attila');
    expect(tile.textContent).toContain('Airing today');
    expect(tile.querySelector('img')!.getAttribute('src')).toBe(
      'https://image.tmdb.org/t/p/w185/severance.jpg',
    );
    expect(byTestId('week-label')!.textContent).toContain('2026');
    expect(byTestId('status-today')!.textContent).toContain('1');
    expect(byTestId('follow-toggle')!.getAttribute('aria-pressed')).toBe('false');
    // Members get no sync button.
    expect(byTestId('calendar-sync')).toBeNull();
  });

  it('should ask for the chosen scope, week and status, and navigate between weeks', async () => {
    await render({ scope: 'following', week: '2026-06-10', status: 'missing' });
    await flushWeek(
      '/api/v1/calendar/following?week=2026-06-10&status=missing',
      aWeek([anItem({ status: 'missing', following: true })]),
    );
    byTestId('week-next')!.click();
    expect(router.navigate).toHaveBeenLastCalledWith([], {
      queryParams: { week: '2026-06-15' },
      queryParamsHandling: 'merge',
    });
    byTestId('week-previous')!.click();
    expect(router.navigate).toHaveBeenLastCalledWith([], {
      queryParams: { week: '2026-06-01' },
      queryParamsHandling: 'merge',
    });
    byTestId('week-today')!.click();
    expect(router.navigate).toHaveBeenLastCalledWith([], {
      queryParams: { week: null },
      queryParamsHandling: 'merge',
    });
    byTestId('status-all')!.click();
    expect(router.navigate).toHaveBeenLastCalledWith([], {
      queryParams: { status: null },
      queryParamsHandling: 'merge',
    });
    expect(byTestId('status-missing')!.getAttribute('aria-pressed')).toBe('true');
  });

  it('should say how to follow shows when Following is empty', async () => {
    await render({ scope: 'following' });
    await flushWeek('/api/v1/calendar/following', aWeek([]));
    expect(root.textContent).toContain('Follow shows from the Global view');
    expect(all('calendar-item')).toEqual([]);
  });

  it('should follow a series and reload the week', async () => {
    await render();
    await flushWeek('/api/v1/calendar/global', aWeek());
    byTestId('follow-toggle')!.click();
    await settle();
    const put = http.expectOne('/api/v1/calendar/follows/95396');
    expect(put.request.method).toBe('PUT');
    put.flush({ tmdbId: 95396, following: true });
    await settle();
    await fixture.whenStable();
    await flushWeek('/api/v1/calendar/global', aWeek([anItem({ following: true })]));
    expect(notifier.show).toHaveBeenCalledWith('calendar.followed', { name: 'Severance' });
    expect(byTestId('follow-toggle')!.getAttribute('aria-pressed')).toBe('true');
  });

  it('should unfollow only after confirmation', async () => {
    await render();
    await flushWeek('/api/v1/calendar/global', aWeek([anItem({ following: true })]));
    dialogAnswers.push(false);
    byTestId('follow-toggle')!.click();
    await settle();
    http.expectNone('/api/v1/calendar/follows/95396');

    dialogAnswers.push(true);
    byTestId('follow-toggle')!.click();
    await settle();
    const del = http.expectOne('/api/v1/calendar/follows/95396');
    expect(del.request.method).toBe('DELETE');
    del.flush(null, { status: 204, statusText: 'No Content' });
    await settle();
    await fixture.whenStable();
    await flushWeek('/api/v1/calendar/global', aWeek());
    expect(notifier.show).toHaveBeenCalledWith('calendar.unfollowed', { name: 'Severance' });
  });

  it('should let an admin sync with progress and reload when the run ends', async () => {
    await render({}, true);
    await flushWeek('/api/v1/calendar/global', aWeek());
    jest.useFakeTimers({ advanceTimers: true });
    byTestId('calendar-sync')!.click();
    await flushAndRender(fixture);
    const start = http.expectOne('/api/v1/admin/calendar/sync');
    expect(start.request.method).toBe('POST');
    start.flush({ runId: aRun().id }, { status: 202, statusText: 'Accepted' });
    await flushAndRender(fixture);

    await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
    http
      .expectOne(`/api/v1/admin/job-runs/${aRun().id}`)
      .flush(aRun({ summary: { progress: { series: 4, seriesDone: 1 } } }));
    await flushAndRender(fixture);
    expect(byTestId('calendar-sync')!.textContent).toContain('1/4 series');
    expect((byTestId('calendar-sync') as HTMLButtonElement).disabled).toBe(true);
    expect(root.querySelector('mat-progress-bar')!.getAttribute('aria-valuenow')).toBe('25');

    await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
    http.expectOne(`/api/v1/admin/job-runs/${aRun().id}`).flush(
      aRun({
        status: 'succeeded',
        summary: { progress: { series: 4, seriesDone: 4, episodes: 6, ready: 2 } },
      }),
    );
    await flushAndRender(fixture);
    await flushWeek('/api/v1/calendar/global', aWeek());
    expect(notifier.show).toHaveBeenCalledWith('calendar.sync.done', { episodes: 6, ready: 2 });
    expect((byTestId('calendar-sync') as HTMLButtonElement).disabled).toBe(false);
    expect(root.querySelector('mat-progress-bar')).toBeNull();
  });
});
