import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import { ApiError, errorSystem } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AuthPage } from './auth-page';
import { RegistrationApi } from './registration-api';
import { EMAIL_RULES, EmailField } from './public-fields';

/**
 * `/forgot-password` (60-web.md §4.1). The reply is the same whether or not the address is
 * registered, and so is the page: it never tells a visitor who has an account.
 */
@Component({
  selector: 'app-forgot-password',
  imports: [
    ReactiveFormsModule,
    MatButton,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    AuthPage,
    EmailField,
    FormError,
    SubmitButton,
  ],
  template: `
    <app-auth-page *transloco="let t" [heading]="t('passwordReset.forgotHeading')">
      @if (sentTo(); as email) {
        <p class="ok" role="status" data-testid="forgot-sent">
          <mat-icon aria-hidden="true" svgIcon="mark_email_read" />
          <span>{{ t('passwordReset.sent') }}</span>
        </p>
        <a
          mat-flat-button
          class="submit"
          routerLink="/reset-password"
          [queryParams]="{ email }"
          data-testid="forgot-continue"
          >{{ t('passwordReset.haveCode') }}</a
        >
      } @else {
        <p class="lead">{{ t('passwordReset.forgotLead') }}</p>
        <form [formGroup]="form" (ngSubmit)="submit()" novalidate>
          <app-email-field [control]="form.controls.email" testId="forgot-email" />
          <app-form-error [error]="act.error()" testId="forgot-error" />
          <app-submit-button class="submit" [busy]="act.busy()" testId="forgot-submit">
            {{ t('passwordReset.send') }}
          </app-submit-button>
        </form>
      }
      <a links routerLink="/login">{{ t('passwordReset.backToSignIn') }}</a>
    </app-auth-page>
  `,
  styleUrl: './register.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class ForgotPassword {
  private readonly api = inject(RegistrationApi);
  private readonly errors = inject(ErrorTexts);
  private readonly transloco = inject(TranslocoService);
  protected readonly form = inject(NonNullableFormBuilder).group({
    email: ['', EMAIL_RULES],
  });
  protected readonly act = action();
  protected readonly sentTo = signal<string | null>(null);

  protected async submit(): Promise<void> {
    const email = this.form.controls.email.value.trim();
    await this.act.submit(
      this.form,
      async () => {
        await this.api.forgotPassword(email);
        this.sentTo.set(email);
      },
      {
        handle: (error) => {
          const smtpMissing =
            error instanceof ApiError &&
            error.code === 'NOT_CONFIGURED' &&
            errorSystem(error) === 'smtp';
          this.act.show(
            smtpMissing
              ? { message: this.transloco.translate('passwordReset.unavailable'), reference: null }
              : this.errors.describe(error),
          );
          return true;
        },
      },
    );
  }
}
