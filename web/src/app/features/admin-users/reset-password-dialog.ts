import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import {
  MAT_DIALOG_DATA,
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';
import { MatError, MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminUser } from '@usher/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { FieldErrorPipe } from '../../shared/field-error';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { PasswordShownOnce } from './password-shown-once';
import { UsersApi } from './users-api';

/**
 * Admin password reset (60-web.md §4.3): blank generates one, shown once; "require change" is
 * ticked by default.
 */
@Component({
  selector: 'app-reset-password-dialog',
  imports: [
    ReactiveFormsModule,
    MatButton,
    MatCheckbox,
    MatDialogActions,
    MatDialogClose,
    MatDialogContent,
    MatDialogTitle,
    MatError,
    MatFormField,
    MatHint,
    MatLabel,
    MatInput,
    TranslocoDirective,
    FieldErrorPipe,
    FormError,
    SubmitButton,
    PasswordShownOnce,
  ],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>{{ t('adminUsers.resetTitle', { name: user.username }) }}</h2>
      @if (done()) {
        <mat-dialog-content>
          @if (generated(); as generated) {
            <app-password-shown-once [password]="generated" />
          } @else {
            <p>{{ t('adminUsers.resetDone') }}</p>
          }
        </mat-dialog-content>
        <mat-dialog-actions align="end">
          <button mat-flat-button type="button" [mat-dialog-close]="true">
            {{ t('dialogs.done') }}
          </button>
        </mat-dialog-actions>
      } @else {
        <form [formGroup]="form" (ngSubmit)="submit()" novalidate>
          <mat-dialog-content class="fields">
            <mat-form-field appearance="outline">
              <mat-label>{{ t('account.password.new') }}</mat-label>
              <input
                matInput
                type="text"
                autocomplete="new-password"
                formControlName="password"
                data-testid="reset-new-password"
              />
              <mat-hint>{{ t('adminUsers.blankGenerates') }}</mat-hint>
              <mat-error>{{ form.controls.password | fieldError }}</mat-error>
            </mat-form-field>
            <mat-checkbox formControlName="requireChange">{{
              t('adminUsers.requireChange')
            }}</mat-checkbox>
            <app-form-error [error]="error()" [showReference]="false" />
          </mat-dialog-content>
          <mat-dialog-actions align="end">
            <button mat-button type="button" [mat-dialog-close]="false" [disabled]="busy()">
              {{ t('dialogs.cancel') }}
            </button>
            <app-submit-button [busy]="busy()" testId="reset-ok">
              {{ t('adminUsers.resetPassword') }}
            </app-submit-button>
          </mat-dialog-actions>
        </form>
      }
    </ng-container>
  `,
  styleUrl: './dialogs.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ResetPasswordDialog {
  private readonly api = inject(UsersApi);
  private readonly errors = inject(ErrorTexts);
  protected readonly user = inject<AdminUser>(MAT_DIALOG_DATA);
  protected readonly form = inject(NonNullableFormBuilder).group({
    password: [
      '',
      [Validators.minLength(PASSWORD_MIN_LENGTH), Validators.maxLength(PASSWORD_MAX_LENGTH)],
    ],
    requireChange: [true],
  });
  protected readonly busy = signal(false);
  protected readonly done = signal(false);
  protected readonly generated = signal<string | null>(null);
  protected readonly error = signal<ErrorText | null>(null);

  protected async submit(): Promise<void> {
    if (this.form.invalid || this.busy()) {
      this.form.markAllAsTouched();
      return;
    }
    const { password, requireChange } = this.form.getRawValue();
    this.busy.set(true);
    this.error.set(null);
    try {
      const reply = await this.api.resetPassword(this.user.id, {
        ...(password ? { newPassword: password } : {}),
        requireChange,
      });
      this.generated.set(reply.generatedPassword ?? null);
      this.done.set(true);
    } catch (error) {
      this.error.set(this.errors.describe(error));
    } finally {
      this.busy.set(false);
    }
  }
}
