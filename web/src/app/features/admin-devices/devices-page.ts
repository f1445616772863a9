import { CountPipe } from '../../shared/count';
import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type {
  BlacklistCreated,
  BlacklistEntry,
  Device,
  DeviceAction,
  LogoutOutcome,
} from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { Notifier } from '../../core/notifier';
import { action } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FilterBar, type FilterOption, type FilterSpec } from '../../shared/filter-field';
import { FormError } from '../../shared/form-error';
import { emptyPage, listPage, oneOfParam } from '../../shared/list-page';
import { ErrorState } from '../../shared/page-state';
import { type RowAction } from '../../shared/row-menu';
import { StatusChip } from '../../shared/status-chip';
import { SubmitButton } from '../../shared/submit-button';
import { UsersApi } from '../admin-users';
import { BlacklistDialog } from './blacklist-dialog';
import { DeviceTable } from '../../shared/devices/device-table';
import { DevicesApi } from '../../shared/devices/devices-api';
import { RoutedTabGroup, routedTabs } from '../../shared/routed-tabs';
import { menuColumn, whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

const TABS = ['list', 'blacklist', 'actions'] as const;
/** Every filter of the list tab: "Clear filters" removes them all. */
const FILTERS = ['user', 'client', 'blacklisted'];
/** How many clients and users the stats cards rank. */
const TOP = 5;

/** A row of a stats ranking: the item, its count and its bar's share of the largest count. */
export interface RankRow<T> {
  item: T;
  count: number;
  /** 0–100: the bar's width. */
  share: number;
}

/** The first `TOP` items by count, with bar widths relative to the largest. */
export function ranking<T extends { count: number }>(rows: readonly T[]): RankRow<T>[] {
  const top = [...rows].sort((a, b) => b.count - a.count).slice(0, TOP);
  const max = Math.max(1, ...top.map((row) => row.count));
  return top.map((item) => ({
    item,
    count: item.count,
    share: Math.round((item.count / max) * 100),
  }));
}

/**
 * `/admin/devices?tab=list|blacklist|actions` (60-web.md §4.3 "Devices"): the stats cards, the
 * devices signed in to the media server with filters and Log out, the client blacklist (add,
 * remove, log out all) and the device action log. Filters and paging live in the query string.
 */
@Component({
  selector: 'app-devices-page',
  imports: [
    CountPipe,
    MatButton,
    MatIcon,
    MatTab,
    MatTabGroup,
    RoutedTabGroup,
    RouterLink,
    TranslocoDirective,
    DeviceTable,
    ErrorState,
    FilterBar,
    FormError,
    DATA_TABLE,
    StatusChip,
    SubmitButton,
  ],
  templateUrl: './devices-page.html',
  styleUrl: './devices-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class DevicesPage {
  private readonly api = inject(DevicesApi);
  private readonly users = inject(UsersApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);

  // Query params (bound by the router).
  readonly tab = input<string | undefined>();
  /** A member's username: the devices their media account used last. */
  readonly user = input<string | undefined>();
  readonly client = input<string | undefined>();
  readonly blacklisted = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly tabs = routedTabs(TABS, this.tab, {
    go: (name, i) => {
      this.clearErrors();
      this.navigate({ tab: i === 0 ? null : name });
    },
  });
  private readonly paging = computed(() => paging(this.page(), this.pageSize()));

  protected readonly stats = apiResource({ params: () => true, load: () => this.api.stats() });
  protected readonly topClients = computed(() => ranking(this.stats.value()?.byClient ?? []));
  protected readonly topUsers = computed(() => ranking(this.stats.value()?.topUsers ?? []));

  protected readonly devices = listPage({
    query: () => ({
      user: (this.user() ?? '').trim(),
      client: (this.client() ?? '').trim(),
      blacklisted: oneOfParam(this.blacklisted(), ['true', 'false'] as const),
      ...this.paging(),
    }),
    load: async (q, abort) => {
      let userId = '';
      if (q.user) {
        userId = (await this.users.idByName(q.user)) ?? '';
        // No member by that name: nothing of theirs to show.
        if (!userId) return emptyPage<Device>(q.page, q.pageSize);
      }
      return this.api.list(
        {
          userId,
          client: q.client,
          blacklisted: q.blacklisted,
          page: q.page,
          pageSize: q.pageSize,
        },
        abort,
      );
    },
    filters: FILTERS,
    filtered: (q) => !!(q.user || q.client || q.blacklisted),
    active: () => this.tabs.index() === 0,
  });
  protected readonly blacklist = listPage({
    query: () => this.paging(),
    load: (q) => this.api.blacklist(q.page, q.pageSize),
    filters: FILTERS,
    filtered: () => false,
    active: () => this.tabs.index() === 1,
  });
  protected readonly actions = listPage({
    query: () => this.paging(),
    load: (q) => this.api.actions(q.page, q.pageSize),
    filters: FILTERS,
    filtered: () => false,
    active: () => this.tabs.index() === 2,
  });

  /** The client filter offers the clients the stats counted, and keeps a typed-in one. */
  protected readonly listFilters = computed<FilterSpec[]>(() => {
    const clients: FilterOption[] = (this.stats.value()?.byClient ?? []).map((c) => ({
      value: c.client,
      key: '',
      label: c.client,
    }));
    const current = this.devices.query().client;
    if (current && !clients.some((c) => c.value === current)) {
      clients.push({ value: current, key: '', label: current });
    }
    return [
      { param: 'user', label: 'devices.filter.user', testId: 'devices-user' },
      {
        param: 'client',
        label: 'devices.filter.client',
        options: clients,
        any: 'devices.filter.anyClient',
        testId: 'devices-client',
      },
      {
        param: 'blacklisted',
        label: 'devices.filter.blacklisted',
        options: [
          { value: 'true', key: 'devices.filter.onlyBlacklisted' },
          { value: 'false', key: 'devices.filter.notBlacklisted' },
        ],
        any: 'devices.filter.anyStatus',
        testId: 'devices-blacklisted',
      },
    ];
  });

  /** A refused removal or sweep, explained above its list. */
  protected readonly removing = action();
  protected readonly sweeping = action();
  protected readonly actionError = computed(() => this.removing.error() ?? this.sweeping.error());
  /** The counts of the last add-with-logout or sweep: "{loggedOut} logged out, {failed} failed". */
  protected readonly outcome = signal<(LogoutOutcome & { client?: string }) | null>(null);
  protected readonly blacklistTable: TableSpec<BlacklistEntry> = {
    columns: [
      { id: 'client', header: 'devices.blacklist.col.client' },
      { id: 'reason', header: 'devices.blacklist.col.reason', text: (e) => e.reason || '—' },
      { id: 'createdBy', header: 'devices.blacklist.col.createdBy' },
      whenColumn('createdAt', 'devices.blacklist.col.createdAt', (e) => e.createdAt, {
        width: undefined,
      }),
      menuColumn(
        (e) => ({
          label: 'devices.blacklist.actionsFor',
          params: { client: e.clientName },
          actions: this.entryActions(e),
          testId: `blacklist-menu-${e.clientName}`,
        }),
        { width: undefined },
      ),
    ],
    rowAttrs: (e: BlacklistEntry) => ({ 'data-client': e.clientName }),
    emptyIcon: 'block',
    empty: 'devices.blacklist.empty',
    testId: 'blacklist',
  };
  protected readonly actionTable: TableSpec<DeviceAction> = {
    columns: [
      whenColumn('time', 'devices.actions.col.time', (a) => a.createdAt, { width: undefined }),
      {
        id: 'action',
        header: 'devices.actions.col.action',
        key: (a) => `devices.actions.kind.${a.action}`,
      },
      { id: 'target', header: 'devices.actions.col.target' },
      { id: 'user', header: 'devices.actions.col.user' },
      { id: 'actor', header: 'devices.actions.col.actor' },
      { id: 'outcome', header: 'devices.actions.col.outcome' },
    ],
    rowAttrs: (a: DeviceAction) => ({ 'data-action': a.action }),
    emptyIcon: 'history',
    empty: 'devices.actions.empty',
    testId: 'device-actions',
  };

  protected navigate(params: Record<string, string | number | null>): void {
    this.devices.navigate(params);
  }

  /** After a sign-out: the counts change too. */
  protected devicesChanged(): void {
    this.stats.reload();
  }

  protected add(): void {
    const ref = this.dialog.open<BlacklistDialog, void, BlacklistCreated | null>(BlacklistDialog, {
      maxWidth: '560px',
      width: 'calc(100vw - 32px)',
      autoFocus: 'first-tabbable',
    });
    ref.afterClosed().subscribe((created) => {
      if (!created) return;
      this.clearErrors();
      this.outcome.set({
        loggedOut: created.loggedOut,
        failed: created.failed,
        client: created.entry.clientName,
      });
      this.notifier.show('devices.blacklist.added', { client: created.entry.clientName });
      this.refresh();
    });
  }

  protected entryActions(entry: BlacklistEntry): RowAction[] {
    return [
      {
        icon: 'delete',
        label: 'devices.blacklist.remove',
        testId: 'blacklist-remove',
        run: () => void this.remove(entry),
      },
    ];
  }

  protected async remove(entry: BlacklistEntry): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'devices.blacklist.removeTitle',
      consequenceKeys: ['devices.blacklist.removeConsequence', 'devices.blacklist.removeNoSignIn'],
      params: { client: entry.clientName },
      confirmKey: 'devices.blacklist.remove',
      destructive: true,
    });
    if (!confirmed) return;
    this.sweeping.clear();
    await this.removing.run(() => this.api.removeFromBlacklist(entry.id), {
      done: 'devices.blacklist.removed',
      params: { client: entry.clientName },
      after: () => this.refresh(),
    });
  }

  /** "Log out all blacklisted devices": one request, the counts shown when it answers. */
  protected async sweep(): Promise<void> {
    this.removing.clear();
    this.outcome.set(null);
    await this.sweeping.run(async () => this.outcome.set(await this.api.enforceBlacklist()), {
      after: () => this.refresh(),
    });
  }

  private clearErrors(): void {
    this.removing.clear();
    this.sweeping.clear();
  }

  protected actorOf(action: DeviceAction): string | null {
    return action.actor?.username ?? null;
  }

  private refresh(): void {
    this.stats.reload();
    this.blacklist.reload();
    this.devices.reload();
    this.actions.reload();
  }
}
