import {
  ChangeDetectionStrategy,
  Component,
  type OnInit,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatAnchor } from '@angular/material/button';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatProgressSpinner } from '@angular/material/progress-spinner';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { AuthApi } from '../../core/session/auth-api';
import { OVERVIEW_URL, safeRedirect } from '../../core/session/redirect';
import { SessionStore } from '../../core/session/session-store';
import { ssoStartUrl } from '../../core/session/sso';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AuthPage } from './auth-page';

/**
 * `/login/sso?code=` or `?error=` (docs/sso.md): where the API's callback sends the browser.
 * A code is exchanged for a session at once; a first sign-in in invite mode asks for the invite
 * code here (once), and the same one-time code is sent again with it.
 */
@Component({
  selector: 'app-sso-landing',
  imports: [
    ReactiveFormsModule,
    MatAnchor,
    MatFormField,
    MatHint,
    MatInput,
    MatLabel,
    MatProgressSpinner,
    RouterLink,
    TranslocoDirective,
    AuthPage,
    FormError,
    SubmitButton,
  ],
  template: `
    <app-auth-page [showSignIn]="false" narrow>
      <ng-container *transloco="let t">
        <h1 class="title">{{ t('ssoLanding.heading') }}</h1>
        @if (needsInvite()) {
          <form [formGroup]="form" (ngSubmit)="sendInvite()" novalidate data-testid="sso-invite">
            <p class="hint">{{ t('ssoLanding.inviteExplain', { username: username() }) }}</p>
            <mat-form-field appearance="outline">
              <mat-label>{{ t('ssoLanding.inviteCode') }}</mat-label>
              <input matInput formControlName="inviteCode" data-testid="sso-invite-code" />
              <mat-hint>{{ t('ssoLanding.inviteHint') }}</mat-hint>
            </mat-form-field>
            <app-form-error [error]="problem()" testId="sso-error" />
            <app-submit-button [busy]="act.busy()" testId="sso-invite-submit">
              {{ t('ssoLanding.inviteSubmit') }}
            </app-submit-button>
          </form>
        } @else if (problem()) {
          <app-form-error [error]="problem()" [icon]="true" testId="sso-error" />
          <div class="actions">
            <a mat-flat-button [href]="retryUrl" data-testid="sso-retry">
              {{ t('ssoLanding.retry') }}
            </a>
            <a mat-stroked-button routerLink="/login" [queryParams]="{ local: 1 }">
              {{ t('ssoLanding.usePassword') }}
            </a>
          </div>
        } @else {
          <div class="waiting" role="status">
            <mat-progress-spinner mode="indeterminate" diameter="32" />
            <span>{{ t('ssoLanding.signingIn') }}</span>
          </div>
        }
      </ng-container>
    </app-auth-page>
  `,
  styles: `
    .title {
      margin: 0 0 12px;
      font: var(--mat-sys-headline-small);
    }
    form {
      display: flex;
      flex-direction: column;
      gap: 8px;
    }
    .hint {
      margin: 0 0 8px;
      color: var(--mat-sys-on-surface-variant);
    }
    .waiting {
      display: flex;
      align-items: center;
      gap: 12px;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      margin-top: 16px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class SsoLanding implements OnInit {
  private readonly api = inject(AuthApi);
  private readonly session = inject(SessionStore);
  private readonly router = inject(Router);
  private readonly errors = inject(ErrorTexts);
  /** Query param `code`: the one-time sign-in code of the callback. */
  readonly code = input<string | undefined>();
  /** Query param `error`: the API error code of a failed callback. */
  readonly error = input<string | undefined>();

  protected readonly act = action();
  /** The callback's own failure (no exchange was tried), or the exchange's. */
  private readonly failed = signal<ErrorText | null>(null);
  protected readonly problem = computed(() => this.act.error() ?? this.failed());
  protected readonly needsInvite = signal(false);
  protected readonly username = signal('');
  protected readonly retryUrl = ssoStartUrl(null);
  protected readonly form = inject(NonNullableFormBuilder).group({
    inviteCode: ['', [Validators.required, Validators.maxLength(64)]],
  });
  private readonly hasCode = computed(() => Boolean(this.code()));

  ngOnInit(): void {
    const failed = this.error();
    if (failed || !this.hasCode()) {
      // The callback's error code only (no request id): its reply was a redirect, not a body.
      const code = /^[A-Z_]{3,40}$/.test(failed ?? '') ? failed! : 'SSO_STATE_INVALID';
      this.failed.set(this.errors.describe(new ApiError(400, code, '', null, undefined)));
      return;
    }
    void this.exchange();
  }

  protected async sendInvite(): Promise<void> {
    await this.exchange(this.form);
  }

  /** The code for a session; with `form`, after the invite code the API asked for. */
  private async exchange(form?: typeof this.form): Promise<void> {
    const inviteCode = form?.getRawValue().inviteCode.trim();
    const work = async () => {
      const reply = await this.api.exchangeSso({
        code: this.code()!,
        ...(inviteCode ? { inviteCode } : {}),
      });
      this.session.adopt(reply);
      const redirect = safeRedirect(reply.redirect);
      await this.router.navigateByUrl(redirect ?? OVERVIEW_URL, { replaceUrl: true });
    };
    const options = {
      handle: (error: unknown) => {
        if (!(error instanceof ApiError) || error.code !== 'REGISTRATION_CODE_REQUIRED')
          return false;
        const details = error.details as { username?: string } | undefined;
        this.username.set(details?.username ?? '');
        this.needsInvite.set(true);
        return true;
      },
    };
    if (form) await this.act.submit(form, work, options);
    else await this.act.run(work, options);
  }
}
