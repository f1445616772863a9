import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  input,
  signal,
  untracked,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCard, MatCardContent } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { MatPaginator, type PageEvent } from '@angular/material/paginator';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Redemption } from '@usher/contracts';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { membershipOf } from '../../core/session/membership';
import { SessionStore } from '../../core/session/session-store';
import { FormError } from '../../shared/form-error';
import { LocalDatePipe } from '../../shared/local-date';
import { MEDIA_CHIPS, MEMBERSHIP_CHIPS } from '../../shared/membership-view';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { StatusChip } from '../../shared/status-chip';
import { UserActions } from './user-actions';
import { type AdminUserDetail, UsersApi } from './users-api';

const TABS = ['profile', 'redemptions'] as const;

/**
 * `/admin/users/:id?tab=` (60-web.md §4.3): header with counts, the profile with every action,
 * and the user's redemptions. Playback, payments, devices and audit tabs come with their APIs.
 */
@Component({
  selector: 'app-user-detail',
  imports: [
    MatButton,
    MatCard,
    MatCardContent,
    MatIcon,
    MatPaginator,
    MatTab,
    MatTabGroup,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    EmptyState,
    ErrorState,
    FormError,
  ],
  templateUrl: './user-detail.html',
  styleUrl: './user-detail.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class UserDetail {
  private readonly api = inject(UsersApi);
  private readonly actions = inject(UserActions);
  private readonly router = inject(Router);
  private readonly errors = inject(ErrorTexts);
  private readonly me = inject(SessionStore).me;

  /** Route param `:id`. */
  readonly id = input.required<string>();
  /** Query param `tab`. */
  readonly tab = input<string | undefined>();
  protected readonly tabIndex = computed(() =>
    Math.max(0, TABS.indexOf((this.tab() ?? 'profile') as (typeof TABS)[number])),
  );

  protected readonly user = signal<AdminUserDetail | null>(null);
  protected readonly error = signal<ErrorText | null>(null);
  protected readonly actionError = signal<ErrorText | null>(null);
  protected readonly isSelf = computed(() => this.user()?.id === this.me()?.id);
  protected readonly membership = computed(() => {
    const user = this.user();
    return user ? membershipOf(user) : null;
  });
  protected readonly membershipChips = MEMBERSHIP_CHIPS;
  protected readonly mediaChips = MEDIA_CHIPS;

  protected readonly redemptions = signal<Redemption[] | null>(null);
  protected readonly redemptionsTotal = signal(0);
  protected readonly redemptionsPage = signal(1);

  constructor() {
    effect(() => {
      const id = this.id();
      untracked(() => void this.load(id));
    });
  }

  protected async load(id = this.id()): Promise<void> {
    this.error.set(null);
    try {
      this.user.set(await this.api.get(id));
      await this.loadRedemptions();
    } catch (error) {
      this.error.set(this.errors.describe(error));
    }
  }

  protected async loadRedemptions(): Promise<void> {
    try {
      const page = await this.api.redemptions(this.id(), this.redemptionsPage(), 10);
      this.redemptions.set(page.data);
      this.redemptionsTotal.set(page.total);
    } catch {
      // The profile is the page; a failed side list just shows as empty.
      this.redemptions.set([]);
    }
  }

  protected changePage(event: PageEvent): void {
    this.redemptionsPage.set(event.pageIndex + 1);
    void this.loadRedemptions();
  }

  protected selectTab(index: number): void {
    void this.router.navigate([], {
      queryParams: { tab: TABS[index] },
      queryParamsHandling: 'merge',
      replaceUrl: true,
    });
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
      if (await action(this.actions, user)) await this.load();
    } catch (error) {
      this.actionError.set(this.errors.describe(error));
      await this.load();
    }
  }
}
