import {
  ChangeDetectionStrategy,
  Component,
  Injector,
  afterNextRender,
  effect,
  inject,
  input,
} from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { SessionStore } from '../../core/session/session-store';
import { EmailCard } from './email-card';
import { MediaCard } from './media-card';
import { MessengerCard } from './messenger-card';
import { NotificationsCard } from './notifications-card';
import { PasswordCard } from './password-card';
import { ProfileCard } from './profile-card';
import { SsoCard } from './sso-card';

/**
 * `/console/account?section=`. During the forced first-login change it shows only the password
 * card with one line of explanation (60-web.md §2.3); otherwise one card per section.
 */
@Component({
  selector: 'app-account',
  imports: [
    MatIcon,
    TranslocoDirective,
    EmailCard,
    MediaCard,
    MessengerCard,
    NotificationsCard,
    PasswordCard,
    ProfileCard,
    SsoCard,
  ],
  template: `
    <ng-container *transloco="let t">
      <h1>{{ t('account.heading') }}</h1>
      @if (forced()) {
        <p class="forced" data-testid="forced-change">
          <mat-icon aria-hidden="true" svgIcon="lock_reset" />
          <span>{{ t('account.forcedExplanation') }}</span>
        </p>
      } @else {
        <app-profile-card id="profile" />
      }
      <app-password-card id="password" [forced]="forced()" [redirect]="redirect()" />
      @if (!forced()) {
        <app-email-card id="email" />
        <app-messenger-card id="messenger" />
        <app-notifications-card id="notifications" />
        <app-media-card id="media-server" />
        <app-sso-card id="sso" [outcome]="sso()" [failure]="ssoError()" />
      }
    </ng-container>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 16px;
      max-width: 720px;
    }
    h1 {
      margin: 0 0 8px;
      font: var(--mat-sys-headline-medium);
    }
    .forced {
      display: flex;
      gap: 12px;
      align-items: flex-start;
      margin: 0;
      padding: 12px 16px;
      border-radius: 12px;
      background: var(--mat-sys-secondary-container);
      color: var(--mat-sys-on-secondary-container);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Account {
  private readonly injector = inject(Injector);
  /** Query param `section`: the card to scroll to (`password`, `email`, `media-server`…). */
  readonly section = input<string | undefined>();
  /** Query params `sso` / `ssoError`: the outcome of linking a provider sign-in. */
  readonly sso = input<string | undefined>();
  readonly ssoError = input<string | undefined>();
  /** Query param `redirect`: where to continue after the forced change. */
  readonly redirect = input<string | undefined>();
  protected readonly forced = inject(SessionStore).mustChangePassword;

  constructor() {
    effect(() => {
      const section = this.section();
      if (!section) return;
      afterNextRender(() => document.getElementById(section)?.scrollIntoView({ block: 'start' }), {
        injector: this.injector,
      });
    });
  }
}
