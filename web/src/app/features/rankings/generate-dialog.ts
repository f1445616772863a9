import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatCheckbox } from '@angular/material/checkbox';
import { MAT_DIALOG_DATA, MatDialogRef, type MatDialog } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import { DialogShell } from '../../shared/dialog-shell';
import type { RankingPeriod } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';

/**
 * "Generate now" (60-web.md "Rankings"): what it replaces, and whether to push the result to the
 * group chat (checked by default, as the API's `push`). Resolves to the choice, or null.
 */
@Component({
  selector: 'app-ranking-generate-dialog',
  imports: [MatCheckbox, TranslocoDirective, DialogShell],
  template: `
    <ng-container *transloco="let t">
      <form (submit)="confirm($event)" novalidate>
        <app-dialog-shell
          [title]="t('rankings.generate.title.' + period)"
          [submitLabel]="t('rankings.generate.confirm')"
          submitTestId="generate-ok"
          [cancelResult]="null"
        >
          <p>{{ t('rankings.generate.body') }}</p>
          <mat-checkbox
            data-testid="generate-push"
            [checked]="push()"
            (change)="push.set($event.checked)"
            >{{ t('rankings.generate.push') }}</mat-checkbox
          >
        </app-dialog-shell>
      </form>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class GenerateDialog {
  protected readonly period = inject<RankingPeriod>(MAT_DIALOG_DATA);
  protected readonly push = signal(true);
  private readonly ref = inject<MatDialogRef<GenerateDialog, { push: boolean }>>(MatDialogRef);

  protected confirm(event: Event): void {
    event.preventDefault();
    this.ref.close({ push: this.push() });
  }
}

export async function askGenerate(
  dialog: MatDialog,
  period: RankingPeriod,
): Promise<{ push: boolean } | null> {
  const ref = dialog.open<GenerateDialog, RankingPeriod, { push: boolean } | null>(GenerateDialog, {
    data: period,
    autoFocus: 'first-tabbable',
    restoreFocus: true,
    maxWidth: '560px',
    width: 'calc(100vw - 32px)',
  });
  return (await firstValueFrom(ref.afterClosed())) ?? null;
}
