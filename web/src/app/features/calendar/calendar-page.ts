import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  computed,
  effect,
  inject,
  input,
  signal,
  untracked,
} from '@angular/core';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatTooltip } from '@angular/material/tooltip';
import { Router } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { CalendarItem, JobRun } from '@usher/contracts';
import type { CalendarScope, CalendarStatus } from '@usher/contracts/values';
import { ApiError } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { LanguageSwitch } from '../../core/i18n/language';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { SiteStore } from '../../core/site/site-store';
import { action, rowAction } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { FormError } from '../../shared/form-error';
import { dayParam, oneOfParam } from '../../shared/list-page';
import { LongActionTracker } from '../../shared/long-action';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { PosterImage } from '../../shared/requests/poster-image';
import { posterUrl } from '../../shared/requests/request-status';
import { StatusChip } from '../../shared/status-chip';
import { PageHeader } from '../../shared/page-header';
import { CalendarApi } from './calendar-api';
import {
  CALENDAR_STATUS_VIEW,
  STATUS_FILTERS,
  episodeCode,
  formatDay,
  formatWeek,
  parseStatus,
  shiftDay,
  syncProgress,
} from './calendar-view';

const SCOPES: readonly CalendarScope[] = ['global', 'following'];

/**
 * `/console/calendar?scope=&week=&status=` (60-web.md §4.2 "Watch calendar"): one week of the
 * tracked series' episodes, seven day columns on wide screens and stacked day sections on
 * phones (today scrolled into view), with Global | Following, status filters with the week's
 * counts, follow toggles and, for admins, "Sync now" with the run's progress (§5). Days are the
 * business-timezone dates the API sends; nothing here converts them.
 */
@Component({
  selector: 'app-calendar-page',
  imports: [
    PageHeader,
    MatButton,
    MatButtonToggle,
    MatButtonToggleGroup,
    MatIcon,
    MatIconButton,
    MatProgressBar,
    MatTooltip,
    TranslocoDirective,
    EmptyState,
    ErrorState,
    FormError,
    PosterImage,
    StatusChip,
  ],
  providers: [LongActionTracker],
  templateUrl: './calendar-page.html',
  styleUrl: './calendar-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class CalendarPage {
  private readonly api = inject(CalendarApi);
  private readonly router = inject(Router);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);
  private readonly tracker = inject(LongActionTracker);
  private readonly site = inject(SiteStore);
  private readonly language = inject(LanguageSwitch);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  protected readonly session = inject(SessionStore);

  // Query params (bound by the router).
  readonly scope = input<string | undefined>();
  readonly week = input<string | undefined>();
  readonly status = input<string | undefined>();

  protected readonly query = computed(() => ({
    scope: (oneOfParam(this.scope(), SCOPES) || 'global') as CalendarScope,
    week: dayParam(this.week()),
    status: parseStatus(this.status()),
  }));
  protected readonly data = apiResource({
    params: () => this.query(),
    load: (q) => this.api.week(q),
  });
  protected readonly filters = STATUS_FILTERS;
  protected readonly statusView = CALENDAR_STATUS_VIEW;
  protected readonly code = episodeCode;
  /** The episode whose follow toggle is busy (its series' tmdb id). */
  /** Follow / unfollow, one series at a time (a second click meanwhile is ignored). */
  protected readonly following = rowAction();
  protected readonly syncRun = signal<JobRun | null>(null);
  protected readonly syncing = action();
  protected readonly syncStarted = signal<number | null>(null);
  protected readonly progress = computed(() => syncProgress(this.syncRun()));
  /** Seconds since "Sync now", refreshed with every poll of the run. */
  protected readonly elapsed = computed(() => {
    this.syncRun();
    const started = this.syncStarted();
    return started === null ? 0 : Math.max(0, Math.round((Date.now() - started) / 1000));
  });

  protected readonly weekLabel = computed(() => {
    const week = this.data.value()?.week;
    return week ? formatWeek(week.start, week.end, this.language.active()) : '';
  });

  constructor() {
    // Phones: the day list opens at today (60-web.md §4.2 "today highlighted and scrolled").
    effect(() => {
      const week = this.data.value();
      if (!week?.days.some((d) => d.isToday)) return;
      untracked(() =>
        requestAnimationFrame(() => {
          if (window.matchMedia('(min-width: 1280px)').matches) return;
          this.host.nativeElement
            .querySelector('[data-today="true"]')
            // jsdom (unit tests) has no scrollIntoView.
            ?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
        }),
      );
    });
  }

  protected dayTitle(day: string): string {
    return formatDay(day, this.language.active());
  }

  protected poster(item: CalendarItem): string | null {
    return posterUrl(this.site.site().tmdbImageBase, item.series.posterPath, 'w185');
  }

  protected navigate(params: Record<string, string | null>): void {
    void this.router.navigate([], { queryParams: params, queryParamsHandling: 'merge' });
  }

  protected setScope(scope: CalendarScope): void {
    this.navigate({ scope: scope === 'global' ? null : scope });
  }

  protected setStatus(status: CalendarStatus | ''): void {
    this.navigate({ status: status || null });
  }

  /** Previous / next week from the shown one; "Today" drops the parameter. */
  protected moveWeek(weeks: number): void {
    const start = this.data.value()?.week.start;
    if (!start) return;
    this.navigate({ week: weeks === 0 ? null : shiftDay(start, weeks * 7) });
  }

  /** The date picker jumps to the week holding the chosen day. */
  protected jumpTo(value: string): void {
    const day = dayParam(value);
    if (day) this.navigate({ week: day });
  }

  protected async toggleFollow(item: CalendarItem): Promise<void> {
    const series = item.series;
    if (item.following) {
      const ok = await confirmAction(this.dialog, {
        titleKey: 'calendar.unfollow.title',
        consequenceKeys: ['calendar.unfollow.consequence'],
        params: { name: series.name },
        confirmKey: 'calendar.unfollow.confirm',
      });
      if (!ok) return;
    }
    this.syncing.clear();
    await this.following.runFor(String(series.tmdbId), async () => {
      if (item.following) await this.api.unfollow(series.tmdbId);
      else await this.api.follow(series.tmdbId);
      this.notifier.show(item.following ? 'calendar.unfollowed' : 'calendar.followed', {
        name: series.name,
      });
      this.data.reload();
    });
  }

  /** Admins: start the sync (or follow the one running) and show its progress until it ends. */
  protected async sync(): Promise<void> {
    this.following.clear();
    this.syncStarted.set(Date.now());
    await this.syncing.run(
      async () => {
        const runId = await this.api.sync();
        const run = await this.tracker.track(
          async () => {
            const current = await this.api.run(runId);
            this.syncRun.set(current);
            return current;
          },
          (current) => current.status !== 'running',
        );
        const summary = run.summary as { progress?: { episodes?: number; ready?: number } } | null;
        if (run.status === 'failed') {
          this.notifier.show('calendar.sync.failed');
        } else if (run.status === 'skipped') {
          this.notifier.show('calendar.sync.skipped');
        } else {
          this.notifier.show('calendar.sync.done', {
            episodes: summary?.progress?.episodes ?? 0,
            ready: summary?.progress?.ready ?? 0,
          });
        }
        this.data.reload();
      },
      {
        handle: (error) => {
          const running = error instanceof ApiError && error.code === 'JOB_RUNNING';
          if (running) this.notifier.show('calendar.sync.busy');
          return running;
        },
        after: () => {
          this.syncRun.set(null);
          this.syncStarted.set(null);
        },
      },
    );
  }
}
