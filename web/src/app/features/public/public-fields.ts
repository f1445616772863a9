import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { type FormControl, Validators } from '@angular/forms';
import { TranslocoDirective } from '@jsverse/transloco';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { FIELD_AS_IF_INLINE } from '../../shared/form-field';
import { PasswordField } from '../../shared/password-field';

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
  imports: [TranslocoDirective, PasswordField],
  template: `
    <app-password-field
      *transloco="let t"
      [control]="password()"
      [labelKey]="passwordLabel()"
      [testId]="testId() + '-password'"
      [hint]="t('account.password.hint', { min: minLength() })"
      [toggle]="true"
      [(visible)]="visible"
    />
    <app-password-field
      [control]="confirm()"
      [labelKey]="confirmLabel()"
      [testId]="testId() + '-confirm'"
      [visible]="visible()"
    />
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
