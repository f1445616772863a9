import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCard, MatCardContent } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { membershipOf } from '../../core/session/membership';
import { SessionStore } from '../../core/session/session-store';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { MEDIA_CHIPS, MEMBERSHIP_CHIPS } from '../../shared/membership-view';
import { localListPage } from '../../shared/list-page';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { ErrorState } from '../../shared/page-state';
import { StatusChip } from '../../shared/status-chip';
import type { Redemption } from '@usher/contracts';
import type { PortraitRange } from '../../shared/playback/playback-api';
import { PlaybackPortrait } from '../../shared/playback/playback-portrait';
import { DeviceTable } from '../../shared/devices/device-table';
import { MemberSharing } from '../../shared/sharing/member-sharing';
import { DevicesApi } from '../../shared/devices/devices-api';
import { NoticeTable } from '../../shared/notices/notice-table';
import { NoticesApi } from '../../shared/notices/notices-api';
import { UserActions } from './user-actions';
import { type AdminUserDetail, UsersApi } from './users-api';
import { RoutedTabGroup, routedTabs } from '../../shared/routed-tabs';

/** Redemptions a page on the Redemptions tab. */
const REDEMPTIONS_PAGE_SIZE = 10;
/** Devices a page on the Devices tab. */
const DEVICES_PAGE_SIZE = 10;

/** Notices a page on the Notices tab. */
const NOTICES_PAGE_SIZE = 10;

const TABS = ['profile', 'playback', 'redemptions', 'devices', 'notices', 'sharing'] as const;

/**
 * `/admin/users/:id?tab=` (60-web.md §4.3): header with counts, the profile with every action,
 * the user's playback, redemptions, devices and the notices the lifecycle sent them (issue 29).
 */
@Component({
  selector: 'app-user-detail',
  imports: [
    MemberSharing,
    MatButton,
    MatCard,
    MatCardContent,
    MatIcon,
    MatTab,
    MatTabGroup,
    RoutedTabGroup,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    ErrorState,
    FormError,
    DATA_TABLE,
    PlaybackPortrait,
    DeviceTable,
    NoticeTable,
  ],
  templateUrl: './user-detail.html',
  styleUrl: './user-detail.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class UserDetail {
  private readonly api = inject(UsersApi);
  private readonly devicesApi = inject(DevicesApi);
  private readonly noticesApi = inject(NoticesApi);
  private readonly actions = inject(UserActions);
  private readonly router = inject(Router);
  private readonly errors = inject(ErrorTexts);
  private readonly me = inject(SessionStore).me;

  /** Route param `:id`. */
  readonly id = input.required<string>();
  /** Query param `tab`. */
  readonly tab = input<string | undefined>();
  protected readonly tabs = routedTabs(TABS, this.tab);

  private readonly detail = apiResource({
    params: () => this.id(),
    load: (id) => this.api.get(id),
  });
  protected readonly user = this.detail.value;
  protected readonly error = this.detail.error;
  protected readonly actionError = signal<ErrorText | null>(null);
  protected readonly isSelf = computed(() => this.user()?.id === this.me()?.id);
  protected readonly membership = computed(() => {
    const user = this.user();
    return user ? membershipOf(user) : null;
  });
  protected readonly membershipChips = MEMBERSHIP_CHIPS;
  /** The Playback tab's period (kept while the page is open, not in the URL). */
  protected readonly playbackRange = signal<PortraitRange>({ range: '30d', from: '', to: '' });
  protected readonly mediaChips = MEDIA_CHIPS;

  protected readonly redemptionTable: TableSpec<Redemption> = {
    columns: [
      { id: 'date', header: 'renewal.history.date', date: (r) => r.createdAt },
      { id: 'code', header: 'renewal.history.code', cellClass: 'mono', text: (r) => r.code },
      { id: 'days', header: 'renewal.history.days', text: (r) => r.days },
      { id: 'newExpiry', header: 'renewal.history.newExpiry', date: (r) => r.newExpiresAt },
    ],
    emptyIcon: 'redeem',
    empty: 'adminUsers.noRedemptions',
  };
  /** The user's redemptions, paged in memory once the profile is there. */
  protected readonly redemptions = localListPage({
    params: () => (this.user() ? this.id() : undefined),
    load: (id, page, pageSize) => this.api.redemptions(id, page, pageSize),
    pageSize: REDEMPTIONS_PAGE_SIZE,
  });

  /** The devices the user's media account used last; read only while the tab is open. */
  protected readonly devices = localListPage({
    params: () => (this.user() && TABS[this.tabs.index()] === 'devices' ? this.id() : undefined),
    load: (userId, page, pageSize) => this.devicesApi.list({ userId, page, pageSize }),
    pageSize: DEVICES_PAGE_SIZE,
  });

  /** What the lifecycle sent the member, skipped or failed; read only while the tab is open. */
  protected readonly notices = localListPage({
    params: () => (this.user() && TABS[this.tabs.index()] === 'notices' ? this.id() : undefined),
    load: (userId, page, pageSize, abort) =>
      this.noticesApi.list({ userId, page, pageSize }, abort),
    pageSize: NOTICES_PAGE_SIZE,
  });

  /** Loads the profile and its redemptions again (Retry, or after an action). */
  protected load(): void {
    this.detail.reload();
    this.redemptions.reload();
  }

  protected readonly edit = () => this.run((a, u) => a.edit(u));
  protected readonly extend = () => this.run((a, u) => a.extend(u));
  protected readonly toggleActive = () => this.run((a, u) => a.setActive(u, !u.isActive));
  protected readonly toggleMedia = () =>
    this.run((a, u) => a.setMediaAccess(u, u.mediaAccessDisabled));
  protected readonly syncMedia = () => this.run((a, u) => a.syncMedia(u));
  protected readonly resetPassword = () => this.run((a, u) => a.resetPassword(u));

  protected async remove(): Promise<void> {
    const user = this.user();
    if (!user) return;
    this.actionError.set(null);
    try {
      if (await this.actions.remove(user)) await this.router.navigateByUrl('/admin/users');
    } catch (error) {
      this.actionError.set(this.errors.describe(error));
    }
  }

  private async run(
    action: (actions: UserActions, user: AdminUserDetail) => Promise<boolean>,
  ): Promise<void> {
    const user = this.user();
    if (!user) return;
    this.actionError.set(null);
    try {
      if (await action(this.actions, user)) this.load();
    } catch (error) {
      this.actionError.set(this.errors.describe(error));
      this.load();
    }
  }
}
