import { Clipboard } from '@angular/cdk/clipboard';
import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  input,
  numberAttribute,
  signal,
  untracked,
} from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatIcon } from '@angular/material/icon';
import { MatInput } from '@angular/material/input';
import { MatMenu, MatMenuItem, MatMenuTrigger } from '@angular/material/menu';
import { MatPaginator, type PageEvent } from '@angular/material/paginator';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { Router } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { RedeemCode, Redemption } from '@usher/contracts';
import { CODE_STATUS_FILTERS } from '@usher/contracts/values';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import { confirmAction } from '../../shared/confirm-dialog';
import { LocalDatePipe } from '../../shared/local-date';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { StatusChip, type Tone } from '../../shared/status-chip';
import { CodeDialog, type CodeDialogData, type CodeDialogResult } from './code-dialog';
import { type CodeStatusFilter, RedeemCodesApi } from './redeem-codes-api';

const TABS = ['codes', 'redemptions'] as const;
const STATUSES = CODE_STATUS_FILTERS;
const PAGE_SIZES = [10, 20, 50];

/** Redeem-code status chips (60-web.md §6.6 "redeem code"). */
export const CODE_CHIPS: Record<RedeemCode['status'], { tone: Tone; icon: string }> = {
  active: { tone: 'success', icon: 'check_circle' },
  exhausted: { tone: 'neutral', icon: 'block' },
  expired: { tone: 'neutral', icon: 'event_busy' },
};

const pageSizeOf = (value: unknown) => {
  const n = numberAttribute(value, 20);
  return PAGE_SIZES.includes(n) ? n : 20;
};
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (value: string | undefined) => (value && DAY.test(value) ? value : '');
const pageOf = (value: unknown) => Math.max(1, Math.floor(numberAttribute(value, 1)));

/**
 * `/admin/redeem-codes?tab=codes|redemptions` (60-web.md §4.3). Filters and paging live in the
 * query string, so reload, back and shared links keep them.
 */
@Component({
  selector: 'app-redeem-codes-page',
  imports: [
    FormsModule,
    MatButton,
    MatIconButton,
    MatFormField,
    MatLabel,
    MatIcon,
    MatInput,
    MatMenu,
    MatMenuItem,
    MatMenuTrigger,
    MatOption,
    MatPaginator,
    MatSelect,
    MatTab,
    MatTabGroup,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    EmptyState,
    ErrorState,
  ],
  templateUrl: './redeem-codes-page.html',
  styleUrl: './redeem-codes-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class RedeemCodesPage {
  private readonly api = inject(RedeemCodesApi);
  private readonly router = inject(Router);
  private readonly dialog = inject(MatDialog);
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);

  // Query params (bound by the router).
  readonly tab = input<string | undefined>();
  readonly status = input<string | undefined>();
  readonly search = input<string | undefined>();
  readonly username = input<string | undefined>();
  readonly code = input<string | undefined>();
  readonly kind = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();
  readonly page = input(1, { transform: pageOf });
  readonly pageSize = input(20, { transform: pageSizeOf });

  protected readonly tabIndex = computed(() =>
    Math.max(0, TABS.indexOf((this.tab() ?? 'codes') as (typeof TABS)[number])),
  );
  protected readonly statusFilter = computed<CodeStatusFilter>(() => {
    const status = this.status() as CodeStatusFilter | undefined;
    return status && STATUSES.includes(status) ? status : 'active';
  });
  protected readonly kindFilter = computed<'' | 'register' | 'renew'>(() => {
    const kind = this.kind();
    return kind === 'register' || kind === 'renew' ? kind : '';
  });
  protected readonly statuses = STATUSES;
  protected readonly pageSizes = PAGE_SIZES;
  protected readonly chips = CODE_CHIPS;

  protected readonly codes = signal<RedeemCode[] | null>(null);
  protected readonly redemptions = signal<Redemption[] | null>(null);
  protected readonly total = signal(0);
  protected readonly error = signal<ErrorText | null>(null);
  protected readonly filtered = computed(() =>
    this.tabIndex() === 0
      ? !!this.search() || this.statusFilter() !== 'active'
      : !!this.username() ||
        !!this.code() ||
        !!this.kindFilter() ||
        !!dayOf(this.from()) ||
        !!dayOf(this.to()),
  );

  constructor() {
    effect(() => {
      // Any query change reloads the visible tab.
      const query = {
        tab: this.tabIndex(),
        status: this.statusFilter(),
        search: this.search() ?? '',
        username: this.username() ?? '',
        code: this.code() ?? '',
        kind: this.kindFilter(),
        from: dayOf(this.from()),
        to: dayOf(this.to()),
        page: this.page(),
        pageSize: this.pageSize(),
      };
      untracked(() => void this.load(query));
    });
  }

  protected async reload(): Promise<void> {
    await this.load({
      tab: this.tabIndex(),
      status: this.statusFilter(),
      search: this.search() ?? '',
      username: this.username() ?? '',
      code: this.code() ?? '',
      kind: this.kindFilter(),
      from: dayOf(this.from()),
      to: dayOf(this.to()),
      page: this.page(),
      pageSize: this.pageSize(),
    });
  }

  private async load(q: {
    tab: number;
    status: CodeStatusFilter;
    search: string;
    username: string;
    code: string;
    kind: '' | 'register' | 'renew';
    from: string;
    to: string;
    page: number;
    pageSize: number;
  }): Promise<void> {
    this.error.set(null);
    try {
      if (q.tab === 0) {
        this.codes.set(null);
        const page = await this.api.list({
          status: q.status,
          search: q.search,
          page: q.page,
          pageSize: q.pageSize,
        });
        this.codes.set(page.data);
        this.total.set(page.total);
      } else {
        this.redemptions.set(null);
        const page = await this.api.redemptions({
          username: q.username,
          code: q.code,
          kind: q.kind,
          from: q.from,
          to: q.to,
          page: q.page,
          pageSize: q.pageSize,
        });
        this.redemptions.set(page.data);
        this.total.set(page.total);
      }
    } catch (error) {
      this.error.set(this.errors.describe(error));
    }
  }

  /** Changes query params; a filter change returns to page 1. */
  protected navigate(params: Record<string, string | number | null>, resetPage = true): void {
    void this.router.navigate([], {
      queryParams: { ...params, ...(resetPage ? { page: null } : {}) },
      queryParamsHandling: 'merge',
    });
  }

  protected selectTab(index: number): void {
    this.navigate({ tab: TABS[index]! });
  }

  protected changePage(event: PageEvent): void {
    this.navigate({ page: event.pageIndex + 1, pageSize: event.pageSize }, false);
  }

  protected clearFilters(): void {
    this.navigate({
      status: null,
      search: null,
      username: null,
      code: null,
      kind: null,
      from: null,
      to: null,
    });
  }

  protected async create(): Promise<void> {
    await this.openDialog({});
  }

  protected async edit(code: RedeemCode): Promise<void> {
    await this.openDialog({ code });
  }

  protected copy(code: RedeemCode): void {
    if (this.clipboard.copy(code.code)) this.notifier.show('common.copied');
  }

  /** A sign-up link that pre-fills the code (`/register?code=`, 60-web.md §3). */
  protected copyInviteLink(code: RedeemCode): void {
    const link = `${location.origin}/register?code=${encodeURIComponent(code.code)}`;
    if (this.clipboard.copy(link)) this.notifier.show('common.copied');
  }

  protected async remove(code: RedeemCode): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'redeemCodes.deleteTitle',
      consequenceKeys: ['redeemCodes.deleteConsequence', 'redeemCodes.deleteHistoryKept'],
      params: { code: code.code },
      confirmKey: 'redeemCodes.delete',
      destructive: true,
    });
    if (!confirmed) return;
    try {
      await this.api.remove(code.id);
      this.notifier.show('redeemCodes.deleted');
    } catch (error) {
      this.error.set(this.errors.describe(error));
    }
    await this.reload();
  }

  private async openDialog(data: CodeDialogData): Promise<void> {
    const ref = this.dialog.open<CodeDialog, CodeDialogData, CodeDialogResult>(CodeDialog, {
      data,
      maxWidth: '560px',
      width: 'calc(100vw - 32px)',
      autoFocus: 'first-tabbable',
    });
    ref.afterClosed().subscribe((changed) => {
      // A batch dialog dismissed with Escape after creating still changed the list.
      if (changed !== false) void this.reload();
    });
  }
}
