import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatCheckbox } from '@angular/material/checkbox';
import { MatDialogRef } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { BlacklistCreated } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { DialogShell } from '../../shared/dialog-shell';
import { DevicesApi } from '../../shared/devices/devices-api';
import { TEXT_FIELD } from '../../shared/form-field';

/**
 * Adds a client app to the blacklist (60-web.md §4.3 "Devices", §5): "Log out matching devices
 * now" is ticked by default; the dialog closes with the reply, whose counts the page shows. A
 * client already listed (409 `BLACKLIST_ENTRY_EXISTS`) is said on the name field.
 */
@Component({
  selector: 'app-blacklist-dialog',
  imports: [ReactiveFormsModule, MatCheckbox, TranslocoDirective, DialogShell, ...TEXT_FIELD],
  template: `
    <ng-container *transloco="let t">
      <form [formGroup]="form" (ngSubmit)="save()" novalidate>
        <app-dialog-shell
          [title]="t('devices.blacklist.addTitle')"
          [submitLabel]="t('devices.blacklist.add')"
          submitTestId="blacklist-save"
          [action]="saving"
          [cancelResult]="null"
          errorTestId="blacklist-error"
        >
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
        </app-dialog-shell>
      </form>
    </ng-container>
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
  protected readonly saving = action();

  protected async save(): Promise<void> {
    this.form.markAllAsTouched();
    if (this.form.invalid) return;
    const value = this.form.getRawValue();
    await this.saving.run(
      async () => {
        const created = await this.api.addToBlacklist({
          clientName: value.clientName.trim(),
          reason: value.reason.trim(),
          logoutNow: value.logoutNow,
        });
        this.ref.close(created);
      },
      { handle: (error) => this.showOnField(error) },
    );
  }

  /** A client already on the list is said on its field. */
  private showOnField(error: unknown): boolean {
    if (!(error instanceof ApiError && error.code === 'BLACKLIST_ENTRY_EXISTS')) return false;
    this.form.controls.clientName.setErrors({ api: this.errors.describe(error).message });
    return true;
  }
}
