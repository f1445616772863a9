import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import { localListPage } from '../../shared/list-page';
import { ListView } from '../../shared/list-view';
import { LocalDatePipe } from '../../shared/local-date';
import { StatusChip } from '../../shared/status-chip';
import { summaryText } from './cron-words';
import { JobsApi } from './jobs-api';
import { RUN_CHIPS, durationOf } from './run-status';

/** A job's run history (60-web.md §4 "Row expand"): paged, newest first, summaries and errors. */
@Component({
  selector: 'app-job-runs',
  imports: [TranslocoDirective, ListView, LocalDatePipe, StatusChip],
  template: `
    <ng-container *transloco="let t">
      <app-list-view
        [list]="runs"
        emptyIcon="history"
        [emptyMessage]="t('jobs.noRuns')"
        [testId]="'runs-' + name()"
      >
        <table class="list runs" [attr.data-testid]="'runs-' + name()">
          <thead>
            <tr>
              <th scope="col" class="col-datetime">{{ t('jobs.col.started') }}</th>
              <th scope="col">{{ t('jobs.col.trigger') }}</th>
              <th scope="col" class="col-status">{{ t('jobs.col.outcome') }}</th>
              <th scope="col" class="col-num">{{ t('jobs.col.duration') }}</th>
              <th scope="col" class="col-wide">{{ t('jobs.col.message') }}</th>
              <th scope="col">{{ t('jobs.col.replica') }}</th>
            </tr>
          </thead>
          <tbody>
            @for (run of runs.rows(); track run.id) {
              <tr [attr.data-run-status]="run.status">
                <td [attr.data-label]="t('jobs.col.started')">
                  {{ run.startedAt | localDate: 'dateTime' }}
                </td>
                <td [attr.data-label]="t('jobs.col.trigger')">
                  {{ t('jobs.trigger.' + run.trigger) }}
                </td>
                <td [attr.data-label]="t('jobs.col.outcome')">
                  <app-status-chip
                    [tone]="chips[run.status].tone"
                    [icon]="chips[run.status].icon"
                    [label]="t('jobs.status.' + run.status)"
                  />
                </td>
                <td [attr.data-label]="t('jobs.col.duration')">
                  @if (durationOf(run); as d) {
                    {{ t(d.key, d.params) }}
                  }
                </td>
                <td [attr.data-label]="t('jobs.col.message')" class="message">
                  @if (run.error) {
                    <span class="error">{{ run.error }}</span>
                  }
                  {{ summary(run.summary) }}
                </td>
                <td [attr.data-label]="t('jobs.col.replica')" class="mono">{{ run.replicaId }}</td>
              </tr>
            }
          </tbody>
        </table>
      </app-list-view>
    </ng-container>
  `,
  styleUrl: './job-runs.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class JobRuns {
  private readonly api = inject(JobsApi);
  readonly name = input.required<string>();
  /** Bumped by the page when a run ends, so the history shows it. */
  readonly version = input(0);

  protected readonly runs = localListPage({
    params: () => ({ name: this.name(), version: this.version() }),
    load: (params, page, pageSize) => this.api.runs(params.name, page, pageSize),
    pageSize: 10,
  });
  protected readonly chips = RUN_CHIPS;
  protected readonly durationOf = durationOf;
  protected readonly summary = summaryText;
}
