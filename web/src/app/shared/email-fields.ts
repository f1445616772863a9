import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { type FormControl, ReactiveFormsModule, Validators } from '@angular/forms';
import { TranslocoDirective } from '@jsverse/transloco';
import { FieldErrorPipe } from './field-error';
import { FIELD_AS_IF_INLINE, TEXT_FIELD } from './form-field';

/**
 * The e-mail address and the six-digit code it was sent, as sign-up, the password reset and the
 * account page's e-mail change ask for them (with `EmailCodeFlow`, ./email-code.ts).
 */

/** An e-mail address: required, well formed, at most 254 characters. */
export const EMAIL_RULES = [Validators.required, Validators.email, Validators.maxLength(254)];
/** An e-mailed code: six digits. */
export const SIX_DIGITS = [Validators.required, Validators.pattern(/^\d{6}$/)];
/** An e-mail field; `hint` (translated) under it, `labelKey` its label ("E-mail"). Test ids: `testId`, `testId-error`. */
@Component({
  selector: 'app-email-field',
  imports: [ReactiveFormsModule, TranslocoDirective, FieldErrorPipe, ...TEXT_FIELD],
  template: `
    <mat-form-field appearance="outline" *transloco="let t">
      <mat-label>{{ t(labelKey()) }}</mat-label>
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
  styles: FIELD_AS_IF_INLINE,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmailField {
  readonly control = input.required<FormControl<string>>();
  readonly testId = input.required<string>();
  readonly hint = input<string | null>(null);
  /** Translation key of the label. */
  readonly labelKey = input('register.email');
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
  styles: FIELD_AS_IF_INLINE,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class CodeField {
  readonly control = input.required<FormControl<string>>();
  /** Translation key of the label. */
  readonly labelKey = input.required<string>();
  readonly testId = input.required<string>();
}
