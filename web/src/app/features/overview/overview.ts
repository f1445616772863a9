import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { MediaRequest } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { DAYS_LEFT_WARNING, membershipOf } from '../../core/session/membership';
import { SessionStore } from '../../core/session/session-store';
import { LocalDatePipe } from '../../shared/local-date';
import { MediaLinks } from '../../shared/media-link';
import { MEMBERSHIP_CHIPS } from '../../shared/membership-view';
import { REQUEST_STATUS_VIEW } from '../../shared/requests/request-status';
import { StatusChip } from '../../shared/status-chip';
import { MediaLibrary } from './media-library';
import { MemberAnnouncementsCard } from './announcements';
import { MediaServerCard } from './media-server-card';
import { RenewHero, renewHeroState } from './renew-hero';
import { SetupChecklist } from './setup-checklist';
import { MyStreams } from './my-streams';

/** A record loaded this recently (at app start, say) is shown as is, without another `GET /me`. */
export const ME_MAX_AGE_MS = 10_000;

/**
 * `/console/overview` (60-web.md §4.2): the member's own record from `GET /me` (membership,
 * media link, messenger), the latest requests, the media server's address and connection help,
 * library counts and the "recently added" rails; admins also get the setup checklist.
 */
@Component({
  selector: 'app-overview',
  imports: [
    MatButton,
    MatCard,
    MatCardContent,
    MatCardHeader,
    MatCardTitle,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    MediaLibrary,
    MediaServerCard,
    MemberAnnouncementsCard,
    RenewHero,
    SetupChecklist,
    MyStreams,
  ],
  templateUrl: './overview.html',
  styleUrl: './overview.scss',
  // One `GET /media/server` for the server card and the posters that open items there.
  providers: [MediaLinks],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Overview {
  private readonly session = inject(SessionStore);
  private readonly errors = inject(ErrorTexts);
  protected readonly me = this.session.me;
  protected readonly membership = computed(() => {
    const me = this.me();
    return me ? membershipOf(me) : null;
  });
  protected readonly showDaysLeft = computed(() => {
    const m = this.membership();
    return m?.state === 'active' && m.daysLeft !== null && m.daysLeft <= DAYS_LEFT_WARNING;
  });
  /** Whether the hero at the top carries the Renew (then the membership card does not). */
  protected readonly renewHero = computed(() => {
    const me = this.me();
    return me ? renewHeroState(me) !== null : false;
  });
  /** Renewing makes sense for any membership with an end date (issue 14: "what now?"). */
  protected readonly renewable = computed(() => {
    const m = this.membership();
    return m !== null && m.state !== 'no_expiry';
  });
  private readonly http = inject(HttpClient);
  /** The member's three latest requests, newest first (the list's default order). */
  protected readonly recent = apiResource({
    params: () => this.me()?.id,
    load: () =>
      firstValueFrom(
        this.http.get<Page<MediaRequest>>('/api/v1/media-requests', {
          params: { page: 1, pageSize: 3 },
        }),
      ),
  });
  protected readonly requestStatus = REQUEST_STATUS_VIEW;
  protected readonly membershipChips = MEMBERSHIP_CHIPS;
  protected readonly loading = signal(false);
  protected readonly error = signal<ErrorText | null>(null);

  constructor() {
    void this.refresh();
  }

  /** The record may have changed since sign-in (a renewal by an admin, say): fetch it fresh. */
  protected async refresh(): Promise<void> {
    this.loading.set(true);
    this.error.set(null);
    try {
      await this.session.freshMe(ME_MAX_AGE_MS);
    } catch (error) {
      this.error.set(this.errors.describe(error));
    } finally {
      this.loading.set(false);
    }
  }
}
