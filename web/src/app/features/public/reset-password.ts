import { ChangeDetectionStrategy, Component, effect, inject, input } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { Notifier } from '../../core/notifier';
import { FieldErrorPipe } from '../../shared/field-error';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AuthPage } from './auth-page';
import { passwordsMatch, showOnField } from './public-forms';
import { RegistrationApi } from './registration-api';
import { TEXT_FIELD } from '../../shared/form-field';

/** `/reset-password?email=&code=` (60-web.md §4.1): the e-mailed code sets a new password. */
@Component({
  selector: 'app-reset-password',
  imports: [
    ReactiveFormsModule,
    RouterLink,
    TranslocoDirective,
    AuthPage,
    FormError,
    SubmitButton,
    FieldErrorPipe,
    ...TEXT_FIELD,
  ],
  template: `
    <app-auth-page *transloco="let t" [heading]="t('passwordReset.resetHeading')">
      <p class="lead">{{ t('passwordReset.resetLead') }}</p>
      <form [formGroup]="form" (ngSubmit)="submit()" novalidate>
        <mat-form-field appearance="outline">
          <mat-label>{{ t('register.email') }}</mat-label>
          <input
            matInput
            type="email"
            formControlName="email"
            autocomplete="email"
            data-testid="reset-email"
          />
          <mat-error>{{ form.controls.email | fieldError }}</mat-error>
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t('passwordReset.code') }}</mat-label>
          <input
            matInput
            formControlName="code"
            inputmode="numeric"
            autocomplete="one-time-code"
            maxlength="6"
            data-testid="reset-code"
          />
          <mat-error data-testid="reset-code-error">{{
            form.controls.code | fieldError: { pattern: 'validation.sixDigits' }
          }}</mat-error>
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t('account.password.new') }}</mat-label>
          <input
            matInput
            type="password"
            formControlName="password"
            autocomplete="new-password"
            data-testid="reset-password"
          />
          <mat-hint>{{ t('account.password.hint', { min: minLength }) }}</mat-hint>
          <mat-error>{{ form.controls.password | fieldError }}</mat-error>
        </mat-form-field>
        <mat-form-field appearance="outline">
          <mat-label>{{ t('account.password.confirm') }}</mat-label>
          <input
            matInput
            type="password"
            formControlName="confirm"
            autocomplete="new-password"
            data-testid="reset-confirm"
          />
          <mat-error>{{ form.controls.confirm | fieldError }}</mat-error>
        </mat-form-field>
        <app-form-error [error]="act.error()" testId="reset-error" />
        <app-submit-button class="submit" [busy]="act.busy()" testId="reset-submit">
          {{ t('passwordReset.submit') }}
        </app-submit-button>
      </form>
      <a links routerLink="/forgot-password">{{ t('passwordReset.newCode') }}</a>
    </app-auth-page>
  `,
  styleUrl: './register.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class ResetPassword {
  private readonly api = inject(RegistrationApi);
  private readonly router = inject(Router);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  /** Query params from the e-mail link. */
  readonly email = input<string | undefined>();
  readonly code = input<string | undefined>();

  protected readonly minLength = PASSWORD_MIN_LENGTH;
  protected readonly form = inject(NonNullableFormBuilder).group(
    {
      email: ['', [Validators.required, Validators.email, Validators.maxLength(254)]],
      code: ['', [Validators.required, Validators.pattern(/^\d{6}$/)]],
      password: [
        '',
        [
          Validators.required,
          Validators.minLength(PASSWORD_MIN_LENGTH),
          Validators.maxLength(PASSWORD_MAX_LENGTH),
        ],
      ],
      confirm: ['', [Validators.required]],
    },
    { validators: [passwordsMatch] },
  );
  protected readonly act = action();

  constructor() {
    effect(() => {
      const email = this.email();
      const code = this.code();
      if (email) this.form.controls.email.setValue(email);
      if (code) this.form.controls.code.setValue(code);
    });
  }

  protected async submit(): Promise<void> {
    if (this.form.invalid || this.act.busy()) {
      this.form.markAllAsTouched();
      return;
    }
    const { email, code, password } = this.form.getRawValue();
    await this.act.run(
      async () => {
        await this.api.resetPassword({
          email: email.trim(),
          code: code.trim(),
          newPassword: password,
        });
        this.notifier.show('passwordReset.done');
        await this.router.navigateByUrl('/login');
      },
      {
        handle: (error) => {
          if (error instanceof ApiError && error.code === 'EMAIL_CODE_INVALID') {
            showOnField(this.form.controls.code, this.errors.describe(error).message);
          } else {
            this.act.show(this.errors.describe(error));
          }
          return true;
        },
      },
    );
  }
}
