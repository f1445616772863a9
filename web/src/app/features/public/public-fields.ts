import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { type FormControl, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatSuffix } from '@angular/material/form-field';
import { TranslocoDirective } from '@jsverse/transloco';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { FieldErrorPipe } from '../../shared/field-error';
import { FIELD_AS_IF_INLINE, TEXT_FIELD } from '../../shared/form-field';
import { PasswordToggle } from '../../shared/password-toggle';

/**
 * The fields of the public forms (sign-up, forgot and reset password), each written once; the
 * e-mail and code fields are shared with the account page's e-mail card.
 */
export { CodeField, EMAIL_RULES, EmailField, SIX_DIGITS } from '../../shared/email-fields';

/** A new password of at least `min` characters (the site's rule, else the contract's). */
export const newPasswordRules = (min = PASSWORD_MIN_LENGTH) => [
  Validators.required,
  Validators.minLength(min),
  Validators.maxLength(PASSWORD_MAX_LENGTH),
];

/**
 * A new password and its repetition, with one "show" toggle for both and the length rule as the
 * hint. Test ids: `testId-password`, `testId-confirm`.
 */
@Component({
  selector: 'app-new-password-fields',
  imports: [
    ReactiveFormsModule,
    TranslocoDirective,
    FieldErrorPipe,
    MatSuffix,
    PasswordToggle,
    ...TEXT_FIELD,
  ],
  template: `
    <ng-container *transloco="let t">
      <mat-form-field appearance="outline">
        <mat-label>{{ t(passwordLabel()) }}</mat-label>
        <input
          matInput
          [formControl]="password()"
          autocomplete="new-password"
          [attr.data-testid]="testId() + '-password'"
          [type]="visible() ? 'text' : 'password'"
        />
        <app-password-toggle matSuffix [(visible)]="visible" />
        <mat-hint>{{ t('account.password.hint', { min: minLength() }) }}</mat-hint>
        <mat-error>{{ password() | fieldError }}</mat-error>
      </mat-form-field>
      <mat-form-field appearance="outline">
        <mat-label>{{ t(confirmLabel()) }}</mat-label>
        <input
          matInput
          [formControl]="confirm()"
          autocomplete="new-password"
          [attr.data-testid]="testId() + '-confirm'"
          [type]="visible() ? 'text' : 'password'"
        />
        <mat-error>{{ confirm() | fieldError }}</mat-error>
      </mat-form-field>
    </ng-container>
  `,
  styles: FIELD_AS_IF_INLINE,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class NewPasswordFields {
  readonly password = input.required<FormControl<string>>();
  readonly confirm = input.required<FormControl<string>>();
  readonly minLength = input(PASSWORD_MIN_LENGTH);
  readonly testId = input.required<string>();
  /** Translation keys of the two labels. */
  readonly passwordLabel = input('account.password.new');
  readonly confirmLabel = input('account.password.confirm');
  protected readonly visible = signal(false);
}
