import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { Router } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@usher/contracts/values';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { Notifier } from '../../core/notifier';
import { OVERVIEW_URL, safeRedirect } from '../../core/session/redirect';
import { SessionStore } from '../../core/session/session-store';
import { FormError } from '../../shared/form-error';
import { PasswordField } from '../../shared/password-field';
import { SubmitButton } from '../../shared/submit-button';
import { confirmMatches, differsFromCurrent } from './password-form';
import { TitledCard } from '../../shared/titled-card';

/**
 * "Change password" / "Set a new password" (60-web.md §2.3, §4.2). The API answers with a new
 * token (the old ones die), which the session stores before `me` is refreshed.
 */
@Component({
  selector: 'app-password-card',
  imports: [
    TitledCard,
    ReactiveFormsModule,
    TranslocoDirective,
    FormError,
    SubmitButton,
    PasswordField,
  ],
  templateUrl: './password-card.html',
  styleUrl: './password-card.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PasswordCard {
  private readonly session = inject(SessionStore);
  private readonly router = inject(Router);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  /** Whether this is the forced first-login change (then success leaves the page). */
  readonly forced = input(false);
  /** Where to go after a forced change, sanitised before use. */
  readonly redirect = input<string | undefined>();

  protected readonly minLength = PASSWORD_MIN_LENGTH;
  protected readonly form = inject(NonNullableFormBuilder).group(
    {
      // Pre-filled during the forced change from the sign-in form (memory only, §2.3).
      currentPassword: [this.session.signInPassword() ?? '', [Validators.required]],
      newPassword: [
        '',
        [
          Validators.required,
          Validators.minLength(PASSWORD_MIN_LENGTH),
          Validators.maxLength(PASSWORD_MAX_LENGTH),
        ],
      ],
      confirm: ['', [Validators.required]],
    },
    { validators: [confirmMatches, differsFromCurrent] },
  );
  protected readonly act = action();
  /** API refusals shown on their field (422 CURRENT_PASSWORD_INVALID / PASSWORD_UNCHANGED). */
  protected readonly fieldError = signal<{
    field: 'currentPassword' | 'newPassword';
    text: string;
  } | null>(null);
  protected readonly visible = signal(false);

  protected async submit(): Promise<void> {
    const { currentPassword, newPassword } = this.form.getRawValue();
    if (this.form.valid) this.fieldError.set(null);
    await this.act.submit(
      this.form,
      async () => {
        await this.session.changePassword(currentPassword, newPassword);
        this.notifier.show('account.password.changed');
        if (this.forced()) {
          await this.router.navigateByUrl(safeRedirect(this.redirect()) ?? OVERVIEW_URL);
        } else {
          this.form.reset();
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
    const text = this.errors.describe(error);
    if (error instanceof ApiError && error.code === 'CURRENT_PASSWORD_INVALID') {
      this.fieldError.set({ field: 'currentPassword', text: text.message });
    } else if (error instanceof ApiError && error.code === 'PASSWORD_UNCHANGED') {
      this.fieldError.set({ field: 'newPassword', text: text.message });
    } else {
      this.act.show(text);
    }
  }
}
