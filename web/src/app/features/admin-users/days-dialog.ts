import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import { DialogShell } from '../../shared/dialog-shell';
import { NumberField } from '../../shared/number-field';

export interface DaysDialogData {
  titleKey: string;
  params?: Record<string, unknown>;
}

/** "Extend N days" (default 30, 1–3650), for one user or a selection. */
@Component({
  selector: 'app-days-dialog',
  imports: [NumberField, ReactiveFormsModule, TranslocoDirective, DialogShell],
  template: `
    <form *transloco="let t" [formGroup]="form" (ngSubmit)="submit()" novalidate>
      <app-dialog-shell
        [title]="t(data.titleKey, data.params ?? {})"
        [submitLabel]="t('adminUsers.extend')"
        submitTestId="extend-ok"
        [cancelResult]="undefined"
      >
        <app-number-field
          [control]="form.controls.days"
          labelKey="adminUsers.days"
          [max]="3650"
          testId="extend-days"
        />
      </app-dialog-shell>
    </form>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DaysDialog {
  protected readonly data = inject<DaysDialogData>(MAT_DIALOG_DATA);
  private readonly ref = inject<MatDialogRef<DaysDialog, number>>(MatDialogRef);
  protected readonly form = inject(NonNullableFormBuilder).group({
    days: [30, [Validators.required, Validators.min(1), Validators.max(3650)]],
  });

  protected submit(): void {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    this.ref.close(Math.floor(Number(this.form.controls.days.value)));
  }
}
