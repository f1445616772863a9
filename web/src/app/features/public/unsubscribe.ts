import { ChangeDetectionStrategy, Component, inject, input, signal } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AuthPage } from './auth-page';
import { RegistrationApi } from './registration-api';

/**
 * `/unsubscribe?token=` (docs/lifecycle.md): where the "stop these e-mails" link of a reminder
 * mail lands. It asks before it posts — mail scanners open links, so opening the page changes
 * nothing — and works without signing in; the mail client's one-click button posts to the same
 * route directly.
 */
@Component({
  selector: 'app-unsubscribe',
  imports: [MatIcon, RouterLink, TranslocoDirective, AuthPage, FormError, SubmitButton],
  template: `
    <app-auth-page *transloco="let t" [heading]="t('unsubscribe.heading')">
      @if (done()) {
        <p class="ok" role="status" data-testid="unsubscribe-done">
          <mat-icon aria-hidden="true" svgIcon="mark_email_read" />
          <span>{{ t('unsubscribe.done') }}</span>
        </p>
        <a links routerLink="/console/account">{{ t('unsubscribe.account') }}</a>
      } @else if (!token()) {
        <p class="lead" data-testid="unsubscribe-missing">{{ t('unsubscribe.missing') }}</p>
        <a links routerLink="/console/account">{{ t('unsubscribe.account') }}</a>
      } @else {
        <p class="lead">{{ t('unsubscribe.lead') }}</p>
        <app-form-error [error]="act.error()" testId="unsubscribe-error" />
        <app-submit-button
          class="submit"
          type="button"
          [busy]="act.busy()"
          testId="unsubscribe-submit"
          (click)="confirm()"
        >
          {{ t('unsubscribe.submit') }}
        </app-submit-button>
        <a links routerLink="/console/account">{{ t('unsubscribe.account') }}</a>
      }
    </app-auth-page>
  `,
  styleUrl: './register.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Unsubscribe {
  private readonly api = inject(RegistrationApi);
  /** From the mail's link. */
  readonly token = input<string | undefined>();
  protected readonly act = action();
  protected readonly done = signal(false);

  protected async confirm(): Promise<void> {
    const token = this.token();
    if (!token) return;
    await this.act.run(async () => {
      await this.api.unsubscribe(token);
      this.done.set(true);
    });
  }
}
