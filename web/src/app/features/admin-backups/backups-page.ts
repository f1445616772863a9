import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatAnchor, MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { BackupFile } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { Notifier } from '../../core/notifier';
import { action } from '../../shared/action';
import { downloadBlob } from '../../shared/csv';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { ErrorState } from '../../shared/page-state';
import { JobsApi } from '../admin-jobs';
import { BackupsApi } from './backups-api';
import { whenColumn } from '../../shared/data-table-columns';

const POLL_MS = 1000;

/** `12.3 MB`: sizes as an operator reads them (powers of 1000, like `ls -h --si`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * `/admin/backups` (issue 32): the backup files in BACKUP_DIR, newest first, each downloadable;
 * "Back up now" runs the `backup` job and follows its run. Restoring is an operator command
 * (`usher restore`), so the page only says how.
 */
@Component({
  selector: 'app-backups-page',
  imports: [
    DATA_TABLE,
    ErrorState,
    FormError,
    LocalDatePipe,
    MatAnchor,
    MatButton,
    MatIcon,
    RouterLink,
    TranslocoDirective,
  ],
  templateUrl: './backups-page.html',
  styleUrl: './backups-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class BackupsPage {
  private readonly api = inject(BackupsApi);
  private readonly jobs = inject(JobsApi);
  private readonly notifier = inject(Notifier);

  protected readonly backups = apiResource({ params: () => true, load: () => this.api.list() });
  /** "Back up now", followed until the run ends; a second press meanwhile is ignored. */
  protected readonly running = action();
  protected readonly downloading = action();
  protected readonly table: TableSpec<BackupFile> = {
    columns: [
      { id: 'name', header: 'adminBackups.name', cellClass: 'mono', text: (f) => f.name },
      { id: 'size', header: 'adminBackups.size', width: 'num', text: (f) => formatBytes(f.bytes) },
      whenColumn('created', 'adminBackups.created', (f) => f.createdAt),
      { id: 'download', header: 'common.actions', hideHeader: true, width: 'actions' },
    ],
    rowAttrs: (file: BackupFile) => ({ 'data-backup': file.name }),
    trackBy: (file: BackupFile) => file.name,
    tableTestId: 'backups-table',
  };

  protected async runNow(): Promise<void> {
    this.downloading.clear();
    await this.running.run(
      async () => {
        const runId = await this.api.runNow();
        let run = await this.jobs.getRun(runId);
        while (run.status === 'running') {
          await new Promise((r) => setTimeout(r, POLL_MS));
          run = await this.jobs.getRun(runId);
        }
        if (run.status === 'succeeded') {
          this.notifier.show('adminBackups.done', { name: String(run.summary?.['file'] ?? '') });
        } else {
          this.notifier.show('adminBackups.failed', { error: run.error ?? run.status });
        }
      },
      { after: () => this.backups.reload() },
    );
  }

  protected async download(file: BackupFile): Promise<void> {
    this.running.clear();
    await this.downloading.run(async () =>
      downloadBlob(file.name, await this.api.download(file.name)),
    );
  }
}
