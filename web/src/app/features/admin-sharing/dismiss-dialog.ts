import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MAT_DIALOG_DATA, MatDialogRef } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { SharingEvent } from '@usher/contracts';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { TEXT_FIELD } from '../../shared/form-field';
import { SharingApi } from '../../shared/sharing/sharing-api';

/** Dismisses a sharing event as a false positive, with an optional note. */
@Component({
  selector: 'app-sharing-dismiss-dialog',
  imports: [ReactiveFormsModule, TranslocoDirective, DialogShell, ...TEXT_FIELD],
  template: `
    <ng-container *transloco="let t">
      <form [formGroup]="form" (ngSubmit)="save()" novalidate>
        <app-dialog-shell
          [title]="t('sharing.dismiss.title', { user: data.user.username })"
          [submitLabel]="t('sharing.dismiss.submit')"
          submitTestId="sharing-dismiss-submit"
          [action]="dismissing"
        >
          <p>{{ t('sharing.dismiss.intro') }}</p>
          <mat-form-field appearance="outline">
            <mat-label>{{ t('sharing.dismiss.note') }}</mat-label>
            <textarea
              matInput
              rows="2"
              formControlName="note"
              data-testid="sharing-note"
            ></textarea>
            @if (form.controls.note.invalid) {
              <mat-error>{{ t('validation.tooLong') }}</mat-error>
            }
          </mat-form-field>
        </app-dialog-shell>
      </form>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SharingDismissDialog {
  private readonly api = inject(SharingApi);
  private readonly ref = inject<MatDialogRef<SharingDismissDialog, SharingEvent>>(MatDialogRef);
  protected readonly data = inject<SharingEvent>(MAT_DIALOG_DATA);
  protected readonly form = inject(NonNullableFormBuilder).group({
    note: ['', [Validators.maxLength(500)]],
  });
  protected readonly dismissing = action();

  protected async save(): Promise<void> {
    this.form.markAllAsTouched();
    if (this.form.invalid) return;
    await this.dismissing.run(async () => {
      this.ref.close(await this.api.dismiss(this.data.id, this.form.getRawValue().note.trim()));
    });
  }
}
