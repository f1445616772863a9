import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { TranslocoDirective } from '@jsverse/transloco';
import { ApiError } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts } from '../../core/api/error-text';
import { SessionStore } from '../../core/session/session-store';
import { action } from '../../shared/action';
import { EmailCodeButton, emailCodeFlow } from '../../shared/email-code';
import { CodeField, EMAIL_RULES, EmailField, SIX_DIGITS } from '../../shared/email-fields';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AccountApi } from './account-api';
import { TitledCard } from '../../shared/titled-card';

/** Codes that belong on the new-address field rather than in the card's error line. */
const EMAIL_FIELD_CODES = new Set(['EMAIL_TAKEN', 'EMAIL_UNCHANGED', 'EMAIL_DOMAIN_NOT_ALLOWED']);

/**
 * E-mail (60-web.md §4.2): a code goes to the new address, typing it makes the change. Two
 * steps in the card itself rather than a dialog, so the resend countdown stays in view.
 */
@Component({
  selector: 'app-email-card',
  imports: [
    TitledCard,
    ReactiveFormsModule,
    MatButton,
    TranslocoDirective,
    FormError,
    SubmitButton,
    EmailCodeButton,
    EmailField,
    CodeField,
  ],
  template: `
    <app-titled-card
      *transloco="let t"
      data-testid="email-card"
      [title]="t('accountCenter.email.title')"
    >
      <p data-testid="email-current">
        {{ me()?.email ?? t('account.profile.noEmail') }}
      </p>
      @if (!editing()) {
        <button mat-stroked-button type="button" (click)="start()" data-testid="email-change">
          {{ t('accountCenter.email.change') }}
        </button>
      } @else {
        <form [formGroup]="form" (ngSubmit)="confirm()" novalidate class="stack">
          <app-email-field
            [control]="form.controls.newEmail"
            labelKey="accountCenter.email.new"
            testId="email-new"
            [hint]="
              domains().length ? t('register.domainHint', { domains: domains().join(', ') }) : null
            "
          />
          <div class="row">
            <app-email-code-button [flow]="emailCode" (pressed)="send()" testId="email-send-code" />
          </div>
          @if (emailCode.sentTo(); as sentTo) {
            <p class="hint" role="status">{{ t('register.codeSent', { email: sentTo }) }}</p>
            <app-code-field
              [control]="form.controls.code"
              labelKey="register.emailCode"
              testId="email-code"
            />
          }
          <app-form-error [error]="act.error()" />
          <div class="row end">
            <button mat-button type="button" (click)="cancel()">
              {{ t('dialogs.cancel') }}
            </button>
            <app-submit-button
              [busy]="act.busy()"
              [disabled]="!emailCode.sentTo()"
              testId="email-confirm"
            >
              {{ t('accountCenter.email.confirm') }}
            </app-submit-button>
          </div>
        </form>
      }
    </app-titled-card>
  `,
  styleUrl: './cards.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmailCard {
  private readonly api = inject(AccountApi);
  private readonly session = inject(SessionStore);
  private readonly errors = inject(ErrorTexts);
  protected readonly me = this.session.me;
  protected readonly editing = signal(false);
  /** The allowed domains, only a hint (the API enforces the list); none when the read fails. */
  private readonly rules = apiResource({
    params: () => (this.editing() ? true : undefined),
    load: () => this.api.rules(),
  });
  protected readonly domains = computed(() => this.rules.value()?.allowedEmailDomains ?? []);
  protected readonly act = action();
  protected readonly emailCode = emailCodeFlow((email) => this.api.sendEmailCode(email));
  protected readonly form = inject(NonNullableFormBuilder).group({
    newEmail: ['', EMAIL_RULES],
    code: ['', SIX_DIGITS],
  });

  protected start(): void {
    this.editing.set(true);
  }

  protected cancel(): void {
    this.editing.set(false);
    this.emailCode.reset();
    this.act.clear();
    this.form.reset();
  }

  protected async send(): Promise<void> {
    const control = this.form.controls.newEmail;
    control.markAsTouched();
    if (control.invalid) return;
    this.act.clear();
    await this.emailCode.send(control.value.trim(), (error) => {
      if (!this.showError(error)) this.act.fail(error);
    });
  }

  protected async confirm(): Promise<void> {
    const email = this.emailCode.sentTo();
    if (!email) return;
    await this.act.submit(
      this.form.controls.code,
      async () => {
        this.session.me.set(
          await this.api.changeEmail(email, this.form.controls.code.value.trim()),
        );
        this.cancel();
      },
      {
        done: 'accountCenter.email.changed',
        handle: (error) => this.showError(error),
      },
    );
  }

  /** Puts a refusal on its field; returns false for one the card's error line shows. */
  private showError(error: unknown): boolean {
    if (!(error instanceof ApiError)) return false;
    const field = EMAIL_FIELD_CODES.has(error.code)
      ? this.form.controls.newEmail
      : error.code === 'EMAIL_CODE_INVALID'
        ? this.form.controls.code
        : null;
    if (!field) return false;
    field.setErrors({ api: this.errors.describe(error).message });
    field.markAsTouched();
    return true;
  }
}
