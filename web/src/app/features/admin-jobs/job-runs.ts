import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import type { JobRun } from '@usher/contracts';
import { localListPage } from '../../shared/list-page';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { summaryInLanguage } from './cron-words';
import { JobsApi } from './jobs-api';
import { RUN_CHIPS, durationOf } from './run-status';
import { chipColumn, whenColumn } from '../../shared/data-table-columns';

/** A job's run history (60-web.md §4 "Row expand"): paged, newest first, summaries and errors. */
@Component({
  selector: 'app-job-runs',
  imports: [TranslocoDirective, DATA_TABLE],
  template: `
    <ng-container *transloco="let t">
      <app-data-table
        [list]="runs"
        [spec]="table"
        [testId]="'runs-' + name()"
        [tableTestId]="'runs-' + name()"
      >
        <ng-template appCell="duration" [appCellOf]="runs" let-run>
          @if (durationOf(run); as d) {
            {{ t(d.key, d.params) }}
          }
        </ng-template>
        <ng-template appCell="message" [appCellOf]="runs" let-run>
          <span class="message">
            @if (run.error) {
              <span class="error">{{ run.error }}</span>
            }
            {{ summary(run.summary) }}
          </span>
        </ng-template>
      </app-data-table>
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
  protected readonly table: TableSpec<JobRun> = {
    columns: [
      whenColumn('started', 'jobs.col.started', (r) => r.startedAt),
      { id: 'trigger', header: 'jobs.col.trigger', key: (r) => `jobs.trigger.${r.trigger}` },
      chipColumn('outcome', 'jobs.col.outcome', (r) => ({
        ...RUN_CHIPS[r.status],
        label: `jobs.status.${r.status}`,
      })),
      { id: 'duration', header: 'jobs.col.duration', width: 'num' },
      { id: 'message', header: 'jobs.col.message', width: 'wide' },
      { id: 'replica', header: 'jobs.col.replica', cellClass: 'mono', text: (r) => r.replicaId },
    ],
    rowAttrs: (run: JobRun) => ({ 'data-run-status': run.status }),
    emptyIcon: 'history',
    empty: 'jobs.noRuns',
  };
  protected readonly durationOf = durationOf;
  protected readonly summary = summaryInLanguage();
}
