import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import {
  MAT_DIALOG_DATA,
  type MatDialog,
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { RankingPeriod } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';

/**
 * "Generate now" (60-web.md "Rankings"): what it replaces, and whether to push the result to the
 * group chat (checked by default, as the API's `push`). Resolves to the choice, or null.
 */
@Component({
  selector: 'app-ranking-generate-dialog',
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
      <h2 mat-dialog-title>{{ t('rankings.generate.title.' + period) }}</h2>
      <mat-dialog-content>
        <p>{{ t('rankings.generate.body') }}</p>
        <mat-checkbox
          data-testid="generate-push"
          [checked]="push()"
          (change)="push.set($event.checked)"
          >{{ t('rankings.generate.push') }}</mat-checkbox
        >
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" [mat-dialog-close]="null">
          {{ t('dialogs.cancel') }}
        </button>
        <button
          mat-flat-button
          type="button"
          data-testid="generate-ok"
          [mat-dialog-close]="{ push: push() }"
        >
          {{ t('rankings.generate.confirm') }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class GenerateDialog {
  protected readonly period = inject<RankingPeriod>(MAT_DIALOG_DATA);
  protected readonly push = signal(true);
}

export async function askGenerate(
  dialog: MatDialog,
  period: RankingPeriod,
): Promise<{ push: boolean } | null> {
  const ref = dialog.open<GenerateDialog, RankingPeriod, { push: boolean } | null>(
    GenerateDialog,
    {
      data: period,
      autoFocus: 'first-tabbable',
      restoreFocus: true,
      maxWidth: '560px',
      width: 'calc(100vw - 32px)',
    },
  );
  return (await firstValueFrom(ref.afterClosed())) ?? null;
}
