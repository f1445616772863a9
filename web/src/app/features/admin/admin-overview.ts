import { CountPipe } from '../../shared/count';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { AdminDashboard, PlaybackSummary, SessionList, SystemInfo } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { numberFormat } from '../../core/i18n/intl';
import { LanguageSwitch } from '../../core/i18n/language';
import { AdminCounts } from '../../core/shell/admin-counts';
import { ChartCard } from '../../shared/chart/chart-card';
import type { ChartSpec } from '../../shared/chart/chart-options';
import { livePoll } from '../../shared/live-poll';
import { LocalDatePipe } from '../../shared/local-date';
import { MoneyPipe } from '../../shared/money';
import { ErrorState } from '../../shared/page-state';
import { PlaybackApi } from '../../shared/playback/playback-api';
import { PluginNotice } from '../../shared/playback/plugin-notice';
import { playsPerDaySpec } from '../../shared/playback/playback-charts';
import { formatDuration, playbackProblem } from '../../shared/playback/playback-format';
import { PosterCard } from '../../shared/poster-card/poster-card';
import { PosterRail } from '../../shared/poster-card/poster-rail';
import { SessionsApi, liveStreams } from '../admin-sessions';
import { UsersApi } from '../admin-users';
import { DashboardApi } from './dashboard-api';
import { NowPlaying } from './now-playing';

/** How often the live streams are read while the tab is visible. */
export const LIVE_POLL_MS = 15_000;

/** Members whose membership ends within this many days count as "expiring soon". */
export const EXPIRING_DAYS = 7;

/** One "needs attention" tile: a count, where to act on it, and whether it is an alarm. */
export interface AttentionTile {
  id: string;
  icon: string;
  count: number;
  link: string;
  query: Record<string, string>;
  /** `error` for things that failed, `warning` for work waiting; zero is always calm. */
  tone: 'error' | 'warning';
}

/** A local calendar day `YYYY-MM-DD`, `days` after `from`. */
export function dayAfter(from: Date, days: number): string {
  const date = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The users-list query of members whose membership ends in the next `EXPIRING_DAYS` days. */
export function expiringQuery(today: Date) {
  return {
    status: 'active',
    expiresAfter: dayAfter(today, 0),
    expiresBefore: dayAfter(today, EXPIRING_DAYS),
    sort: 'expiresAt',
    order: 'asc',
  } as const;
}

/** The tiles of what needs attention, from system info and the expiring-members total. */
export function attentionTiles(
  info: SystemInfo,
  expiring: number | null,
  today: Date,
): AttentionTile[] {
  const failedJobs = info.jobs.filter((job) => job.lastRun?.status === 'failed').length;
  const tiles: AttentionTile[] = [
    {
      id: 'pendingRequests',
      icon: 'fact_check',
      count: info.requests.pending,
      link: '/admin/requests',
      query: { status: 'pending' },
      tone: 'warning',
    },
    {
      id: 'automationErrors',
      icon: 'error',
      count: info.requests.automationErrors,
      link: '/admin/requests',
      query: { automationError: 'true' },
      tone: 'error',
    },
    {
      id: 'failedJobs',
      icon: 'schedule',
      count: failedJobs,
      link: '/admin/jobs',
      query: {},
      tone: 'error',
    },
    {
      id: 'retryQueue',
      icon: 'sync',
      count: info.retryQueue.pending + info.retryQueue.gaveUp,
      link: '/admin/jobs',
      query: {},
      tone: info.retryQueue.gaveUp > 0 ? 'error' : 'warning',
    },
  ];
  if (expiring !== null) {
    tiles.splice(1, 0, {
      id: 'expiringSoon',
      icon: 'event_busy',
      count: expiring,
      link: '/admin/users',
      query: { ...expiringQuery(today) },
      tone: 'warning',
    });
  }
  if (info.settings.undecryptable > 0) {
    tiles.push({
      id: 'undecryptable',
      icon: 'lock_reset',
      count: info.settings.undecryptable,
      link: '/admin/settings',
      query: {},
      tone: 'error',
    });
  }
  return tiles;
}

/** A relative change from `before` to `now` (0.25 = +25 %); null when there was nothing before. */
export function changeOf(now: number, before: number): number | null {
  return before > 0 ? (now - before) / before : null;
}

/** One currency's revenue line: this month, the same days of the last month, the change. */
export interface RevenueLine {
  currency: string;
  thisMonth: number;
  thisMonthCount: number;
  lastMonthToDate: number;
  lastMonth: number;
  change: number | null;
}

export function revenueLines(dashboard: AdminDashboard): RevenueLine[] {
  return dashboard.revenue.currencies.map((c) => ({
    ...c,
    change: changeOf(c.thisMonth, c.lastMonthToDate),
  }));
}

/** Integration name in system info → the settings group that configures it. */
export const INTEGRATION_GROUPS: Record<keyof SystemInfo['integrations'], string> = {
  mediaServer: 'media_server',
  metadata: 'metadata',
  automation: 'automation',
  email: 'email',
  payments: 'payment',
  bot: 'messenger',
};

/**
 * `/admin/overview`, the admin landing (issue 14 "what now?", issue 36 "a dashboard that moves"):
 * live streams and transcodes (read every 15 s while the tab is visible), plays per day over 30
 * days, revenue this month against the same days of the last, members joining against members
 * about to lapse, the most watched titles as posters — then what needs attention, each with its
 * count and a link to the filtered list, failed jobs and integrations still to set up.
 */
@Component({
  selector: 'app-admin-overview',
  imports: [
    ChartCard,
    CountPipe,
    ErrorState,
    LocalDatePipe,
    MatIcon,
    MoneyPipe,
    PluginNotice,
    PosterCard,
    NowPlaying,
    PosterRail,
    RouterLink,
    TranslocoDirective,
  ],
  templateUrl: './admin-overview.html',
  styleUrl: './admin-overview.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class AdminOverview {
  private readonly counts = inject(AdminCounts);
  private readonly users = inject(UsersApi);
  private readonly dashboardApi = inject(DashboardApi);
  private readonly playbackApi = inject(PlaybackApi);
  private readonly sessionsApi = inject(SessionsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly transloco = inject(TranslocoService);
  private readonly lang = inject(LanguageSwitch).active;
  private readonly today = new Date();

  protected readonly info = apiResource({ params: () => true, load: () => this.counts.fetch() });
  protected readonly dashboard = apiResource({
    params: () => true,
    load: (_, abort) => this.dashboardApi.load(abort),
  });
  protected readonly plays = apiResource({
    params: () => true,
    load: (_, abort) => this.playbackApi.summary(undefined, abort),
  });
  /** The plugin or the media server is not set up: said once, in place of the play charts. */
  protected readonly playsProblem = computed(() => playbackProblem(this.plays.failure()));
  protected readonly expiring = apiResource({
    params: () => true,
    load: () =>
      this.users.list({
        search: '',
        role: '',
        isActive: '',
        mediaState: '',
        ...expiringQuery(this.today),
        page: 1,
        pageSize: 5,
      }),
  });

  // Live streams: the last list read, kept while a later read fails.
  protected readonly sessions = signal<SessionList | null>(null);
  protected readonly sessionsError = signal<ErrorText | null>(null);
  protected readonly sessionsNotConfigured = signal(false);
  private reading = false;
  protected readonly poll = livePoll(() => this.readSessions(), LIVE_POLL_MS);
  protected readonly streams = computed(() => liveStreams(this.sessions()));

  protected readonly revenue = computed(() => {
    const d = this.dashboard.value();
    return d ? revenueLines(d) : null;
  });
  /** The scale of the members bars: the larger of joining and expiring. */
  protected readonly memberScale = computed(() => {
    const m = this.dashboard.value()?.members;
    return m ? Math.max(1, m.joined30d, m.expiring30d, m.lapsed30d) : 1;
  });
  protected readonly playsChart = computed<ChartSpec | null>(() => {
    const s = this.plays.value();
    return s ? this.playsSpec(s) : null;
  });
  protected readonly duration = (seconds: number) => formatDuration(seconds, this.lang());

  protected readonly expiringQuery = expiringQuery(this.today);
  protected readonly expiringDays = EXPIRING_DAYS;
  protected readonly tiles = computed(() => {
    const info = this.info.value();
    if (!info) return null;
    return attentionTiles(info, this.expiring.value()?.total ?? null, this.today);
  });
  protected readonly allClear = computed(
    () => this.tiles()?.every((tile) => tile.count === 0) ?? false,
  );
  protected readonly failedJobs = computed(
    () => this.info.value()?.jobs.filter((job) => job.lastRun?.status === 'failed') ?? [],
  );
  protected readonly notConfigured = computed(() => {
    const integrations = this.info.value()?.integrations;
    if (!integrations) return [];
    return (Object.keys(INTEGRATION_GROUPS) as (keyof typeof INTEGRATION_GROUPS)[])
      .filter((name) => integrations[name] === 'not_configured')
      .map((name) => ({ name, group: INTEGRATION_GROUPS[name] }));
  });

  /** A job's translated name, or its API name for one this build does not know. */
  protected jobName(name: string): string {
    const key = `jobs.names.${name}.label`;
    const translation = this.transloco.getTranslation(this.transloco.getActiveLang());
    return typeof translation[key] === 'string' ? this.transloco.translate(key) : name;
  }

  /** "+25 %" / "−10 %" in the UI language. */
  protected percent(change: number): string {
    return numberFormat(this.lang(), {
      style: 'percent',
      maximumFractionDigits: 0,
      signDisplay: 'exceptZero',
    }).format(change);
  }

  /** A share of the members bars' scale, in %, for their width. */
  protected share(value: number): number {
    return Math.round((value / this.memberScale()) * 100);
  }

  protected async readSessions(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      this.sessions.set(await this.sessionsApi.list());
      this.sessionsError.set(null);
      this.sessionsNotConfigured.set(false);
    } catch (error) {
      const problem = playbackProblem(error);
      if (problem === 'server') {
        this.sessionsNotConfigured.set(true);
        this.poll.stop();
      } else this.sessionsError.set(this.errors.describe(error));
    } finally {
      this.reading = false;
    }
  }

  private playsSpec(s: PlaybackSummary): ChartSpec {
    return playsPerDaySpec(s, this.lang(), (key, params) =>
      this.transloco.translate(`portrait.${key}`, params),
    );
  }
}
