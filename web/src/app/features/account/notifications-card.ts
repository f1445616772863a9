import { ChangeDetectionStrategy, Component, inject, linkedSignal } from '@angular/core';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { TranslocoDirective } from '@jsverse/transloco';
import type { NotificationPreferences } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { SessionStore } from '../../core/session/session-store';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { ErrorState } from '../../shared/page-state';
import { AccountApi } from './account-api';
import { TitledCard } from '../../shared/titled-card';

/**
 * Notifications (issue 29, `GET/PUT /me/notifications`): whether membership reminders and
 * announcements reach the member by e-mail and through the bot. Each switch saves at once; a
 * refused save puts the switch back and says why. The console always shows announcements.
 */
@Component({
  selector: 'app-notifications-card',
  imports: [TitledCard, MatSlideToggle, TranslocoDirective, FormError, ErrorState],
  template: `
    <app-titled-card
      *transloco="let t"
      data-testid="notifications-card"
      [title]="t('accountCenter.notifications.title')"
    >
      <p class="explain">{{ t('accountCenter.notifications.explain') }}</p>
      @if (prefs.error(); as error) {
        <app-error-state [error]="error" (retry)="prefs.reload()" />
      } @else if (shown(); as p) {
        <div class="switches">
          <mat-slide-toggle
            [checked]="p.email"
            [disabled]="saving.busy()"
            (change)="set('email', $event.checked)"
            data-testid="notify-email"
          >
            {{ t('accountCenter.notifications.email') }}
          </mat-slide-toggle>
          <p class="hint">
            @if (me()?.email; as email) {
              {{ t('accountCenter.notifications.emailTo', { email }) }}
            } @else {
              {{ t('accountCenter.notifications.noEmail') }}
            }
          </p>
          <mat-slide-toggle
            [checked]="p.messenger"
            [disabled]="saving.busy()"
            (change)="set('messenger', $event.checked)"
            data-testid="notify-messenger"
          >
            {{ t('accountCenter.notifications.messenger') }}
          </mat-slide-toggle>
          <p class="hint">
            {{
              t(
                me()?.messenger?.bound
                  ? 'accountCenter.notifications.messengerLinked'
                  : 'accountCenter.notifications.messengerUnlinked'
              )
            }}
          </p>
        </div>
        <app-form-error [error]="saving.error()" testId="notifications-error" />
      }
    </app-titled-card>
  `,
  styleUrl: './cards.scss',
  styles: `
    .switches {
      display: flex;
      flex-direction: column;
      gap: 4px;
    }
    mat-slide-toggle {
      min-height: 48px;
      display: flex;
      align-items: center;
    }
    .hint {
      margin: 0 0 8px 52px;
      font: var(--mat-sys-body-small);
    }
    .explain {
      margin: 0 0 12px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class NotificationsCard {
  private readonly api = inject(AccountApi);
  protected readonly me = inject(SessionStore).me;
  protected readonly prefs = apiResource({
    params: () => this.me()?.id,
    load: (_id, abort) => this.api.notifications(abort),
  });
  /** What the switches show: the saved preferences, or the change being saved. */
  protected readonly shown = linkedSignal<NotificationPreferences | null>(() => this.prefs.value());
  protected readonly saving = action();

  protected async set(channel: keyof NotificationPreferences, on: boolean): Promise<void> {
    const before = this.shown();
    if (!before) return;
    const next = { ...before, [channel]: on };
    this.shown.set(next);
    const ok = await this.saving.run(
      async () => this.shown.set(await this.api.saveNotifications(next)),
      { done: 'accountCenter.notifications.saved' },
    );
    if (!ok) this.shown.set(before);
  }
}
