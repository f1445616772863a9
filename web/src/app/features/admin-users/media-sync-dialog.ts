import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import {
  MAT_DIALOG_DATA,
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminUser } from '@usher/contracts';

/** What "Sync media now" should do: `policy` also rewrites the member policy template. */
export interface MediaSyncChoice {
  policy: boolean;
}

/**
 * "Sync media now" (60-web.md §4.3): applies the user's access to the media server at once,
 * bypassing the retry queue; optionally rewrites the member policy template too.
 */
@Component({
  selector: 'app-media-sync-dialog',
  imports: [
    MatButton,
    MatCheckbox,
    MatDialogActions,
    MatDialogClose,
    MatDialogContent,
    MatDialogTitle,
    TranslocoDirective,
  ],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>{{ t('adminUsers.syncTitle', { name: user.username }) }}</h2>
      <mat-dialog-content>
        <p>{{ t('adminUsers.syncExplain') }}</p>
        <mat-checkbox
          [checked]="policy()"
          (change)="policy.set($event.checked)"
          data-testid="sync-policy"
          >{{ t('adminUsers.syncPolicy') }}</mat-checkbox
        >
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" [mat-dialog-close]="undefined">
          {{ t('dialogs.cancel') }}
        </button>
        <button
          mat-flat-button
          type="button"
          [mat-dialog-close]="{ policy: policy() }"
          data-testid="sync-ok"
        >
          {{ t('adminUsers.syncMedia') }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaSyncDialog {
  protected readonly user = inject<AdminUser>(MAT_DIALOG_DATA);
  protected readonly policy = signal(false);
}
