import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { TranslocoDirective } from '@jsverse/transloco';
import { ApiError } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { EmailCodeButton, emailCodeFlow } from '../../shared/email-code';
import { FieldErrorPipe } from '../../shared/field-error';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AccountApi } from './account-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { CARD_PARTS } from '../../shared/card-parts';

/** Codes that belong on the new-address field rather than in the card's error line. */
const EMAIL_FIELD_CODES = new Set(['EMAIL_TAKEN', 'EMAIL_UNCHANGED', 'EMAIL_DOMAIN_NOT_ALLOWED']);

/**
 * E-mail (60-web.md §4.2): a code goes to the new address, typing it makes the change. Two
 * steps in the card itself rather than a dialog, so the resend countdown stays in view.
 */
@Component({
  selector: 'app-email-card',
  imports: [
    CARD_PARTS,
    ReactiveFormsModule,
    MatButton,
    TranslocoDirective,
    FormError,
    SubmitButton,
    EmailCodeButton,
    FieldErrorPipe,
    ...TEXT_FIELD,
  ],
  template: `
    <mat-card appearance="outlined" *transloco="let t" data-testid="email-card">
      <mat-card-header>
        <mat-card-title
          ><h2>{{ t('accountCenter.email.title') }}</h2></mat-card-title
        >
      </mat-card-header>
      <mat-card-content>
        <p data-testid="email-current">
          {{ me()?.email ?? t('account.profile.noEmail') }}
        </p>
        @if (!editing()) {
          <button mat-stroked-button type="button" (click)="start()" data-testid="email-change">
            {{ t('accountCenter.email.change') }}
          </button>
        } @else {
          <form [formGroup]="form" (ngSubmit)="confirm()" novalidate class="stack">
            <mat-form-field appearance="outline">
              <mat-label>{{ t('accountCenter.email.new') }}</mat-label>
              <input
                matInput
                type="email"
                formControlName="newEmail"
                autocomplete="email"
                data-testid="email-new"
              />
              @if (domains().length) {
                <mat-hint>{{
                  t('register.domainHint', { domains: domains().join(', ') })
                }}</mat-hint>
              }
              <mat-error data-testid="email-new-error">{{
                form.controls.newEmail | fieldError
              }}</mat-error>
            </mat-form-field>
            <div class="row">
              <app-email-code-button
                [flow]="emailCode"
                (pressed)="send()"
                testId="email-send-code"
              />
            </div>
            @if (emailCode.sentTo(); as sentTo) {
              <p class="hint" role="status">{{ t('register.codeSent', { email: sentTo }) }}</p>
              <mat-form-field appearance="outline">
                <mat-label>{{ t('register.emailCode') }}</mat-label>
                <input
                  matInput
                  formControlName="code"
                  inputmode="numeric"
                  autocomplete="one-time-code"
                  maxlength="6"
                  data-testid="email-code"
                />
                <mat-error data-testid="email-code-error">{{
                  form.controls.code | fieldError: { pattern: 'validation.sixDigits' }
                }}</mat-error>
              </mat-form-field>
            }
            <app-form-error [error]="error()" />
            <div class="row end">
              <button mat-button type="button" (click)="cancel()">
                {{ t('dialogs.cancel') }}
              </button>
              <app-submit-button
                [busy]="saving()"
                [disabled]="!emailCode.sentTo()"
                testId="email-confirm"
              >
                {{ t('accountCenter.email.confirm') }}
              </app-submit-button>
            </div>
          </form>
        }
      </mat-card-content>
    </mat-card>
  `,
  styleUrl: './cards.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmailCard {
  private readonly api = inject(AccountApi);
  private readonly session = inject(SessionStore);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  protected readonly me = this.session.me;
  protected readonly editing = signal(false);
  /** The allowed domains, only a hint (the API enforces the list); none when the read fails. */
  private readonly rules = apiResource({
    params: () => (this.editing() ? true : undefined),
    load: () => this.api.rules(),
  });
  protected readonly domains = computed(() => this.rules.value()?.allowedEmailDomains ?? []);
  protected readonly saving = signal(false);
  protected readonly error = signal<ErrorText | null>(null);
  protected readonly emailCode = emailCodeFlow((email) => this.api.sendEmailCode(email));
  protected readonly form = inject(NonNullableFormBuilder).group({
    newEmail: ['', [Validators.required, Validators.email, Validators.maxLength(254)]],
    code: ['', [Validators.required, Validators.pattern(/^\d{6}$/)]],
  });

  protected start(): void {
    this.editing.set(true);
  }

  protected cancel(): void {
    this.editing.set(false);
    this.emailCode.reset();
    this.error.set(null);
    this.form.reset();
  }

  protected async send(): Promise<void> {
    const control = this.form.controls.newEmail;
    control.markAsTouched();
    if (control.invalid) return;
    this.error.set(null);
    await this.emailCode.send(control.value.trim(), (error) => this.showError(error));
  }

  protected async confirm(): Promise<void> {
    const email = this.emailCode.sentTo();
    if (!email || this.saving()) return;
    const code = this.form.controls.code;
    code.markAsTouched();
    if (code.invalid) return;
    this.saving.set(true);
    this.error.set(null);
    try {
      this.session.me.set(await this.api.changeEmail(email, code.value.trim()));
      this.notifier.show('accountCenter.email.changed');
      this.cancel();
    } catch (error) {
      this.showError(error);
    } finally {
      this.saving.set(false);
    }
  }

  private showError(error: unknown): void {
    const message = this.errors.describe(error).message;
    if (error instanceof ApiError && EMAIL_FIELD_CODES.has(error.code)) {
      const control = this.form.controls.newEmail;
      control.setErrors({ api: message });
      control.markAsTouched();
    } else if (error instanceof ApiError && error.code === 'EMAIL_CODE_INVALID') {
      const control = this.form.controls.code;
      control.setErrors({ api: message });
      control.markAsTouched();
    } else {
      this.error.set(this.errors.describe(error));
    }
  }
}
