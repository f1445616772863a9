import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatCheckbox } from '@angular/material/checkbox';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import { DialogShell } from '../../shared/dialog-shell';
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
  imports: [MatCheckbox, TranslocoDirective, DialogShell],
  template: `
    <ng-container *transloco="let t">
      <form (submit)="confirm($event)" novalidate>
        <app-dialog-shell
          [title]="t('adminUsers.syncTitle', { name: user.username })"
          [submitLabel]="t('adminUsers.syncMedia')"
          submitTestId="sync-ok"
          [cancelResult]="undefined"
        >
          <p>{{ t('adminUsers.syncExplain') }}</p>
          <mat-checkbox
            [checked]="policy()"
            (change)="policy.set($event.checked)"
            data-testid="sync-policy"
            >{{ t('adminUsers.syncPolicy') }}</mat-checkbox
          >
        </app-dialog-shell>
      </form>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaSyncDialog {
  protected readonly user = inject<AdminUser>(MAT_DIALOG_DATA);
  protected readonly policy = signal(false);
  private readonly ref = inject<MatDialogRef<MediaSyncDialog, MediaSyncChoice>>(MatDialogRef);

  protected confirm(event: Event): void {
    event.preventDefault();
    this.ref.close({ policy: this.policy() });
  }
}
