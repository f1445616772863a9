import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { RankingBatch, RankingBatchSummary, RankingEntry } from '@usher/contracts';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  flushAndRender,
  stubResizeObserver,
} from '../../../testing/dom';
import { aUser, errorBody, storeSession } from '../../../testing/fixtures';
import { provideFakeCharts, provideTestApp } from '../../../testing/providers';
import { LanguageSwitch } from '../../core/i18n/language';
import { SessionStore } from '../../core/session/session-store';
import RankingsPage from './rankings-page';
import { periodLabel } from './rankings-format';

const BATCH_ID = '01936f6e-8a7b-7c3d-9e4f-00000000b001';
const OLD_ID = '01936f6e-8a7b-7c3d-9e4f-00000000b002';

const entry = (rank: number, name: string, playCount: number, hours: number): RankingEntry => ({
  rank,
  itemKey: `item-${rank}-${name.length}`,
  name,
  playCount,
  durationSeconds: hours * 3600,
  posterUrl: `/api/v1/media/posters/item-${rank}?u=x&exp=1&sig=s`,
});

function aBatch(overrides: Partial<RankingBatch> = {}): RankingBatch {
  return {
    id: BATCH_ID,
    period: 'weekly',
    periodStart: '2026-10-19',
    periodEnd: '2026-10-25',
    cutoffAt: '2026-10-25T23:00:00.000Z',
    timezone: 'Europe/Berlin',
    totalDurationSeconds: 18_700,
    generatedAt: '2026-10-25T23:00:05.000Z',
    pushOutcome: 'sent',
    trigger: 'schedule',
    movies: [
      entry(1, 'Oppenheimer', 3, 5),
      entry(2, 'Mad Max: Fury Road', 2, 4),
      entry(3, 'Dune: Part Two', 1, 2),
      entry(4, 'Arrival', 1, 1),
    ],
    series: [entry(1, 'Severance', 3, 3)],
    ...overrides,
  };
}

function aSummary(overrides: Partial<RankingBatchSummary> = {}): RankingBatchSummary {
  const { movies, series, ...rest } = aBatch();
  void movies;
  void series;
  return {
    ...rest,
    id: BATCH_ID,
    movieCount: 4,
    seriesCount: 1,
    topMovie: 'Oppenheimer',
    topSeries: 'Severance',
    ...overrides,
  } as RankingBatchSummary;
}

const page = (data: RankingBatchSummary[], total = data.length) => ({
  data,
  total,
  page: 1,
  pageSize: 10,
});

describe('periodLabel', () => {
  it('should write the days as the API sent them, whatever the browser zone', () => {
    expect(periodLabel('2026-10-25', '2026-10-25', 'en')).toBe('Sun, Oct 25, 2026');
    expect(periodLabel('2026-10-19', '2026-10-25', 'en')).toMatch(
      /^Mon, Oct 19\s–\sSun, Oct 25, 2026$/,
    );
    expect(periodLabel('2026-10-19', '2026-10-25', 'zh-CN')).toContain('10月19日');
  });
});

jest.setTimeout(20_000);
describe('RankingsPage', () => {
  let fixture: ComponentFixture<RankingsPage>;
  let http: HttpTestingController;
  let navigate: jest.SpyInstance;

  beforeAll(() => {
    stubResizeObserver();
  });

  async function render(
    inputs: Record<string, string> = {},
    role: 'user' | 'admin' = 'user',
    lang: 'en' | 'zh-CN' = 'en',
  ) {
    storeSession();
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS, provideFakeCharts()],
    });
    TestBed.inject(SessionStore).me.set(aUser({ role }));
    http = TestBed.inject(HttpTestingController);
    navigate = jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
    await TestBed.inject(LanguageSwitch).use(lang);
    fixture = TestBed.createComponent(RankingsPage);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const latest = () => http.expectOne((r) => r.url === '/api/v1/rankings/latest');
  const history = () => http.expectOne((r) => r.url === '/api/v1/rankings/history');

  // Issue 36: posters on rankings linked nowhere.
  it('should open each poster on the media server, and none without its address', async () => {
    const root = await render({ period: 'weekly' });
    latest().flush({
      batch: aBatch({ series: [{ ...entry(1, 'Severance', 3, 3), itemKey: 'name:Severance' }] }),
    });
    history().flush(page([aSummary()]));
    await flushAndRender(fixture);
    const links = () => [
      ...root.querySelectorAll<HTMLAnchorElement>('[data-testid="poster-link"]'),
    ];
    expect(links().every((a) => !a.hasAttribute('href'))).toBe(true);

    http
      .expectOne('/api/v1/media/server')
      .flush({ configured: true, kind: 'jellyfin', publicUrl: 'https://watch.example.org/' });
    await flushAndRender(fixture);
    expect(links().map((a) => a.getAttribute('href'))).toEqual([
      'https://watch.example.org/web/#/details?id=item-1-11',
      'https://watch.example.org/web/#/details?id=item-2-18',
      'https://watch.example.org/web/#/details?id=item-3-14',
      'https://watch.example.org/web/#/details?id=item-4-7',
      // A series the server no longer has: its key is a name, not an id.
      null,
    ]);
    expect(links()[0]!.getAttribute('aria-label')).toBe('Open Oppenheimer on the media server');
    expect(links()[0]!.getAttribute('target')).toBe('_blank');
  });

  it('should show the podium with posters, the ranked list, totals and the history', async () => {
    const root = await render({ period: 'weekly' });
    const req = latest();
    expect(req.request.params.get('period')).toBe('weekly');
    req.flush({ batch: aBatch() });
    const hist = history();
    expect(hist.request.params.get('period')).toBe('weekly');
    expect(hist.request.params.get('page')).toBe('1');
    hist.flush(
      page(
        [
          aSummary(),
          aSummary({
            id: OLD_ID,
            periodStart: '2026-10-12',
            periodEnd: '2026-10-18',
            topMovie: 'Heat',
          }),
        ],
        2,
      ),
    );
    await flushAndRender(fixture);

    expect(byTestId(root, 'ranking-period')!.textContent).toContain('Oct 19');
    expect(byTestId(root, 'ranking-total')!.textContent).toContain('5 hr 12 min');
    const podium = byTestId(root, 'movie-podium')!;
    const steps = [...podium.querySelectorAll('[data-testid="podium-entry"]')];
    expect(steps.map((s) => s.querySelector('.title')!.textContent!.trim())).toEqual([
      'Rank 1: Oppenheimer',
      'Rank 2: Mad Max: Fury Road',
      'Rank 3: Dune: Part Two',
    ]);
    expect(steps[0]!.textContent).toContain('3 plays');
    expect(steps[0]!.querySelector('img')!.getAttribute('src')).toBe(
      '/api/v1/media/posters/item-1?u=x&exp=1&sig=s',
    );
    const rows = byTestId(root, 'movie-list')!.querySelectorAll('[data-testid="ranking-row"]');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('Arrival');
    expect(rows[0]!.textContent).toContain('1 play');
    // A single series: a podium of one and no list.
    expect(byTestId(root, 'series-podium')!.textContent).toContain('Severance');
    expect(byTestId(root, 'series-list')).toBeNull();
    const chart = byTestId(root, 'movie-chart')!.querySelector('[data-testid="chart"]')!;
    expect(chart.getAttribute('aria-label')).toBe(
      'Movie watch time. Oppenheimer: 5 hr; Mad Max: Fury Road: 4 hr; Dune: Part Two: 2 hr; Arrival: 1 hr.',
    );
    // Members see no admin actions and no push state.
    expect(byTestId(root, 'ranking-generate')).toBeNull();
    expect(byTestId(root, 'ranking-push')).toBeNull();

    const entries = root.querySelectorAll<HTMLAnchorElement>('[data-testid="history-entry"]');
    expect(entries).toHaveLength(2);
    expect(entries[0]!.getAttribute('aria-current')).toBe('true');
    expect(entries[1]!.textContent).toContain('Heat');
    expect(entries[1]!.getAttribute('href')).toContain(`batch=${OLD_ID}`);
    // The posters' links read the media server's address once for both categories.
    http.expectOne('/api/v1/media/server');
    http.verify();
  });

  it('should open a past batch from ?batch= and go back to the latest', async () => {
    const root = await render({ batch: OLD_ID });
    http
      .expectOne(`/api/v1/rankings/${OLD_ID}`)
      .flush(
        aBatch({ id: OLD_ID, period: 'daily', periodStart: '2026-10-12', periodEnd: '2026-10-12' }),
      );
    history().flush(page([]));
    await flushAndRender(fixture);
    expect(byTestId(root, 'ranking-period')!.textContent).toContain('Oct 12');
    (byTestId(root, 'show-latest') as HTMLButtonElement).click();
    expect(navigate).toHaveBeenCalledWith([], {
      queryParams: { batch: null },
      queryParamsHandling: 'merge',
    });
  });

  it('should say there is no ranking yet, and switch the period through the URL', async () => {
    const root = await render();
    const req = latest();
    expect(req.request.params.get('period')).toBe('daily');
    req.flush({ batch: null });
    history().flush(page([]));
    await flushAndRender(fixture);
    expect(byTestId(root, 'rankings-empty')!.textContent).toContain(
      'No ranking yet — rankings appear once the schedule has run.',
    );
    (byTestId(root, 'period-weekly')!.querySelector('button') as HTMLButtonElement).click();
    await fixture.whenStable();
    expect(navigate).toHaveBeenCalledWith([], {
      queryParams: { period: 'weekly', batch: null },
      queryParamsHandling: 'merge',
    });
  });

  it('should let an admin preview without storing, then generate without pushing', async () => {
    const root = await render({}, 'admin');
    latest().flush({
      batch: aBatch({ period: 'daily', periodStart: '2026-10-25', periodEnd: '2026-10-25' }),
    });
    history().flush(page([aSummary()]));
    await flushAndRender(fixture);
    expect(byTestId(root, 'ranking-push')!.textContent).toContain('Posted');

    (byTestId(root, 'ranking-preview') as HTMLButtonElement).click();
    const preview = http.expectOne('/api/v1/admin/rankings/preview');
    expect(preview.request.method).toBe('POST');
    expect(preview.request.body).toEqual({ period: 'daily' });
    preview.flush(
      aBatch({
        id: null,
        period: 'daily',
        periodStart: '2026-10-27',
        periodEnd: '2026-10-27',
        pushOutcome: null,
        movies: [entry(1, 'Heat', 1, 2)],
        series: [],
      }),
    );
    await flushAndRender(fixture);
    expect(byTestId(root, 'preview-banner')!.textContent).toContain('not stored');
    expect(byTestId(root, 'movie-podium')!.textContent).toContain('Heat');
    expect(byTestId(root, 'series-none')!.textContent).toContain('No series were watched');

    (byTestId(root, 'ranking-generate') as HTMLButtonElement).click();
    await flushAndRender(fixture);
    const dialog = document.querySelector('app-ranking-generate-dialog')!;
    expect(dialog.textContent).toContain("Generate today's ranking?");
    (dialog.querySelector('[data-testid="generate-push"] input') as HTMLInputElement).click();
    await flushAndRender(fixture);
    (dialog.querySelector('[data-testid="generate-ok"]') as HTMLButtonElement).click();
    await flushAndRender(fixture);
    const generate = http.expectOne('/api/v1/admin/rankings/generate');
    expect(generate.request.body).toEqual({ period: 'daily', push: false });
    generate.flush(aBatch({ period: 'daily', pushOutcome: null }));
    await flushAndRender(fixture);
    // The stored ranking and the history are read again; the preview is gone.
    latest().flush({ batch: aBatch({ period: 'daily', pushOutcome: null }) });
    history().flush(page([aSummary()]));
    await flushAndRender(fixture);
    expect(byTestId(root, 'preview-banner')).toBeNull();
    expect(byTestId(root, 'ranking-push')!.textContent).toContain('Not posted');
  });

  it('should explain the missing plugin when a preview finds none', async () => {
    const root = await render({}, 'admin');
    latest().flush({ batch: null });
    history().flush(page([]));
    await flushAndRender(fixture);
    (byTestId(root, 'ranking-preview') as HTMLButtonElement).click();
    http
      .expectOne('/api/v1/admin/rankings/preview')
      .flush(errorBody('NOT_CONFIGURED', 'Not configured', { system: 'playback_reporting' }), {
        status: 503,
        statusText: 'Service Unavailable',
      });
    await flushAndRender(fixture);
    expect(byTestId(root, 'plugin-missing')!.textContent).toContain('Playback Reporting plugin');
  });

  it('should speak Chinese', async () => {
    const root = await render({ period: 'weekly' }, 'user', 'zh-CN');
    latest().flush({ batch: aBatch() });
    history().flush(page([]));
    await flushAndRender(fixture);
    expect(root.textContent).toContain('排行榜');
    expect(root.textContent).toContain('总观看时长');
    expect(byTestId(root, 'movie-podium')!.textContent).toMatch(/3 次\s*5小时/);
    expect(byTestId(root, 'ranking-period')!.textContent).toContain('10月19日');
  });
});
