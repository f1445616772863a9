import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type {
  JobRun,
  QualityGroupDetail,
  QualityLibraryList,
  QualityReport,
} from '@usher/contracts';
import { errorBody, storeSession } from '../../../testing/fixtures';
import {
  NO_MATERIAL_ANIMATIONS,
  byTestId,
  flushAndRender,
  stubResizeObserver,
} from '../../../testing/dom';
import { provideFakeCharts, provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { POLL_FAST_MS } from '../../shared/long-action';
import LibrariesPage from './libraries-page';
import { allLibraries, qualityCharts } from './quality.chart';
import ReportPage, { episodeCode, seasonBlocks } from './report-page';
import { scanPercent } from './scan-follower';

const RUN_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000aa';
const BASE = '/api/v1/admin/media-quality/libraries';

type Library = QualityLibraryList['data'][number];

function aLibrary(
  overrides: Partial<Library> = {},
  report: Partial<Library['report']> = {},
): Library {
  return {
    libraryId: 'lib-movies',
    name: 'Movies',
    collectionType: 'movies',
    report: {
      state: 'fresh',
      computedAt: '2026-03-01T10:00:00.000Z',
      itemCount: 9,
      scanning: false,
      scanError: null,
      ...report,
    },
    ...overrides,
  };
}

function aReport(overrides: Partial<QualityReport> = {}): QualityReport {
  return {
    library: { id: 'lib-movies', name: 'Movies' },
    state: 'fresh',
    computedAt: '2026-03-01T10:00:00.000Z',
    scanning: false,
    itemCount: 10,
    resolution: { uhd4k: 2, fhd1080: 4, hd720: 2, sd: 2, unknown: 0 },
    codec: { h264: 5, hevc: 3, av1: 1, other: 1 },
    hdr: { sdr: 7, hdr10: 1, hdr10plus: 0, hlg: 1, dolbyVision: 1 },
    lowQuality: {
      data: [
        {
          groupId: 'g-casablanca',
          kind: 'movie',
          name: 'Casablanca',
          itemCount: 1,
          worstResolution: 'sd',
        },
        {
          groupId: 'g-bear',
          kind: 'series',
          name: 'The Bear',
          itemCount: 3,
          worstResolution: 'hd720',
        },
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    },
    failedLibraries: [],
    ...overrides,
  };
}

function aRun(overrides: Partial<JobRun> = {}): JobRun {
  return {
    id: RUN_ID,
    jobName: 'media_quality_scan',
    trigger: 'manual',
    scheduledFor: null,
    triggeredBy: null,
    replicaId: 'r1',
    status: 'running',
    params: { libraryId: 'lib-movies' },
    summary: null,
    error: null,
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

const progress = (itemsScanned: number, itemsTotal: number, librariesDone = 0, libraries = 1) => ({
  progress: {
    libraryId: 'lib-movies',
    libraries,
    librariesDone,
    currentLibrary: 'lib-movies',
    itemsTotal,
    itemsScanned,
  },
});

const t = (key: string) => key.split('.').at(-1)!;

jest.setTimeout(20_000);
describe('media quality helpers', () => {
  it('should measure one library by items read, several by libraries done, never going back', () => {
    expect(scanPercent(null)).toBeNull();
    expect(scanPercent({ progress: { itemsTotal: 0 } })).toBeNull();
    expect(scanPercent(progress(200, 800))).toBe(25);
    // Two libraries, the first done (800 of 800), the second just started: 1000 known items.
    expect(scanPercent(progress(800, 800, 1, 2))).toBe(100 / 2 + 50);
    expect(scanPercent(progress(800, 1000, 1, 2), 60)).toBe(90);
    // The second library's size makes the share drop: the bar stays where it was.
    expect(scanPercent(progress(100, 1000, 0, 2), 40)).toBe(40);
  });

  it('should sum "All libraries" like the API: oldest scan, stale if any, scanning if any', () => {
    const all = allLibraries(
      [
        aLibrary({}, { computedAt: '2026-03-02T00:00:00.000Z', itemCount: 4 }),
        aLibrary(
          { libraryId: 'b' },
          { state: 'stale', computedAt: '2026-03-01T00:00:00.000Z', itemCount: 6, scanning: true },
        ),
        aLibrary({ libraryId: 'c' }, { state: 'missing', computedAt: null, itemCount: 0 }),
      ],
      'All',
    );
    expect(all).toEqual({
      libraryId: 'all',
      name: 'All',
      collectionType: null,
      report: {
        state: 'stale',
        computedAt: '2026-03-01T00:00:00.000Z',
        itemCount: 10,
        scanning: true,
        scanError: null,
      },
    });
    expect(
      allLibraries([aLibrary({}, { state: 'missing', computedAt: null })], 'All').report.state,
    ).toBe('missing');
  });

  it('should chart resolution as a donut without empty buckets, codec and HDR as bars', () => {
    const charts = qualityCharts(aReport(), t);
    expect(charts.resolution.type).toBe('donut');
    expect(charts.resolution.items.map((i) => [i.label, i.value])).toEqual([
      ['uhd4k', 2],
      ['fhd1080', 4],
      ['hd720', 2],
      ['sd', 2],
    ]);
    expect(charts.resolution.format!(4)).toBe('4 (40%)');
    expect(charts.codec.items.map((i) => i.value)).toEqual([5, 3, 1, 1]);
    expect(charts.hdr.items.map((i) => [i.label, i.value])).toEqual([
      ['sdr', 7],
      ['hdr10', 1],
      ['hdr10plus', 0],
      ['hlg', 1],
      ['dolbyVision', 1],
    ]);
    expect(charts.codec.format).toBeUndefined();
  });

  it('should group episodes by season and code them', () => {
    const item = (season: number | null, episode: number | null) => ({
      itemId: `${season}-${episode}`,
      name: 'x',
      season,
      episode,
      width: 1280,
      height: 720,
      resolution: 'hd720' as const,
      codec: 'h264',
      hdr: 'sdr' as const,
      bitrate: null,
    });
    const detail: QualityGroupDetail = {
      group: { groupId: 'g', kind: 'series', name: 'S', itemCount: 3, worstResolution: 'hd720' },
      items: [item(1, 1), item(1, 2), item(2, 1)],
      seasons: [],
    };
    expect(seasonBlocks(detail).map((b) => [b.season, b.items.length])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(episodeCode({ season: 1, episode: 2 })).toBe('S01E02');
    expect(episodeCode({ season: null, episode: null })).toBe('');
  });
});

describe('media quality pages', () => {
  let http: HttpTestingController;
  let notifier: { show: jest.Mock };

  function setUp(): void {
    storeSession();
    notifier = { show: jest.fn() };
    stubResizeObserver();
    TestBed.configureTestingModule({
      providers: [
        ...provideTestApp(),
        NO_MATERIAL_ANIMATIONS,
        { provide: Notifier, useValue: notifier },
        provideFakeCharts(),
      ],
    });
    http = TestBed.inject(HttpTestingController);
    jest.spyOn(TestBed.inject(Router), 'navigate').mockResolvedValue(true);
  }

  afterEach(() => {
    http.verify();
    jest.useRealTimers();
  });

  describe('the libraries', () => {
    let fixture: ComponentFixture<LibrariesPage>;

    async function render(libraries: Library[]): Promise<HTMLElement> {
      setUp();
      fixture = TestBed.createComponent(LibrariesPage);
      await fixture.whenStable();
      http.expectOne(BASE).flush({ data: libraries });
      await flushAndRender(fixture);
      return fixture.nativeElement as HTMLElement;
    }

    it('should show "All libraries" first, then each library with its state', async () => {
      const root = await render([
        aLibrary(),
        aLibrary(
          { libraryId: 'lib-shows', name: 'Shows', collectionType: 'tvshows' },
          { state: 'missing', computedAt: null, itemCount: 0, scanError: 'timed out' },
        ),
      ]);
      const cards = [...root.querySelectorAll('[data-library]')];
      expect(cards.map((c) => c.getAttribute('data-library'))).toEqual([
        'all',
        'lib-movies',
        'lib-shows',
      ]);
      expect(cards[0]!.textContent).toContain('All libraries');
      expect(cards[0]!.textContent).toContain('Up to date');
      expect(cards[0]!.textContent).toContain('9 videos');
      expect(cards[1]!.textContent).toContain('Up to date');
      expect(cards[2]!.textContent).toContain('Never scanned');
      expect(cards[2]!.textContent).toContain('The last scan failed: timed out');
      expect(byTestId(root, 'scan-progress')).toBeNull();
    });

    it('should scan, follow the run with a determinate bar, then reload and say so', async () => {
      const root = await render([aLibrary()]);
      jest.useFakeTimers({ advanceTimers: true });
      byTestId(root, 'scan-lib-movies')!.click();
      await flushAndRender(fixture);
      const post = http.expectOne(`${BASE}/lib-movies/scan`);
      expect(post.request.method).toBe('POST');
      post.flush(
        { scanStartedAt: '2026-03-01T10:00:00.000Z', runId: RUN_ID },
        { status: 202, statusText: 'Accepted' },
      );
      await flushAndRender(fixture);
      expect((byTestId(root, 'scan-lib-movies') as HTMLButtonElement).disabled).toBe(true);
      expect((byTestId(root, 'scan-all') as HTMLButtonElement).disabled).toBe(true);
      // The card says so at once, before the list is read again.
      expect(root.querySelector('[data-library="lib-movies"]')!.textContent).toContain('Scanning');

      await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
      http
        .expectOne(`/api/v1/admin/job-runs/${RUN_ID}`)
        .flush(aRun({ summary: progress(200, 800) }));
      await flushAndRender(fixture);
      const bar = root.querySelector('[data-library="lib-movies"] [data-testid="scan-progress"]')!;
      expect(bar.querySelector('[data-percent]')!.getAttribute('data-percent')).toBe('25');
      expect(bar.textContent).toContain('25% · 200 of 800 videos read');
      expect(bar.querySelector('mat-progress-bar')!.getAttribute('aria-valuenow')).toBe('25');

      await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
      http.expectOne(`/api/v1/admin/job-runs/${RUN_ID}`).flush(
        aRun({
          status: 'succeeded',
          summary: progress(800, 800),
          finishedAt: '2026-03-01T10:01:00.000Z',
        }),
      );
      await flushAndRender(fixture);
      expect(notifier.show).toHaveBeenCalledWith('quality.scanDone', { name: 'Movies' });
      http.expectOne(BASE).flush({ data: [aLibrary()] });
      await flushAndRender(fixture);
      expect(byTestId(root, 'scan-progress')).toBeNull();
      expect((byTestId(root, 'scan-lib-movies') as HTMLButtonElement).disabled).toBe(false);
    });

    it('should follow the running scan on 409 SCAN_IN_PROGRESS instead of failing', async () => {
      const root = await render([aLibrary()]);
      jest.useFakeTimers({ advanceTimers: true });
      byTestId(root, 'scan-lib-movies')!.click();
      await flushAndRender(fixture);
      http
        .expectOne(`${BASE}/lib-movies/scan`)
        .flush(errorBody('SCAN_IN_PROGRESS'), { status: 409, statusText: 'Conflict' });
      await flushAndRender(fixture);
      const runs = http.expectOne((r) => r.url === '/api/v1/admin/jobs/media_quality_scan/runs');
      runs.flush({
        data: [aRun({ params: { libraryId: 'all' } })],
        total: 1,
        page: 1,
        pageSize: 1,
      });
      await flushAndRender(fixture);
      expect(byTestId(root, 'quality-action-error')).toBeNull();
      // An `all` scan covers every card.
      expect(root.querySelectorAll('[data-testid="scan-progress"]')).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(POLL_FAST_MS);
      http.expectOne(`/api/v1/admin/job-runs/${RUN_ID}`).flush(
        aRun({
          status: 'failed',
          error: 'media server down',
          finishedAt: '2026-03-01T10:01:00.000Z',
        }),
      );
      await flushAndRender(fixture);
      expect(notifier.show).toHaveBeenCalledWith('quality.scanFailed', {
        name: 'Movies',
        error: 'media server down',
      });
      http.expectOne(BASE).flush({ data: [aLibrary()] });
    });

    it('should attach to a scan the list says is running when the page opens', async () => {
      const root = await render([aLibrary({}, { scanning: true })]);
      const runs = http.expectOne((r) => r.url === '/api/v1/admin/jobs/media_quality_scan/runs');
      runs.flush({ data: [aRun({ summary: progress(100, 400) })], total: 1, page: 1, pageSize: 1 });
      await flushAndRender(fixture);
      expect(root.textContent).toContain('Scanning');
      const bar = root.querySelector('[data-library="lib-movies"] [data-percent]')!;
      expect(bar.getAttribute('data-percent')).toBe('25');
      // Destroying the page stops the polling; nothing else is asked.
      fixture.destroy();
    });
  });

  describe('the report', () => {
    let fixture: ComponentFixture<ReportPage>;

    async function render(
      inputs: Record<string, string>,
      report: QualityReport = aReport(),
    ): Promise<HTMLElement> {
      setUp();
      fixture = TestBed.createComponent(ReportPage);
      for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
      await fixture.whenStable();
      const req = http.expectOne((r) => r.url === `${BASE}/${inputs['libraryId']}`);
      expect(req.request.params.get('page')).toBe(inputs['page'] ?? '1');
      req.flush(report);
      await flushAndRender(fixture);
      return fixture.nativeElement as HTMLElement;
    }

    it('should show the charts and the low-quality titles', async () => {
      const root = await render({ libraryId: 'lib-movies' });
      expect(byTestId(root, 'report-name')!.textContent).toContain('Movies');
      const headings = [...root.querySelectorAll('app-chart-card h2')].map((h) =>
        h.textContent!.trim(),
      );
      expect(headings).toEqual(['Resolution', 'Video codec', 'HDR']);
      const charts = [...root.querySelectorAll('[data-testid="chart"]')];
      expect(charts[0]!.getAttribute('aria-label')).toBe(
        'Resolution. 4K: 2 (20%); 1080p: 4 (40%); 720p: 2 (20%); SD: 2 (20%).',
      );
      const rows = root.querySelectorAll('[data-testid="low-quality-table"] tbody tr');
      expect(rows[0]!.textContent).toContain('Casablanca');
      expect(rows[0]!.textContent).toContain('SD');
      expect(rows[1]!.textContent).toContain('The Bear');
      expect(rows[1]!.textContent).toContain('3 episodes');
      expect(rows[1]!.querySelector('a')!.getAttribute('href')).toContain('group=g-bear');
    });

    it('should page the low-quality titles from the URL and warn about failed libraries', async () => {
      const root = await render(
        { libraryId: 'all', page: '2' },
        aReport({
          library: { id: 'all', name: 'all' },
          failedLibraries: [{ id: 'lib-shows', name: 'Shows', error: 'timed out' }],
        }),
      );
      expect(byTestId(root, 'report-name')!.textContent).toContain('All libraries');
      expect(byTestId(root, 'failed-libraries')!.textContent).toContain('Shows — timed out');
    });

    it('should offer a scan when there is no report yet', async () => {
      const root = await render(
        { libraryId: 'lib-movies' },
        aReport({
          state: 'missing',
          computedAt: null,
          itemCount: 0,
          lowQuality: { data: [], total: 0, page: 1, pageSize: 20 },
        }),
      );
      expect(root.textContent).toContain('There is no report yet.');
      expect(root.querySelector('app-chart-card')).toBeNull();
    });

    it('should drill into a series, its episodes grouped by season', async () => {
      const root = await render({ libraryId: 'lib-shows', group: 'g-bear' });
      const req = http.expectOne(`${BASE}/lib-shows/groups/g-bear`);
      const ep = (season: number, episode: number, name: string) => ({
        itemId: `${season}x${episode}`,
        name,
        season,
        episode,
        width: 1280,
        height: 720,
        resolution: 'hd720' as const,
        codec: 'mpeg2',
        hdr: 'hlg' as const,
        bitrate: 8_000_000,
      });
      req.flush({
        group: {
          groupId: 'g-bear',
          kind: 'series',
          name: 'The Bear',
          itemCount: 3,
          worstResolution: 'hd720',
        },
        items: [ep(1, 1, 'System'), ep(1, 2, 'Hands'), ep(2, 1, 'Beef')],
        seasons: [
          { season: 1, itemCount: 2 },
          { season: 2, itemCount: 1 },
        ],
      } satisfies QualityGroupDetail);
      await flushAndRender(fixture);
      const group = byTestId(root, 'quality-group')!;
      expect(byTestId(group, 'group-name')!.textContent).toContain('The Bear');
      expect(
        [...group.querySelectorAll('h3')].map((h) => h.textContent!.replace(/\s+/g, ' ').trim()),
      ).toEqual(['Season 1 2 episodes', 'Season 2 1 episode']);
      const first = group.querySelector('[data-testid="group-items"] tbody tr')!;
      expect(first.textContent).toContain('S01E01');
      expect(first.textContent).toContain('1280 × 720');
      expect(first.textContent).toContain('MPEG2');
      expect(first.textContent).toContain('HLG');
      expect(first.textContent).toContain('8.0 Mbit/s');
      expect(byTestId(root, 'low-quality-table')).toBeNull();
      // The drill-down is the page's subject now: the charts make way for it.
      expect(root.querySelector('app-chart-card')).toBeNull();
    });
  });
});
