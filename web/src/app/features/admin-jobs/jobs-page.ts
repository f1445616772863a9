import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatProgressSpinner } from '@angular/material/progress-spinner';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { JobRun, JobSummary } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { LanguageSwitch } from '../../core/i18n/language';
import { Notifier } from '../../core/notifier';
import { rowAction } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { LongActionTracker } from '../../shared/long-action';
import { ErrorState } from '../../shared/page-state';
import { StatusChip } from '../../shared/status-chip';
import { cronWords, summaryInLanguage } from './cron-words';
import { JobRuns } from './job-runs';
import { JobsApi } from './jobs-api';
import { RUN_CHIPS, durationOf } from './run-status';

/** Jobs with a translated label and description (30-settings.md §9). */
export const KNOWN_JOBS = new Set([
  'expiry_check',
  'payments_expire',
  'media_server_retry',
  'calendar_sync',
  'ranking_daily',
  'ranking_weekly',
  'playback_sync',
  'devices_enforce_blacklist',
  'cleanup',
  'media_policy_apply',
  'media_quality_scan',
  'expiry_reminders',
  'announcements',
  'media_account_cleanup',
  'inactivity_watch',
  'backup',
]);

/** Jobs that change users ask before a manual run (60-web.md §4 "Run now"). */
const CONFIRM_FIRST = new Set(['expiry_check', 'media_policy_apply']);

interface Following {
  runId: string;
  since: number;
}

/**
 * `/admin/jobs` (60-web.md §4 "Scheduled jobs"): every job with its schedule in words and cron,
 * whether it is on, the next run that fires, the last run; "Run now" follows the run (§5) and
 * each row expands to its history.
 */
@Component({
  selector: 'app-jobs-page',
  imports: [
    MatButton,
    MatIcon,
    MatProgressSpinner,
    RouterLink,
    TranslocoDirective,
    ErrorState,
    FormError,
    DATA_TABLE,
    JobRuns,
    LocalDatePipe,
    StatusChip,
  ],
  providers: [LongActionTracker],
  templateUrl: './jobs-page.html',
  styleUrl: './jobs-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class JobsPage {
  private readonly api = inject(JobsApi);
  private readonly tracker = inject(LongActionTracker);
  private readonly notifier = inject(Notifier);
  private readonly dialog = inject(MatDialog);
  private readonly transloco = inject(TranslocoService);
  private readonly language = inject(LanguageSwitch);

  protected readonly jobs = apiResource({ params: () => true, load: () => this.api.list() });
  /** The job whose history is open. */
  protected readonly expanded = signal<string | null>(null);
  protected readonly table: TableSpec<JobSummary> = {
    columns: [
      { id: 'job', header: 'jobs.col.job' },
      { id: 'schedule', header: 'jobs.col.schedule', cellTestId: 'job-schedule' },
      { id: 'enabled', header: 'jobs.col.enabled', width: 'status' },
      { id: 'nextRun', header: 'jobs.col.nextRun', width: 'datetime', cellTestId: 'job-next-run' },
      { id: 'lastRun', header: 'jobs.col.lastRun', cellTestId: 'job-last-run' },
      { id: 'actions', header: 'common.actions', hideHeader: true, width: 'actions' },
    ],
    rowAttrs: (job: JobSummary) => ({ 'data-job': job.name }),
    trackBy: (job: JobSummary) => job.name,
    tableTestId: 'jobs-table',
  };
  protected readonly isExpanded = (job: JobSummary) => this.expanded() === job.name;
  /** Runs started here and followed until they end: job name → run. */
  protected readonly following = signal<Record<string, Following>>({});
  /** Bumped per job when a followed run ends, so an open history reloads. */
  protected readonly versions = signal<Record<string, number>>({});
  /** Starting a run: one job at a time, a second click meanwhile ignored. */
  protected readonly starting = rowAction();
  /** Ticks every second while a run is followed, for the elapsed time. */
  private readonly now = signal(Date.now());
  private ticker: ReturnType<typeof setInterval> | null = null;

  protected readonly switchedOff = computed(
    () => this.jobs.value()?.data.some((job) => job.disabledBy === 'JOBS_ENABLED') ?? false,
  );
  protected readonly chips = RUN_CHIPS;
  protected readonly durationOf = durationOf;
  protected readonly summary = summaryInLanguage();

  constructor() {
    inject(DestroyRef).onDestroy(() => this.stopTicker());
  }

  protected labelKey(job: JobSummary): string | null {
    return KNOWN_JOBS.has(job.name) ? `jobs.names.${job.name}` : null;
  }

  protected words(job: JobSummary): string | null {
    if (job.disabledBy === 'manual only') return this.transloco.translate('jobs.manualOnly');
    return cronWords(job.schedule, this.language.active());
  }

  /** Seconds since the followed run of `name` started, or null when none is followed here. */
  protected elapsed(name: string): number | null {
    const run = this.following()[name];
    return run ? Math.max(0, Math.round((this.now() - run.since) / 1000)) : null;
  }

  protected busy(job: JobSummary): boolean {
    return (
      job.running || this.following()[job.name] !== undefined || this.starting.key() === job.name
    );
  }

  protected toggle(name: string): void {
    this.expanded.update((open) => (open === name ? null : name));
  }

  protected async runNow(job: JobSummary): Promise<void> {
    const label = this.label(job);
    let runId: string | null = null;
    // Starting is guarded (a double click on "Run now" ran the job twice, issue 36); following
    // is not, so several jobs can run at once.
    await this.starting.runFor(
      job.name,
      async () => {
        if (CONFIRM_FIRST.has(job.name)) {
          const confirmed = await confirmAction(this.dialog, {
            titleKey: 'jobs.confirmTitle',
            consequenceKeys: [`jobs.consequence.${job.name}`],
            params: { job: label },
            confirmKey: 'jobs.runNow',
          });
          if (!confirmed) return;
        }
        runId = await this.api.run(job.name);
      },
      {
        handle: (error) => {
          if (!(error instanceof ApiError) || error.code !== 'JOB_RUNNING') return false;
          this.notifier.show('jobs.alreadyRunning', { job: label });
          this.jobs.reload();
          return true;
        },
      },
    );
    if (runId !== null) await this.follow(job.name, label, runId);
  }

  /** Polls the run until it ends (60-web.md §5), then says how it went and reloads the page. */
  private async follow(name: string, label: string, runId: string): Promise<void> {
    this.following.update((all) => ({ ...all, [name]: { runId, since: Date.now() } }));
    this.startTicker();
    let run: JobRun | null = null;
    try {
      run = await this.tracker.track(
        () => this.api.getRun(runId),
        (r) => r.status !== 'running',
      );
    } catch (error) {
      this.starting.fail(error);
    }
    this.following.update((all) => {
      const rest = { ...all };
      delete rest[name];
      return rest;
    });
    if (Object.keys(this.following()).length === 0) this.stopTicker();
    if (run) {
      const details = run.error ?? this.summary(run.summary);
      this.notifier.show(`jobs.finished.${run.status}`, { job: label, details });
    }
    this.versions.update((all) => ({ ...all, [name]: (all[name] ?? 0) + 1 }));
    this.jobs.reload();
  }

  private label(job: JobSummary): string {
    const key = this.labelKey(job);
    return key ? this.transloco.translate(`${key}.label`) : job.name;
  }

  private startTicker(): void {
    this.now.set(Date.now());
    this.ticker ??= setInterval(() => this.now.set(Date.now()), 1000);
  }

  private stopTicker(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
  }
}
