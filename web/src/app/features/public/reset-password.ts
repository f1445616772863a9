import { ChangeDetectionStrategy, Component, effect, inject, input } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { Notifier } from '../../core/notifier';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AuthPage } from './auth-page';
import { passwordsMatch, showOnField } from './public-forms';
import { RegistrationApi } from './registration-api';
import {
  CodeField,
  EMAIL_RULES,
  EmailField,
  NewPasswordFields,
  SIX_DIGITS,
  newPasswordRules,
} from './public-fields';

/** `/reset-password?email=&code=` (60-web.md §4.1): the e-mailed code sets a new password. */
@Component({
  selector: 'app-reset-password',
  imports: [
    ReactiveFormsModule,
    RouterLink,
    TranslocoDirective,
    AuthPage,
    CodeField,
    EmailField,
    FormError,
    NewPasswordFields,
    SubmitButton,
  ],
  template: `
    <app-auth-page *transloco="let t" [heading]="t('passwordReset.resetHeading')">
      <p class="lead">{{ t('passwordReset.resetLead') }}</p>
      <form [formGroup]="form" (ngSubmit)="submit()" novalidate>
        <app-email-field [control]="form.controls.email" testId="reset-email" />
        <app-code-field
          [control]="form.controls.code"
          labelKey="passwordReset.code"
          testId="reset-code"
        />
        <app-new-password-fields
          [password]="form.controls.password"
          [confirm]="form.controls.confirm"
          testId="reset"
        />
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

  protected readonly form = inject(NonNullableFormBuilder).group(
    {
      email: ['', EMAIL_RULES],
      code: ['', SIX_DIGITS],
      password: ['', newPasswordRules()],
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
    const { email, code, password } = this.form.getRawValue();
    await this.act.submit(
      this.form,
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
