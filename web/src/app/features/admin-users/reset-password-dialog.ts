import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import { MAT_DIALOG_DATA } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminUser } from '@usher/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { FieldErrorPipe } from '../../shared/field-error';
import { PasswordShownOnce } from './password-shown-once';
import { UsersApi } from './users-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { DIALOG_PARTS } from '../../shared/dialog-parts';

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
    TranslocoDirective,
    FieldErrorPipe,
    DialogShell,
    PasswordShownOnce,
    ...TEXT_FIELD,
    ...DIALOG_PARTS,
  ],
  template: `
    <ng-container *transloco="let t">
      @if (done()) {
        <h2 mat-dialog-title>{{ t('adminUsers.resetTitle', { name: user.username }) }}</h2>
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
          <app-dialog-shell
            [title]="t('adminUsers.resetTitle', { name: user.username })"
            [submitLabel]="t('adminUsers.resetPassword')"
            submitTestId="reset-ok"
            [action]="reset"
            [showReference]="false"
          >
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
          </app-dialog-shell>
        </form>
      }
    </ng-container>
  `,
  styleUrl: './dialogs.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ResetPasswordDialog {
  private readonly api = inject(UsersApi);
  protected readonly user = inject<AdminUser>(MAT_DIALOG_DATA);
  protected readonly form = inject(NonNullableFormBuilder).group({
    password: [
      '',
      [Validators.minLength(PASSWORD_MIN_LENGTH), Validators.maxLength(PASSWORD_MAX_LENGTH)],
    ],
    requireChange: [true],
  });
  protected readonly reset = action();
  protected readonly done = signal(false);
  protected readonly generated = signal<string | null>(null);

  protected async submit(): Promise<void> {
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const { password, requireChange } = this.form.getRawValue();
    await this.reset.run(async () => {
      const reply = await this.api.resetPassword(this.user.id, {
        ...(password ? { newPassword: password } : {}),
        requireChange,
      });
      this.generated.set(reply.generatedPassword ?? null);
      this.done.set(true);
    });
  }
}
