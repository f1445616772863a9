import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import {
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogRef,
  MatDialogTitle,
} from '@angular/material/dialog';
import { MatError, MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { TranslocoDirective } from '@jsverse/transloco';
import type { BlacklistCreated } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { DevicesApi } from '../../shared/devices/devices-api';

/**
 * Adds a client app to the blacklist (60-web.md §4.3 "Devices", §5): "Log out matching devices
 * now" is ticked by default; the dialog closes with the reply, whose counts the page shows. A
 * client already listed (409 `BLACKLIST_ENTRY_EXISTS`) is said on the name field.
 */
@Component({
  selector: 'app-blacklist-dialog',
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
    FormError,
    SubmitButton,
  ],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>{{ t('devices.blacklist.addTitle') }}</h2>
      <form [formGroup]="form" (ngSubmit)="save()" novalidate>
        <mat-dialog-content class="fields">
          <mat-form-field appearance="outline">
            <mat-label>{{ t('devices.blacklist.clientName') }}</mat-label>
            <input
              matInput
              formControlName="clientName"
              autocomplete="off"
              data-testid="blacklist-client"
            />
            <mat-hint>{{ t('devices.blacklist.clientHint') }}</mat-hint>
            @if (form.controls.clientName.hasError('api')) {
              <mat-error data-testid="blacklist-client-error">{{
                form.controls.clientName.getError('api')
              }}</mat-error>
            } @else if (form.controls.clientName.hasError('maxlength')) {
              <mat-error>{{ t('validation.tooLong') }}</mat-error>
            } @else if (form.controls.clientName.invalid) {
              <mat-error>{{ t('validation.required') }}</mat-error>
            }
          </mat-form-field>
          <mat-form-field appearance="outline">
            <mat-label>{{ t('devices.blacklist.reason') }}</mat-label>
            <input matInput formControlName="reason" data-testid="blacklist-reason" />
            @if (form.controls.reason.invalid) {
              <mat-error>{{ t('validation.tooLong') }}</mat-error>
            }
          </mat-form-field>
          <mat-checkbox formControlName="logoutNow" data-testid="blacklist-logout-now">
            {{ t('devices.blacklist.logoutNow') }}
          </mat-checkbox>
          <app-form-error [error]="error()" testId="blacklist-error" />
        </mat-dialog-content>
        <mat-dialog-actions align="end">
          <button mat-button type="button" [mat-dialog-close]="null">
            {{ t('dialogs.cancel') }}
          </button>
          <app-submit-button [busy]="busy()" testId="blacklist-save">
            {{ t('devices.blacklist.add') }}
          </app-submit-button>
        </mat-dialog-actions>
      </form>
    </ng-container>
  `,
  styles: `
    .fields {
      display: flex;
      flex-direction: column;
      gap: 4px;
      --form-error-margin: 8px 0 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class BlacklistDialog {
  private readonly api = inject(DevicesApi);
  private readonly errors = inject(ErrorTexts);
  private readonly ref =
    inject<MatDialogRef<BlacklistDialog, BlacklistCreated | null>>(MatDialogRef);

  protected readonly form = inject(NonNullableFormBuilder).group({
    clientName: ['', [Validators.required, Validators.maxLength(100), Validators.pattern(/\S/)]],
    reason: ['', [Validators.maxLength(255)]],
    logoutNow: [true],
  });
  protected readonly busy = signal(false);
  protected readonly error = signal<ErrorText | null>(null);

  protected async save(): Promise<void> {
    this.form.markAllAsTouched();
    if (this.form.invalid || this.busy()) return;
    const value = this.form.getRawValue();
    this.busy.set(true);
    this.error.set(null);
    try {
      const created = await this.api.addToBlacklist({
        clientName: value.clientName.trim(),
        reason: value.reason.trim(),
        logoutNow: value.logoutNow,
      });
      this.ref.close(created);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'BLACKLIST_ENTRY_EXISTS') {
        this.form.controls.clientName.setErrors({ api: this.errors.describe(error).message });
      } else {
        this.error.set(this.errors.describe(error));
      }
    } finally {
      this.busy.set(false);
    }
  }
}
