import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import { apiResource } from '../../core/api/api-resource';
import { ChartCard } from '../../shared/chart/chart-card';
import { playMethodsSpec, playsPerDaySpec, usageSpec } from '../../shared/playback/playback-charts';
import type { PlaybackProfilesPage, PlaybackRecord } from '@usher/contracts';
import { LanguageSwitch } from '../../core/i18n/language';
import { FilterBar, type FilterSpec } from '../../shared/filter-field';
import { dayParam, listPage, oneOfParam } from '../../shared/list-page';
import { DATA_TABLE, type TableSort, type TableSpec } from '../../shared/data-table';
import { PosterImage } from '../../shared/requests/poster-image';
import {
  PLAYBACK_RANGES,
  PROFILE_SORTS,
  type ProfilesQuery,
  PlaybackApi,
} from '../../shared/playback/playback-api';
import { PluginNotice } from '../../shared/playback/plugin-notice';
import {
  HISTORY_MAX_DAYS,
  formatDuration,
  playbackProblem,
  rangeProblem,
} from '../../shared/playback/playback-format';
import { RoutedTabGroup, routedTabs } from '../../shared/routed-tabs';
import { whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';
import { type PlayTotal, PLAY_SUMMARY } from '../../shared/playback/play-totals';

const TABS = ['history', 'profiles'] as const;
const HISTORY_FILTERS = ['username', 'keyword', 'from', 'to', 'userId'];
const PROFILE_FILTERS = ['range', 'keyword'];
const PROFILE_RANGES = PLAYBACK_RANGES.filter((r) => r !== 'custom');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type ProfileRow = PlaybackProfilesPage['data'][number];

/**
 * `/admin/playback?tab=history|profiles` (60-web.md §4.3 "Playback"): every play with its
 * filters (user, title, days ≤ 366) in the URL, and one summary row per viewer of a period,
 * sortable, under the period's totals. Users link to their Playback tab.
 */
@Component({
  selector: 'app-playback-page',
  imports: [
    ChartCard,
    ...PLAY_SUMMARY,
    FilterBar,
    DATA_TABLE,
    MatTab,
    MatTabGroup,
    RoutedTabGroup,
    PluginNotice,
    PosterImage,
    RouterLink,
    TranslocoDirective,
  ],
  templateUrl: './playback-page.html',
  styleUrl: './playback-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class PlaybackPage {
  private readonly api = inject(PlaybackApi);
  private readonly router = inject(Router);
  private readonly lang = inject(LanguageSwitch).active;
  private readonly transloco = inject(TranslocoService);

  // Query params (bound by the router).
  readonly tab = input<string | undefined>();
  readonly username = input<string | undefined>();
  readonly userId = input<string | undefined>();
  readonly keyword = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();
  readonly range = input<string | undefined>();
  readonly sort = input<string | undefined>();
  readonly order = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly tabs = routedTabs(TABS, this.tab, {
    // Each tab has its own filters: switching starts clean.
    go: (name) => void this.router.navigate([], { queryParams: { tab: name }, replaceUrl: true }),
  });
  protected readonly maxDays = HISTORY_MAX_DAYS;
  protected readonly duration = (seconds: number) => formatDuration(seconds, this.lang());

  /** A reversed or over-long day range is said instead of sent (the API would answer 400). */
  protected readonly historyProblem = computed(() =>
    rangeProblem(dayParam(this.from()), dayParam(this.to()), HISTORY_MAX_DAYS),
  );
  protected readonly history = listPage({
    query: () => ({
      userId: UUID.test(this.userId() ?? '') ? this.userId()! : '',
      username: (this.username() ?? '').trim().slice(0, 64),
      keyword: (this.keyword() ?? '').trim().slice(0, 100),
      from: dayParam(this.from()),
      to: dayParam(this.to()),
      ...paging(this.page(), this.pageSize()),
    }),
    load: (query, abort) => this.api.history(query, abort),
    filters: HISTORY_FILTERS,
    filtered: (q) => !!(q.userId || q.username || q.keyword || q.from || q.to),
    active: () => this.tabs.index() === 0 && this.historyProblem() === null,
  });
  /**
   * Charts above the history (issue 36): everyone's plays per day, how they played and in which
   * apps, for the history's days (default the last 30), aggregated by the API.
   */
  protected readonly everyone = apiResource({
    params: () =>
      this.tabs.index() === 0 && this.historyProblem() === null
        ? { from: dayParam(this.from()), to: dayParam(this.to()) }
        : undefined,
    load: (range, abort) => this.api.summary(range, abort),
  });
  protected readonly charts = computed(() => {
    const s = this.everyone.value();
    if (!s || s.totals.playCount === 0) return null;
    const lang = this.lang();
    const t = (key: string, params?: Record<string, unknown>) =>
      this.transloco.translate(`portrait.${key}`, params);
    return {
      perDay: playsPerDaySpec(s, lang, t),
      methods: playMethodsSpec(s.playMethods, t),
      clients: usageSpec(s.clients, t('client'), 'bar-horizontal', lang, t),
    };
  });

  protected readonly historyFilters: FilterSpec[] = [
    { param: 'username', label: 'adminPlayback.filter.username', testId: 'history-username' },
    { param: 'keyword', label: 'adminPlayback.filter.keyword', testId: 'history-keyword' },
    { param: 'from', label: 'adminPlayback.filter.from', type: 'date', testId: 'history-from' },
    { param: 'to', label: 'adminPlayback.filter.to', type: 'date', testId: 'history-to' },
  ];

  private readonly summary = signal<PlaybackProfilesPage['summary'] | null>(null);
  protected readonly profiles = listPage({
    query: (): ProfilesQuery => ({
      range: oneOfParam(this.range(), PROFILE_RANGES) || '30d',
      from: '',
      to: '',
      keyword: (this.keyword() ?? '').trim().slice(0, 100),
      sort: oneOfParam(this.sort(), PROFILE_SORTS) || 'duration',
      order: this.order() === 'asc' ? 'asc' : 'desc',
      ...paging(this.page(), this.pageSize()),
    }),
    load: async (query, abort) => {
      const reply = await this.api.profiles(query, abort);
      this.summary.set(reply.summary);
      return reply;
    },
    filters: PROFILE_FILTERS,
    filtered: (q) => !!q.keyword,
    active: () => this.tabs.index() === 1,
  });
  protected readonly summaryTotals = computed((): PlayTotal[] | null => {
    const s = this.summary();
    if (!s) return null;
    return [
      { label: 'adminPlayback.summary.users', count: s.userCount },
      { label: 'adminPlayback.summary.plays', count: s.playCount },
      { label: 'adminPlayback.summary.watchTime', seconds: s.durationSeconds },
    ];
  });
  protected readonly profileFilters: FilterSpec[] = [
    {
      param: 'range',
      label: 'adminPlayback.filter.range',
      options: PROFILE_RANGES.map((r) => ({ value: r, key: `portrait.range.${r}` })),
      testId: 'profiles-range',
    },
    { param: 'keyword', label: 'adminPlayback.filter.username', testId: 'profiles-keyword' },
    // The column headers sort on a desktop; a phone shows cards, so the sort is a field too.
    {
      param: 'sort',
      label: 'adminPlayback.filter.sort',
      options: [
        { value: 'duration', key: 'adminPlayback.col.watchTime' },
        { value: 'plays', key: 'adminPlayback.col.plays' },
        { value: 'activeDays', key: 'adminPlayback.col.activeDays' },
        { value: 'lastPlayed', key: 'adminPlayback.col.lastPlayed' },
      ],
      testId: 'profiles-sort',
    },
  ];
  // Column widths for the fixed table layout; the title and the user share what is left.
  protected readonly historyTable: TableSpec<PlaybackRecord> = {
    columns: [
      whenColumn('at', 'adminPlayback.col.at', (p) => p.at, { width: '9.5rem' }),
      { id: 'user', header: 'adminPlayback.col.user', width: '7rem' },
      { id: 'title', header: 'adminPlayback.col.title' },
      { id: 'client', header: 'adminPlayback.col.clientDevice', width: '10rem' },
      {
        id: 'method',
        header: 'adminPlayback.col.method',
        width: '7rem',
        key: (p) => `portrait.method.${p.playMethod}`,
      },
      { id: 'duration', header: 'adminPlayback.col.duration', width: '5.5rem' },
    ],
    rowAttrs: () => ({ 'data-testid': 'history-row' }),
    trackBy: (_: unknown, index: number) => index,
    emptyIcon: 'history',
    empty: 'adminPlayback.emptyHistory',
    testId: 'history',
  };
  protected readonly profileTable: TableSpec<ProfileRow> = {
    columns: [
      { id: 'user', header: 'adminPlayback.col.user' },
      { id: 'watchTime', header: 'adminPlayback.col.watchTime', width: '6.5rem', sort: 'duration' },
      {
        id: 'plays',
        header: 'adminPlayback.col.plays',
        width: '5rem',
        sort: 'plays',
        text: (r) => r.totals.playCount,
      },
      {
        id: 'activeDays',
        header: 'adminPlayback.col.activeDays',
        width: '5.5rem',
        sort: 'activeDays',
        text: (r) => r.totals.activeDays,
      },
      whenColumn('lastPlayed', 'adminPlayback.col.lastPlayed', (r) => r.totals.lastPlayedAt, {
        width: '10rem',
        sort: 'lastPlayed',
      }),
      {
        id: 'peak',
        header: 'adminPlayback.col.peakHour',
        width: '5rem',
        text: (r) => this.peak(r.peakHour),
      },
      {
        id: 'tags',
        header: 'adminPlayback.col.tags',
        width: '10rem',
        text: (r) => r.tags.join(' · '),
      },
    ],
    rowAttrs: () => ({ 'data-testid': 'profile-row' }),
    trackBy: (row: ProfileRow) => row.user.mediaUserId,
    emptyIcon: 'group',
    empty: 'adminPlayback.emptyProfiles',
    testId: 'profiles',
  };
  protected readonly profileSort = computed<TableSort>(() => ({
    key: this.profiles.query().sort,
    order: this.profiles.query().order,
  }));

  /** The plugin is missing: said once for the page instead of a failed list. */
  protected readonly pluginMissing = computed(() => {
    const list = this.tabs.index() === 0 ? this.history : this.profiles;
    return playbackProblem(list.failure()) === 'plugin';
  });

  protected filter(params: Record<string, string | null>): void {
    (this.tabs.index() === 0 ? this.history : this.profiles).navigate(params);
  }

  protected sortBy(sort: TableSort): void {
    this.profiles.navigate({ sort: sort.key, order: sort.order });
  }

  protected peak(hour: number | null): string {
    return hour === null ? '—' : `${String(hour).padStart(2, '0')}:00`;
  }
}
