import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatIcon } from '@angular/material/icon';
import { MatProgressBar } from '@angular/material/progress-bar';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { User } from '@usher/contracts';
import { PASSWORD_MAX_LENGTH, USERNAME_PATTERN } from '@usher/contracts/values';
import { ApiError, errorSystem } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { LanguageSwitch } from '../../core/i18n/language';
import { Notifier } from '../../core/notifier';
import { WELCOME_URL } from '../../core/session/redirect';
import { SessionStore } from '../../core/session/session-store';
import { EmailCodeButton, emailCodeFlow } from '../../shared/email-code';
import { FieldErrorPipe } from '../../shared/field-error';
import { FormError } from '../../shared/form-error';
import { ErrorState } from '../../shared/page-state';
import { SubmitButton } from '../../shared/submit-button';
import { AuthPage } from './auth-page';
import { CodeField, EMAIL_RULES, EmailField, NewPasswordFields, SIX_DIGITS } from './public-fields';
import { codeErrorKey, passwordsMatch, showOnField } from './public-forms';
import {
  RegistrationApi,
  domainAllowed,
  type InviteCodePreview,
  type RegisterMode,
} from './registration-api';
import { dateFormat } from '../../core/i18n/intl';
import { TEXT_FIELD } from '../../shared/form-field';

const CODE_PATTERN = /^[0-9A-Fa-f]{16}$/;

/**
 * `/register?code=` (60-web.md §4.1). The mode (`GET /auth/register/mode`) decides the fields:
 * the invite code in invite mode, the e-mail code when verification is on, and the rules
 * (username pattern, password length, allowed domains).
 */
@Component({
  selector: 'app-register',
  imports: [
    ReactiveFormsModule,
    MatIcon,
    MatProgressBar,
    RouterLink,
    TranslocoDirective,
    AuthPage,
    ErrorState,
    FormError,
    SubmitButton,
    EmailCodeButton,
    FieldErrorPipe,
    EmailField,
    CodeField,
    NewPasswordFields,
    ...TEXT_FIELD,
  ],
  templateUrl: './register.html',
  styleUrl: './register.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Register {
  private readonly api = inject(RegistrationApi);
  private readonly session = inject(SessionStore);
  private readonly router = inject(Router);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  private readonly transloco = inject(TranslocoService);
  private readonly language = inject(LanguageSwitch);

  /** Query param `code`: an invite code from a shared link. */
  readonly code = input<string | undefined>();

  /** `GET /auth/register/mode`; the form takes its rules before it is shown. */
  private readonly modeRead = apiResource({
    params: () => true,
    load: async () => {
      const mode = await this.api.mode();
      this.applyMode(mode);
      return mode;
    },
  });
  protected readonly mode = this.modeRead.value;
  protected readonly loadError = this.modeRead.error;
  protected readonly form = inject(NonNullableFormBuilder).group(
    {
      code: [''],
      username: ['', [Validators.required, Validators.minLength(3), Validators.maxLength(32)]],
      email: ['', EMAIL_RULES],
      emailCode: [''],
      password: ['', [Validators.required, Validators.maxLength(PASSWORD_MAX_LENGTH)]],
      confirm: ['', [Validators.required]],
    },
    { validators: [passwordsMatch] },
  );
  protected readonly preview = signal<InviteCodePreview | null>(null);
  /** "Check" of the invite code (its button's spinner; a refusal goes on the code field). */
  protected readonly checking = action();
  protected readonly emailCode = emailCodeFlow((email) => this.api.sendCode(email));
  protected readonly act = action();

  private readonly emailValue = toSignal(this.form.controls.email.valueChanges, {
    initialValue: '',
  });
  /** Whether the typed address's domain is outside the allowed list (shown before sending). */
  protected readonly domainRefused = computed(() => {
    const mode = this.mode();
    return !!mode && !domainAllowed(this.emailValue(), mode.allowedEmailDomains);
  });
  /** Whether the invite-code field is shown: always in invite mode, with a link code otherwise. */
  protected readonly showCode = computed(() => this.mode()?.mode === 'invite' || !!this.code());
  protected readonly minLength = computed(() => this.mode()?.passwordMinLength ?? 8);

  protected loadMode(): void {
    this.modeRead.reload();
  }

  private applyMode(mode: RegisterMode): void {
    const { code, username, emailCode, password } = this.form.controls;
    const required = mode.mode === 'invite' ? [Validators.required] : [];
    code.setValidators([...required, Validators.pattern(CODE_PATTERN)]);
    username.addValidators(
      Validators.pattern(
        mode.usernamePattern ? new RegExp(mode.usernamePattern) : USERNAME_PATTERN,
      ),
    );
    password.addValidators(Validators.minLength(mode.passwordMinLength));
    emailCode.setValidators(mode.emailVerification ? SIX_DIGITS : []);
    const linkCode = this.code()?.trim();
    if (linkCode) code.setValue(linkCode.toUpperCase());
    for (const control of [code, username, emailCode, password]) {
      control.updateValueAndValidity();
    }
    if (linkCode && CODE_PATTERN.test(linkCode)) void this.checkCode();
  }

  /** "Check": what the invite code grants and how many uses it has left. */
  protected async checkCode(): Promise<void> {
    const control = this.form.controls.code;
    control.markAsTouched();
    const code = control.value.trim().toUpperCase();
    if (!CODE_PATTERN.test(code)) return;
    this.preview.set(null);
    await this.checking.run(async () => this.preview.set(await this.api.validateCode(code)), {
      handle: (error) => {
        this.showCodeError(error);
        return true;
      },
    });
  }

  /** "Send code": an e-mail code to the typed address, then the resend countdown. */
  protected async sendEmailCode(): Promise<void> {
    const control = this.form.controls.email;
    control.markAsTouched();
    if (control.invalid) return;
    this.act.clear();
    await this.emailCode.send(control.value.trim(), (error) => this.showError(error));
  }

  protected async submit(): Promise<void> {
    const mode = this.mode();
    if (!mode) return;
    const { code, username, email, emailCode, password } = this.form.getRawValue();
    await this.act.submit(
      this.form,
      async () => {
        const reply = await this.api.register({
          username: username.trim(),
          email: email.trim(),
          password,
          ...(code.trim() ? { code: code.trim().toUpperCase() } : {}),
          ...(mode.emailVerification ? { emailCode: emailCode.trim() } : {}),
        });
        this.session.adopt(reply);
        this.welcome(reply.user);
        await this.router.navigateByUrl(WELCOME_URL);
      },
      {
        handle: (error) => {
          this.showError(error);
          return true;
        },
      },
    );
  }

  /** The welcome snackbar names the expiry the new account got (60-web.md §4.1). */
  private welcome(user: User): void {
    if (!user.expiresAt) {
      this.notifier.show('register.welcomeNoExpiry');
      return;
    }
    const date = dateFormat(this.language.active(), { dateStyle: 'medium' }).format(
      new Date(user.expiresAt),
    );
    this.notifier.show(user.isExpired ? 'register.welcomeExpired' : 'register.welcome', { date });
  }

  private showCodeError(error: unknown): void {
    if (error instanceof ApiError && error.code === 'REDEEM_CODE_INVALID') {
      showOnField(this.form.controls.code, this.transloco.translate(codeErrorKey(error)));
    } else {
      this.act.show(this.errors.describe(error));
    }
  }

  /** API refusals go on their field where there is one (60-web.md §4.1 "Errors"). */
  private showError(error: unknown): void {
    const { controls } = this;
    const text = () => this.errors.describe(error).message;
    if (!(error instanceof ApiError)) {
      this.act.show(this.errors.describe(error));
      return;
    }
    switch (error.code) {
      case 'USERNAME_TAKEN':
        return showOnField(controls.username, text());
      case 'EMAIL_TAKEN':
      case 'EMAIL_DOMAIN_NOT_ALLOWED':
        return showOnField(controls.email, text());
      case 'REGISTRATION_CODE_REQUIRED':
      case 'REDEEM_CODE_INVALID':
        this.preview.set(null);
        return this.showCodeError(error);
      case 'EMAIL_CODE_REQUIRED':
      case 'EMAIL_CODE_INVALID':
        return showOnField(controls.emailCode, text());
      case 'EMAIL_VERIFICATION_OFF':
        this.loadMode();
        break;
    }
    if (error.status === 502 && errorSystem(error) === 'media_server') {
      this.act.show({
        message: this.transloco.translate('register.mediaFailed'),
        reference: null,
      });
    } else if (error.code === 'NOT_CONFIGURED' && errorSystem(error) === 'media_server') {
      this.act.show({ message: this.transloco.translate('register.notOpen'), reference: null });
    } else {
      this.act.show(this.errors.describe(error));
    }
  }

  private get controls() {
    return this.form.controls;
  }
}
