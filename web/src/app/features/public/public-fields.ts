import { ChangeDetectionStrategy, Component, input, signal } from '@angular/core';
import { type FormControl, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatSuffix } from '@angular/material/form-field';
import { TranslocoDirective } from '@jsverse/transloco';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { FieldErrorPipe } from '../../shared/field-error';
import { TEXT_FIELD } from '../../shared/form-field';
import { PasswordToggle } from '../../shared/password-toggle';

/** The fields of the public forms (sign-up, forgot and reset password), each written once. */

/** An e-mail address: required, well formed, at most 254 characters. */
export const EMAIL_RULES = [Validators.required, Validators.email, Validators.maxLength(254)];
/** An e-mailed code: six digits. */
export const SIX_DIGITS = [Validators.required, Validators.pattern(/^\d{6}$/)];
/** A new password of at least `min` characters (the site's rule, else the contract's). */
export const newPasswordRules = (min = PASSWORD_MIN_LENGTH) => [
  Validators.required,
  Validators.minLength(min),
  Validators.maxLength(PASSWORD_MAX_LENGTH),
];

// A field lays out in its form's column as if written there.
const AS_IF_INLINE = `
  :host {
    display: contents;
  }
`;

/** An e-mail field; `hint` (translated) under it. Test ids: `testId`, `testId-error`. */
@Component({
  selector: 'app-email-field',
  imports: [ReactiveFormsModule, TranslocoDirective, FieldErrorPipe, ...TEXT_FIELD],
  template: `
    <mat-form-field appearance="outline" *transloco="let t">
      <mat-label>{{ t('register.email') }}</mat-label>
      <input
        matInput
        type="email"
        [formControl]="control()"
        autocomplete="email"
        [attr.data-testid]="testId()"
      />
      @if (hint()) {
        <mat-hint>{{ hint() }}</mat-hint>
      }
      <mat-error [attr.data-testid]="testId() + '-error'">{{ control() | fieldError }}</mat-error>
    </mat-form-field>
  `,
  styles: AS_IF_INLINE,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmailField {
  readonly control = input.required<FormControl<string>>();
  readonly testId = input.required<string>();
  readonly hint = input<string | null>(null);
}

/** The six-digit code an e-mail carried. Test ids: `testId`, `testId-error`. */
@Component({
  selector: 'app-code-field',
  imports: [ReactiveFormsModule, TranslocoDirective, FieldErrorPipe, ...TEXT_FIELD],
  template: `
    <mat-form-field appearance="outline" *transloco="let t">
      <mat-label>{{ t(labelKey()) }}</mat-label>
      <input
        matInput
        [formControl]="control()"
        inputmode="numeric"
        autocomplete="one-time-code"
        maxlength="6"
        [attr.data-testid]="testId()"
      />
      <mat-error [attr.data-testid]="testId() + '-error'">{{
        control() | fieldError: { pattern: 'validation.sixDigits' }
      }}</mat-error>
    </mat-form-field>
  `,
  styles: AS_IF_INLINE,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class CodeField {
  readonly control = input.required<FormControl<string>>();
  /** Translation key of the label. */
  readonly labelKey = input.required<string>();
  readonly testId = input.required<string>();
}

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
  styles: AS_IF_INLINE,
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
