import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import type { AdminDashboard, AdminUser, PlaybackSummary, Session } from '@usher/contracts';
import { liveStreams } from '../admin-sessions';
import { aUser, errorBody, settle } from '../../../testing/fixtures';
import { stubResizeObserver } from '../../../testing/dom';
import { aSummary } from '../../../testing/playback';
import { provideFakeCharts, provideTestApp } from '../../../testing/providers';
import { aSystemInfo } from '../../../testing/system-info';
import { AdminCounts } from '../../core/shell/admin-counts';
import AdminOverview, {
  LIVE_POLL_MS,
  attentionTiles,
  changeOf,
  dayAfter,
  expiringQuery,
  revenueLines,
} from './admin-overview';

const INFO_URL = '/api/v1/admin/system/info';
const USERS_URL = '/api/v1/admin/users';
const DASHBOARD_URL = '/api/v1/admin/dashboard';
const SUMMARY_URL = '/api/v1/admin/playback/summary';
const SESSIONS_URL = '/api/v1/admin/sessions';

export function aDashboard(overrides: Partial<AdminDashboard> = {}): AdminDashboard {
  return {
    generatedAt: '2026-11-25T12:00:00.000Z',
    timeZone: 'UTC',
    members: {
      active: 1480,
      expired: 212,
      joined30d: 42,
      expiring30d: 57,
      lapsed30d: 9,
      renewals30d: 130,
    },
    revenue: {
      thisMonth: '2026-11-01',
      lastMonth: '2026-10-01',
      currencies: [
        {
          currency: 'usd',
          thisMonth: 12_500,
          thisMonthCount: 25,
          lastMonthToDate: 10_000,
          lastMonth: 14_000,
          lastMonthCount: 28,
        },
      ],
    },
    ...overrides,
  };
}

const playing = (id: string, transcoding: boolean): Session => ({
  id,
  user: {
    mediaUserId: 'm1',
    name: 'alice',
    userId: '01936f6e-8a7b-7c3d-9e4f-0123456789ab',
    username: 'alice',
  },
  client: 'Infuse',
  deviceName: 'Apple TV',
  deviceId: `d-${id}`,
  appVersion: '1',
  remoteAddress: null,
  lastActivityAt: null,
  nowPlaying: {
    itemId: `i-${id}`,
    name: 'Hands',
    type: 'Episode',
    seriesName: 'The Bear',
    season: 1,
    episode: 2,
    runtimeSeconds: 1800,
  },
  playState: {
    positionSeconds: 900,
    isPaused: false,
    playMethod: transcoding ? 'Transcode' : 'DirectPlay',
    progress: 0.5,
    transcoding,
    bitrate: null,
  },
});

const member = (username: string, expiresAt: string): AdminUser => ({
  ...aUser({ id: '01936f6e-8a7b-7c3d-9e4f-0000000000a1', username, expiresAt }),
  mediaDisabled: false,
  mediaAccessDisabled: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** The admin landing answers "what now?" (issue 14). */
describe('AdminOverview', () => {
  let fixture: ComponentFixture<AdminOverview>;
  let http: HttpTestingController;
  let root: HTMLElement;

  async function render(
    info = aSystemInfo(),
    expiring: AdminUser[] = [],
    total = 0,
    live: {
      dashboard?: AdminDashboard;
      summary?: PlaybackSummary | { status: number; body: object };
      sessions?: Session[];
    } = {},
  ) {
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), provideFakeCharts()],
    });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(AdminOverview);
    root = fixture.nativeElement as HTMLElement;
    await fixture.whenStable();
    http
      .expectOne(SESSIONS_URL)
      .flush({ data: live.sessions ?? [], fetchedAt: '2026-11-25T12:00:00.000Z' });
    http.expectOne(DASHBOARD_URL).flush(live.dashboard ?? aDashboard());
    const summary = live.summary ?? aSummary();
    if ('status' in summary) {
      http
        .expectOne((r) => r.url === SUMMARY_URL)
        .flush(summary.body, {
          status: summary.status,
          statusText: 'x',
        });
    } else http.expectOne((r) => r.url === SUMMARY_URL).flush(summary);
    http.expectOne(INFO_URL).flush(info);
    const users = http.expectOne((r) => r.url === USERS_URL);
    expect(users.request.params.get('status')).toBe('active');
    expect(users.request.params.get('sort')).toBe('expiresAt');
    expect(users.request.params.get('pageSize')).toBe('5');
    users.flush({ data: expiring, total: total || expiring.length, page: 1, pageSize: 5 });
    await settle();
    await fixture.whenStable();
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  beforeAll(() => stubResizeObserver());
  afterEach(() => http.verify());

  it('should count what needs attention, each tile linking to the filtered list', async () => {
    const info = aSystemInfo({
      requests: { pending: 4, automationErrors: 1 },
      retryQueue: { pending: 1, gaveUp: 1 },
      settings: { undecryptable: 2 },
      jobs: [
        {
          name: 'expiry_check',
          lastRun: {
            status: 'failed',
            trigger: 'schedule',
            startedAt: '2026-11-24T03:00:00.000Z',
            finishedAt: '2026-11-24T03:00:01.000Z',
            error: 'database unavailable',
          },
        },
        { name: 'cleanup', lastRun: null },
      ],
    });
    await render(info, [member('iris', '2026-11-27T00:00:00.000Z')], 6);
    const pending = byTestId('tile-pendingRequests')!;
    expect(pending.textContent).toContain('4');
    expect(pending.textContent).toContain('Requests to review');
    expect(pending.getAttribute('href')).toBe('/admin/requests?status=pending');
    expect(byTestId('tile-automationErrors')!.getAttribute('href')).toBe(
      '/admin/requests?automationError=true',
    );
    expect(byTestId('tile-expiringSoon')!.textContent).toContain('6');
    expect(byTestId('tile-expiringSoon')!.getAttribute('href')).toContain('status=active');
    expect(byTestId('tile-failedJobs')!.textContent).toContain('1');
    expect(byTestId('tile-retryQueue')!.classList).toContain('tone-error');
    expect(byTestId('tile-undecryptable')!.textContent).toContain('2');
    expect(byTestId('all-clear')).toBeNull();
    expect(byTestId('expiring-list')!.textContent).toContain('iris');
    expect(root.textContent).toContain('See all 6');
    expect(byTestId('failed-jobs')!.textContent).toContain('database unavailable');
    // Automation, payments and the bot are not configured in the fixture: links to their groups.
    const setup = [...byTestId('not-configured')!.querySelectorAll('a')];
    expect(setup.map((a) => a.getAttribute('href'))).toEqual([
      '/admin/settings?group=automation',
      '/admin/settings?group=payment',
      '/admin/settings?group=messenger',
    ]);
    // The nav counts share the reply.
    expect(TestBed.inject(AdminCounts).count('pendingRequests')).toBe(4);
  });

  // Issue 36: the figures Tracearr and Jellystat open on, and the membership ones only Usher has.
  it('should open on live streams, plays, revenue against last month and members', async () => {
    await render(aSystemInfo(), [], 0, {
      sessions: [
        playing('a', true),
        playing('b', false),
        { ...playing('c', false), nowPlaying: null, playState: null },
      ],
    });
    expect(byTestId('kpi-streams-value')!.textContent!.trim()).toBe('2');
    expect(byTestId('kpi-transcodes')!.textContent).toContain('1 transcoding');
    expect(byTestId('kpi-plays-value')!.textContent!.trim()).toBe('1,234');
    expect(byTestId('kpi-revenue-value')!.textContent!.trim()).toBe('$125.00');
    // $125 against $100 by the same day last month.
    expect(byTestId('kpi-revenue-change')!.textContent).toContain('+25%');
    expect(byTestId('kpi-revenue-change')!.textContent).toContain('$100.00');
    expect(byTestId('kpi-members-value')!.textContent!.trim()).toBe('1,480');
    expect(byTestId('kpi-members')!.textContent).toContain('+42 joined');
    expect(byTestId('members-joined')!.textContent!.trim()).toBe('42');
    expect(byTestId('members-expiring')!.textContent!.trim()).toBe('57');
    expect(byTestId('members-lapsed')!.textContent!.trim()).toBe('9');
    expect(byTestId('members-renewals')!.textContent).toContain('130 renewals and purchases');
    expect(byTestId('plays-chart')).not.toBeNull();
    expect(byTestId('now-playing')!.querySelectorAll('li')).toHaveLength(2);
    expect(byTestId('now-playing')!.textContent).toContain('The Bear');
    const top = byTestId('top-title-0')!;
    expect(top.textContent).toContain('The Bear');
    expect(top.textContent).toContain('12 plays');
    expect(top.getAttribute('href')).toBe('/admin/playback?keyword=The%20Bear');
    expect(top.querySelector('img')!.getAttribute('src')).toContain('/posters/series-1');
  });

  it('should keep the membership figures when the plays cannot be read', async () => {
    await render(aSystemInfo(), [], 0, {
      summary: {
        status: 503,
        body: errorBody('NOT_CONFIGURED', 'x', { system: 'playback_reporting' }),
      },
    });
    expect(byTestId('plugin-missing')).not.toBeNull();
    expect(byTestId('plays-chart')).toBeNull();
    expect(byTestId('kpi-members-value')!.textContent!.trim()).toBe('1,480');
    expect(byTestId('kpi-plays')!.textContent).toContain('Not available right now');
  });

  it('should read the live streams again every 15 s, and not while paused', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'queueMicrotask'] });
    try {
      await render();
      jest.advanceTimersByTime(LIVE_POLL_MS);
      http
        .expectOne(SESSIONS_URL)
        .flush({ data: [playing('a', false)], fetchedAt: '2026-11-25T12:00:15.000Z' });
      await settle();
      await fixture.whenStable();
      expect(byTestId('kpi-streams-value')!.textContent!.trim()).toBe('1');
      byTestId('live-toggle')!.click();
      await fixture.whenStable();
      expect(byTestId('live-toggle')!.textContent).toContain('Paused');
      jest.advanceTimersByTime(LIVE_POLL_MS * 3);
      http.expectNone(SESSIONS_URL);
    } finally {
      jest.useRealTimers();
    }
  });

  it('should compare revenue with the same days of last month, and count streams', () => {
    expect(changeOf(150, 100)).toBe(0.5);
    expect(changeOf(50, 100)).toBe(-0.5);
    // Nothing last month: no percentage rather than an infinite one.
    expect(changeOf(100, 0)).toBeNull();
    expect(revenueLines(aDashboard())[0]!.change).toBe(0.25);
    expect(liveStreams({ data: [playing('a', true)], fetchedAt: '' })).toMatchObject({
      transcoding: 1,
    });
    expect(liveStreams(null)).toEqual({ playing: [], transcoding: 0 });
  });

  it('should say all clear when nothing waits', async () => {
    await render();
    expect(byTestId('all-clear')!.textContent).toContain('All clear');
    expect(byTestId('tile-undecryptable')).toBeNull();
    expect(byTestId('tile-pendingRequests')!.classList).toContain('calm');
    expect(root.textContent).toContain('No membership ends this week.');
  });

  it('should ask for the members whose membership ends in the next seven local days', () => {
    const today = new Date(2026, 11, 28, 23, 30);
    expect(dayAfter(today, 7)).toBe('2027-01-04');
    expect(expiringQuery(today)).toEqual({
      status: 'active',
      expiresAfter: '2026-12-28',
      expiresBefore: '2027-01-04',
      sort: 'expiresAt',
      order: 'asc',
    });
    // Without the users total (its load failed) the tile is left out, not shown as zero.
    const ids = attentionTiles(aSystemInfo(), null, today).map((tile) => tile.id);
    expect(ids).not.toContain('expiringSoon');
  });
});
