import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MAT_DIALOG_DATA } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { DIALOG_PARTS } from '../../shared/dialog-parts';

export interface BulkResultRow {
  username: string;
  ok: boolean;
  code?: string;
}

/** The outcome of a bulk action, user by user: ✓ or the error (60-web.md §4.3). */
@Component({
  selector: 'app-bulk-result-dialog',
  imports: [MatButton, MatIcon, TranslocoDirective, ...DIALOG_PARTS],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>
        {{ t('adminUsers.bulkResultTitle', { ok: okCount, total: rows.length }) }}
      </h2>
      <mat-dialog-content>
        <ul class="results" data-testid="bulk-results">
          @for (row of rows; track row.username) {
            <li>
              <mat-icon aria-hidden="true" [svgIcon]="row.ok ? 'check_circle' : 'error'" />
              <span>{{ row.username }}</span>
              <span>
                {{ row.ok ? t('adminUsers.bulkOk') : t('errors.' + (row.code ?? 'UNKNOWN')) }}
              </span>
            </li>
          }
        </ul>
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-flat-button type="button" [mat-dialog-close]="true">
          {{ t('dialogs.done') }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  styleUrl: './dialogs.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class BulkResultDialog {
  protected readonly rows = inject<BulkResultRow[]>(MAT_DIALOG_DATA);
  protected readonly okCount = this.rows.filter((r) => r.ok).length;
}
