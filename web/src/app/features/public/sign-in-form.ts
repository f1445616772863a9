import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatSuffix } from '@angular/material/form-field';
import { MatIcon } from '@angular/material/icon';
import { MatAnchor } from '@angular/material/button';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { ApiError, retryAfterSeconds } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { OVERVIEW_URL, safeRedirect } from '../../core/session/redirect';
import { SessionStore } from '../../core/session/session-store';
import { ssoStartUrl } from '../../core/session/sso';
import { SiteStore } from '../../core/site/site-store';
import { FormError } from '../../shared/form-error';
import { PasswordToggle } from '../../shared/password-toggle';
import { SubmitButton } from '../../shared/submit-button';
import { TEXT_FIELD } from '../../shared/form-field';

/**
 * The sign-in card, used by `/login` and embedded on the home page (60-web.md §4.1).
 * Success goes to `redirect`, the overview, or the forced password change (§2.3).
 */
@Component({
  selector: 'app-sign-in-form',
  imports: [
    MatAnchor,
    ReactiveFormsModule,
    MatSuffix,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    FormError,
    SubmitButton,
    PasswordToggle,
    ...TEXT_FIELD,
  ],
  templateUrl: './sign-in-form.html',
  styleUrl: './sign-in-form.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SignInForm {
  private readonly session = inject(SessionStore);
  private readonly router = inject(Router);
  private readonly errors = inject(ErrorTexts);
  protected readonly site = inject(SiteStore).site;
  /** Where to go after signing in (`/login?redirect=`), sanitised before use. */
  readonly redirect = input<string | null | undefined>(null);
  /** Translation key of the card's heading, so home and `/login` can title it differently. */
  readonly headingKey = input('login.heading');
  /** Whether the card's heading is the page's `h1` (on `/login`) rather than an `h2`. */
  readonly primaryHeading = input(false);
  /** `/login?local=1`: the password form even where single sign-on replaced it (break-glass). */
  readonly local = input(false);

  /** "Sign in with …" (docs/sso.md): a page load of the API's start route. */
  protected readonly ssoUrl = computed(() => ssoStartUrl(this.redirect()));
  /** The password form, unless single sign-on replaced it and `local` was not asked for. */
  protected readonly passwordForm = computed(() => this.site().sso.passwordLogin || this.local());

  protected readonly form = inject(NonNullableFormBuilder).group({
    username: ['', [Validators.required, Validators.maxLength(254)]],
    password: ['', [Validators.required, Validators.maxLength(128)]],
  });
  protected readonly act = action();
  protected readonly showPassword = signal(false);
  /** Seconds until a rate-limited sign-in may be tried again (429 countdown). */
  protected readonly retryIn = signal(0);
  private countdown: ReturnType<typeof setInterval> | undefined;

  constructor() {
    inject(DestroyRef).onDestroy(() => clearInterval(this.countdown));
  }

  protected async submit(): Promise<void> {
    if (this.form.invalid || this.act.busy() || this.retryIn() > 0) {
      this.form.markAllAsTouched();
      return;
    }
    const { username, password } = this.form.getRawValue();
    await this.act.run(
      async () => {
        const user = await this.session.signIn(username.trim(), password);
        const redirect = safeRedirect(this.redirect());
        if (user.mustChangePassword) {
          await this.router.navigate(['/console/account'], {
            queryParams: { section: 'password', ...(redirect ? { redirect } : {}) },
          });
        } else {
          await this.router.navigateByUrl(redirect ?? OVERVIEW_URL);
        }
      },
      {
        handle: (error) => {
          this.showError(error);
          return true;
        },
      },
    );
  }

  private showError(error: unknown): void {
    this.act.show(this.errors.describe(error));
    const wait = error instanceof ApiError ? retryAfterSeconds(error) : null;
    if (error instanceof ApiError && error.code === 'RATE_LIMITED' && wait) {
      this.startCountdown(wait);
    }
    if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
      this.form.controls.password.reset();
    }
  }

  private startCountdown(seconds: number): void {
    clearInterval(this.countdown);
    this.retryIn.set(seconds);
    this.countdown = setInterval(() => {
      const left = this.retryIn() - 1;
      this.retryIn.set(Math.max(0, left));
      if (left <= 0) {
        clearInterval(this.countdown);
        this.act.clear();
      }
    }, 1000);
  }
}
