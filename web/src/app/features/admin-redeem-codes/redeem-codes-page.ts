import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { TranslocoDirective } from '@jsverse/transloco';
import type { RedeemCode, Redemption } from '@usher/contracts';
import { CODE_STATUS_FILTERS, REDEMPTION_KINDS } from '@usher/contracts/values';
import { Notifier } from '../../core/notifier';
import { action } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FilterBar, type FilterSpec, optionsOf } from '../../shared/filter-field';
import { FormError } from '../../shared/form-error';
import { dayParam, listPage, oneOfParam } from '../../shared/list-page';
import { LocalDatePipe } from '../../shared/local-date';
import { type RowAction } from '../../shared/row-menu';
import { type Tone } from '../../shared/status-chip';
import { CodeDialog, type CodeDialogData, type CodeDialogResult } from './code-dialog';
import { RedeemCodesApi } from './redeem-codes-api';
import { RoutedTabGroup, routedTabs } from '../../shared/routed-tabs';
import { chipColumn, menuColumn, whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

const TABS = ['codes', 'redemptions'] as const;
/** Every filter of both tabs: "Clear filters" removes them all, as it always has. */
const FILTERS = ['status', 'search', 'username', 'code', 'kind', 'from', 'to'];

/** Redeem-code status chips (60-web.md §6.6 "redeem code"). */
export const CODE_CHIPS: Record<RedeemCode['status'], { tone: Tone; icon: string }> = {
  active: { tone: 'success', icon: 'check_circle' },
  exhausted: { tone: 'neutral', icon: 'block' },
  expired: { tone: 'neutral', icon: 'event_busy' },
};

/**
 * `/admin/redeem-codes?tab=codes|redemptions` (60-web.md §4.3). Filters and paging live in the
 * query string, so reload, back and shared links keep them.
 */
@Component({
  selector: 'app-redeem-codes-page',
  imports: [
    MatButton,
    MatIconButton,
    MatIcon,
    MatTab,
    MatTabGroup,
    RoutedTabGroup,
    TranslocoDirective,
    FormError,
    DATA_TABLE,
    FilterBar,
    LocalDatePipe,
  ],
  templateUrl: './redeem-codes-page.html',
  styleUrl: './redeem-codes-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class RedeemCodesPage {
  private readonly api = inject(RedeemCodesApi);
  private readonly dialog = inject(MatDialog);
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);

  // Query params (bound by the router).
  readonly tab = input<string | undefined>();
  readonly status = input<string | undefined>();
  readonly search = input<string | undefined>();
  readonly username = input<string | undefined>();
  readonly code = input<string | undefined>();
  readonly kind = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly tabs = routedTabs(TABS, this.tab, {
    go: (name) => this.navigate({ tab: name }),
  });
  private readonly paging = computed(() => paging(this.page(), this.pageSize()));
  protected readonly codes = listPage({
    query: () => ({
      status: oneOfParam(this.status(), CODE_STATUS_FILTERS) || 'active',
      search: this.search() ?? '',
      ...this.paging(),
    }),
    load: (query, abort) => this.api.list(query, abort),
    filters: FILTERS,
    filtered: (q) => !!q.search || q.status !== 'active',
    active: () => this.tabs.index() === 0,
  });
  protected readonly redemptions = listPage({
    query: () => ({
      username: this.username() ?? '',
      code: this.code() ?? '',
      kind: oneOfParam(this.kind(), REDEMPTION_KINDS),
      from: dayParam(this.from()),
      to: dayParam(this.to()),
      ...this.paging(),
    }),
    load: (query, abort) => this.api.redemptions(query, abort),
    filters: FILTERS,
    filtered: (q) => !!(q.username || q.code || q.kind || q.from || q.to),
    active: () => this.tabs.index() === 1,
  });
  protected readonly codeFilters: FilterSpec[] = [
    {
      param: 'status',
      label: 'redeemCodes.status',
      options: optionsOf(CODE_STATUS_FILTERS, 'redeemCodes.statusFilter.'),
      testId: 'codes-status',
    },
    { param: 'search', label: 'redeemCodes.search', testId: 'codes-search' },
  ];
  protected readonly redemptionFilters: FilterSpec[] = [
    { param: 'username', label: 'redeemCodes.filterUser' },
    { param: 'code', label: 'redeemCodes.filterCode' },
    {
      param: 'kind',
      label: 'redeemCodes.filterKind',
      options: optionsOf(REDEMPTION_KINDS, 'redeemCodes.kindName.'),
      any: 'redeemCodes.kindAll',
    },
    { param: 'from', label: 'redeemCodes.filterFrom', type: 'date' },
    { param: 'to', label: 'redeemCodes.filterTo', type: 'date' },
  ];
  protected readonly chips = CODE_CHIPS;
  protected readonly codeTable: TableSpec<RedeemCode> = {
    columns: [
      { id: 'code', header: 'redeemCodes.col.code' },
      { id: 'days', header: 'redeemCodes.col.days', width: 'num', text: (c) => c.days },
      {
        id: 'uses',
        header: 'redeemCodes.col.uses',
        width: 'num',
        key: (c) => ['redeemCodes.usesOf', { used: c.usedCount, max: c.maxUses }],
      },
      { id: 'expires', header: 'redeemCodes.col.expires', width: 'date' },
      { id: 'notes', header: 'redeemCodes.col.notes', text: (c) => c.notes },
      {
        id: 'createdBy',
        header: 'redeemCodes.col.createdBy',
        text: (c) => c.createdBy?.username ?? '',
      },
      chipColumn('status', 'redeemCodes.col.status', (c) => ({
        ...CODE_CHIPS[c.status],
        label: `redeemCodes.statusFilter.${c.status}`,
      })),
      menuColumn((c) => ({
        label: 'redeemCodes.actionsFor',
        params: { code: c.code },
        actions: this.rowActions(c),
      })),
    ],
    rowAttrs: (code: RedeemCode) => ({ 'data-code': code.code }),
    emptyIcon: 'redeem',
    empty: 'redeemCodes.empty',
    tableTestId: 'codes-table',
  };
  protected readonly redemptionTable: TableSpec<Redemption> = {
    columns: [
      whenColumn('date', 'redeemCodes.col.date', (r) => r.createdAt),
      { id: 'user', header: 'redeemCodes.col.user', text: (r) => r.user.username },
      { id: 'code', header: 'redeemCodes.col.code', cellClass: 'mono', text: (r) => r.code },
      { id: 'kind', header: 'redeemCodes.col.kind', key: (r) => `redeemCodes.kindName.${r.kind}` },
      { id: 'days', header: 'redeemCodes.col.days', text: (r) => r.days },
      { id: 'expiry', header: 'redeemCodes.col.expiry' },
    ],
    emptyIcon: 'history',
    empty: 'redeemCodes.noRedemptions',
    tableTestId: 'redemptions-table',
  };
  /** A refused delete, explained above the list. */
  protected readonly deleting = action();

  /** Changes query params; a filter change returns to page 1. */
  protected navigate(params: Record<string, string | number | null>): void {
    this.codes.navigate(params);
  }

  protected async create(): Promise<void> {
    await this.openDialog({});
  }

  protected async edit(code: RedeemCode): Promise<void> {
    await this.openDialog({ code });
  }

  /** A code's menu: share it as a sign-up link, edit it, delete it (60-web.md §4.3). */
  protected rowActions(code: RedeemCode): RowAction[] {
    return [
      { icon: 'link', label: 'redeemCodes.copyInviteLink', run: () => this.copyInviteLink(code) },
      { icon: 'edit', label: 'redeemCodes.edit', run: () => void this.edit(code) },
      { icon: 'delete', label: 'redeemCodes.delete', run: () => void this.remove(code) },
    ];
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
    await this.deleting.run(() => this.api.remove(code.id), {
      done: 'redeemCodes.deleted',
      after: () => this.codes.reload(),
    });
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
      if (changed !== false) this.codes.reload();
    });
  }
}
