import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { TranslocoDirective } from '@jsverse/transloco';
import { membershipOf } from '../../core/session/membership';
import { SessionStore } from '../../core/session/session-store';
import { LocalDatePipe } from '../../shared/local-date';
import { MEDIA_CHIPS, MEMBERSHIP_CHIPS } from '../../shared/membership-view';
import { StatusChip } from '../../shared/status-chip';
import { TitledCard } from '../../shared/titled-card';
import { MatCardActions } from '@angular/material/card';

/** Profile summary: username, role, member since, membership, last login (60-web.md §4.2). */
@Component({
  selector: 'app-profile-card',
  imports: [MatCardActions, TitledCard, MatButton, TranslocoDirective, LocalDatePipe, StatusChip],
  template: `
    @if (me(); as me) {
      <app-titled-card
        *transloco="let t"
        data-testid="profile-card"
        [title]="t('account.profile.title')"
      >
        <dl class="facts">
          <dt>{{ t('account.profile.username') }}</dt>
          <dd data-testid="profile-username">{{ me.username }}</dd>
          <dt>{{ t('account.profile.email') }}</dt>
          <dd>{{ me.email ?? t('account.profile.noEmail') }}</dd>
          <dt>{{ t('account.profile.role') }}</dt>
          <dd>{{ t('roles.' + me.role) }}</dd>
          <dt>{{ t('account.profile.memberSince') }}</dt>
          <dd>{{ me.createdAt | localDate }}</dd>
          <dt>{{ t('account.profile.membership') }}</dt>
          <dd>
            @if (membership(); as m) {
              <app-status-chip
                [tone]="membershipChips[m.state].tone"
                [icon]="membershipChips[m.state].icon"
                [label]="t(membershipChips[m.state].key)"
              />
              @if (m.expiresAt) {
                <span class="expiry">{{
                  t('account.profile.until', { date: m.expiresAt | localDate })
                }}</span>
              }
            }
          </dd>
          <dt>{{ t('account.profile.mediaServer') }}</dt>
          <dd>
            <app-status-chip
              [tone]="mediaChips[me.media.state].tone"
              [icon]="mediaChips[me.media.state].icon"
              [label]="t(mediaChips[me.media.state].key)"
            />
          </dd>
          <dt>{{ t('account.profile.lastLogin') }}</dt>
          <dd>
            {{ me.lastLoginAt ? (me.lastLoginAt | localDate: 'dateTime') : t('overview.never') }}
          </dd>
        </dl>
        <mat-card-actions>
          <button
            mat-stroked-button
            type="button"
            [disabled]="busy()"
            (click)="signOutEverywhere()"
          >
            {{ t('account.profile.signOutEverywhere') }}
          </button>
        </mat-card-actions>
      </app-titled-card>
    }
  `,
  styles: `
    h2 {
      margin: 0;
      font: var(--mat-sys-title-large);
    }
    .facts {
      display: grid;
      grid-template-columns: minmax(120px, auto) 1fr;
      gap: 10px 16px;
      margin: 12px 0 0;
      align-items: center;
    }
    dt {
      color: var(--mat-sys-on-surface-variant);
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .expiry {
      margin-inline-start: 8px;
    }
    @media (max-width: 599.98px) {
      .facts {
        grid-template-columns: minmax(0, 1fr);
        gap: 2px;
      }
      dd {
        margin-bottom: 10px;
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ProfileCard {
  private readonly session = inject(SessionStore);
  protected readonly me = this.session.me;
  protected readonly membership = computed(() => {
    const me = this.me();
    return me ? membershipOf(me) : null;
  });
  protected readonly membershipChips = MEMBERSHIP_CHIPS;
  protected readonly mediaChips = MEDIA_CHIPS;
  protected readonly busy = signal(false);

  /** `POST /auth/logout {allDevices:true}`: every token of the account dies, this one too. */
  protected async signOutEverywhere(): Promise<void> {
    this.busy.set(true);
    await this.session.signOut(true);
    this.busy.set(false);
  }
}
