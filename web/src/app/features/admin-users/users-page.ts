import {
  ChangeDetectionStrategy,
  Component,
  computed,
  inject,
  input,
  linkedSignal,
} from '@angular/core';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminUser } from '@usher/contracts';
import {
  ADMIN_USER_SORTS,
  MEDIA_STATES,
  MEMBERSHIP_STATUSES,
  ROLES,
} from '@usher/contracts/values';
import { membershipOf } from '../../core/session/membership';
import { SessionStore } from '../../core/session/session-store';
import { action } from '../../shared/action';
import { confirmAction } from '../../shared/confirm-dialog';
import { type ChipSpec, DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FilterBar, type FilterSpec, optionsOf } from '../../shared/filter-field';
import { FormError } from '../../shared/form-error';
import { dayParam, listPage, oneOfParam, pageParam, pageSizeParam } from '../../shared/list-page';
import { LocalDatePipe } from '../../shared/local-date';
import { MEDIA_CHIPS, MEMBERSHIP_CHIPS } from '../../shared/membership-view';
import { type RowAction } from '../../shared/row-menu';
import { StatusChip } from '../../shared/status-chip';
import { BulkResultDialog, type BulkResultRow } from './bulk-result-dialog';
import { UserActions } from './user-actions';
import { type BulkAction, type UserQuery, UsersApi } from './users-api';
import { chipColumn, menuColumn, whenColumn } from '../../shared/data-table-columns';

const ACTIVE: ChipSpec = { tone: 'success', icon: 'login', label: 'adminUsers.activeYes' };
const INACTIVE: ChipSpec = { tone: 'warning', icon: 'block', label: 'adminUsers.activeNo' };
/** The filter params "Clear filters" removes (sort and paging stay). */
const FILTERS = [
  'search',
  'role',
  'isActive',
  'status',
  'mediaState',
  'expiresBefore',
  'expiresAfter',
] as const;
/**
 * The filter row, then the sort: search and membership stay in view, the rest fold behind
 * "More filters" (issue 14).
 */
const FILTER_FIELDS: FilterSpec[] = [
  { param: 'search', label: 'adminUsers.search', testId: 'users-search' },
  {
    param: 'status',
    label: 'adminUsers.membership',
    options: [
      { value: 'active', key: 'membership.state.active' },
      { value: 'expired', key: 'membership.state.expired' },
      { value: 'never', key: 'membership.state.no_expiry' },
    ],
    any: 'adminUsers.any',
    testId: 'users-status',
  },
  {
    param: 'role',
    label: 'adminUsers.role',
    options: optionsOf(['user', 'admin'], 'roles.'),
    any: 'adminUsers.any',
  },
  {
    param: 'isActive',
    label: 'adminUsers.webLogin',
    options: [
      { value: 'true', key: 'adminUsers.activeYes' },
      { value: 'false', key: 'adminUsers.activeNo' },
    ],
    any: 'adminUsers.any',
  },
  {
    param: 'mediaState',
    label: 'adminUsers.mediaState',
    options: optionsOf(MEDIA_STATES, 'membership.media.'),
    any: 'adminUsers.any',
  },
  { param: 'expiresAfter', label: 'adminUsers.expiresAfter', type: 'date' },
  { param: 'expiresBefore', label: 'adminUsers.expiresBefore', type: 'date' },
  {
    param: 'sort',
    label: 'adminUsers.sortBy',
    options: optionsOf(ADMIN_USER_SORTS, 'adminUsers.sort.'),
    always: true,
  },
];
/** At most this many users per bulk request (20-api.md §6). */
export const BULK_LIMIT = 100;

/** The list query from the page's query params, invalid values dropped. */
export function userQueryFrom(p: {
  search?: string;
  role?: string;
  isActive?: string;
  status?: string;
  mediaState?: string;
  expiresBefore?: string;
  expiresAfter?: string;
  sort?: string;
  order?: string;
  page?: unknown;
  pageSize?: unknown;
}): UserQuery {
  return {
    search: (p.search ?? '').trim(),
    role: oneOfParam(p.role, ROLES),
    isActive: oneOfParam(p.isActive, ['true', 'false'] as const),
    status: oneOfParam(p.status, MEMBERSHIP_STATUSES),
    mediaState: oneOfParam(p.mediaState, MEDIA_STATES),
    expiresBefore: dayParam(p.expiresBefore),
    expiresAfter: dayParam(p.expiresAfter),
    sort: oneOfParam(p.sort, ADMIN_USER_SORTS) || 'createdAt',
    order: p.order === 'asc' ? 'asc' : 'desc',
    page: pageParam(p.page),
    pageSize: pageSizeParam(p.pageSize),
  };
}

/** `/admin/users` (60-web.md §4.3): filters in the query string, row actions, bulk actions. */
@Component({
  selector: 'app-users-page',
  imports: [
    MatButton,
    MatCheckbox,
    MatIconButton,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    FormError,
    DATA_TABLE,
    FilterBar,
    LocalDatePipe,
    StatusChip,
  ],
  templateUrl: './users-page.html',
  styleUrl: './users-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class UsersPage {
  private readonly api = inject(UsersApi);
  private readonly actions = inject(UserActions);
  private readonly dialog = inject(MatDialog);
  private readonly me = inject(SessionStore).me;
  /** The signed-in admin's own row: no self-deactivation or self-deletion offered. */
  protected readonly selfId = computed(() => this.me()?.id);

  readonly search = input<string | undefined>();
  readonly role = input<string | undefined>();
  readonly isActive = input<string | undefined>();
  readonly status = input<string | undefined>();
  readonly mediaState = input<string | undefined>();
  readonly expiresBefore = input<string | undefined>();
  readonly expiresAfter = input<string | undefined>();
  readonly sort = input<string | undefined>();
  readonly order = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly list = listPage({
    query: () =>
      userQueryFrom({
        search: this.search(),
        role: this.role(),
        isActive: this.isActive(),
        status: this.status(),
        mediaState: this.mediaState(),
        expiresBefore: this.expiresBefore(),
        expiresAfter: this.expiresAfter(),
        sort: this.sort(),
        order: this.order(),
        page: this.page(),
        pageSize: this.pageSize(),
      }),
    load: (query, abort) => this.api.list(query, abort),
    filters: FILTERS,
    filtered: (q) => FILTERS.some((name) => q[name] !== ''),
  });
  protected readonly query = this.list.query;
  protected readonly users = this.list.rows;

  /** A row or bulk action; a refusal (LAST_ADMIN, CANNOT_MODIFY_SELF…) shows above the list. */
  protected readonly userAction = action();
  protected readonly table: TableSpec<AdminUser> = {
    columns: [
      { id: 'check', width: 'check' },
      { id: 'user', header: 'adminUsers.col.user' },
      { id: 'role', header: 'adminUsers.col.role', width: 'status', key: (u) => `roles.${u.role}` },
      chipColumn('active', 'adminUsers.col.active', (u) => (u.isActive ? ACTIVE : INACTIVE)),
      { id: 'membership', header: 'adminUsers.col.membership', width: 'status' },
      { id: 'media', header: 'adminUsers.col.media', width: 'status' },
      { id: 'messenger', header: 'adminUsers.col.messenger', width: 'icon' },
      whenColumn('lastLogin', 'adminUsers.col.lastLogin', (u) => u.lastLoginAt),
      menuColumn((u) => ({
        label: 'adminUsers.actionsFor',
        params: { name: u.username },
        actions: this.rowActions(u),
        testId: `user-actions-${u.username}`,
      })),
    ],
    rowAttrs: (user: AdminUser) => ({ 'data-user': user.username }),
    emptyIcon: 'group',
    empty: 'adminUsers.empty',
    tableTestId: 'users-table',
  };
  /** The ticked rows; a reload keeps only those still on screen. */
  protected readonly selected = linkedSignal<AdminUser[] | null, ReadonlySet<string>>({
    source: this.users,
    computation: (users, previous) => {
      const kept = previous?.value ?? new Set<string>();
      if (!users) return kept;
      const ids = new Set(users.map((u) => u.id));
      return new Set([...kept].filter((id) => ids.has(id)));
    },
  });
  protected readonly allSelected = computed(() => {
    const users = this.users() ?? [];
    return users.length > 0 && users.every((u) => this.selected().has(u.id));
  });

  /** The bulk bar's buttons, in order. */
  protected readonly bulkActions: readonly BulkAction[] = [
    'extend',
    'activate',
    'deactivate',
    'media_enable',
    'media_disable',
    'delete',
  ];
  protected readonly filterSpecs = FILTER_FIELDS;
  protected readonly membershipChips = MEMBERSHIP_CHIPS;
  protected readonly mediaChips = MEDIA_CHIPS;
  protected readonly membership = membershipOf;

  protected navigate(params: Record<string, string | number | null>): void {
    this.list.navigate(params);
  }

  protected toggle(id: string, on: boolean): void {
    const next = new Set(this.selected());
    if (on && next.size < BULK_LIMIT) next.add(id);
    else next.delete(id);
    this.selected.set(next);
  }

  protected toggleAll(on: boolean): void {
    const users = this.users() ?? [];
    this.selected.set(on ? new Set(users.slice(0, BULK_LIMIT).map((u) => u.id)) : new Set());
  }

  protected readonly create = () => this.run((a) => a.create());
  protected readonly edit = (user: AdminUser) => this.run((a) => a.edit(user));
  protected readonly extend = (user: AdminUser) => this.run((a) => a.extend(user));
  protected readonly toggleActive = (user: AdminUser) =>
    this.run((a) => a.setActive(user, !user.isActive));
  /** `mediaAccessDisabled` is the admin switch: turning it off means enabling access. */
  protected readonly toggleMedia = (user: AdminUser) =>
    this.run((a) => a.setMediaAccess(user, user.mediaAccessDisabled));
  protected readonly syncMedia = (user: AdminUser) => this.run((a) => a.syncMedia(user));
  protected readonly resetPassword = (user: AdminUser) => this.run((a) => a.resetPassword(user));
  protected readonly remove = (user: AdminUser) => this.run((a) => a.remove(user));

  /** A row's menu (60-web.md §4.3 "Row actions"); none that would lock the admin out. */
  protected rowActions(user: AdminUser): RowAction[] {
    const self = user.id === this.selfId();
    const member = user.role === 'user';
    return [
      { icon: 'edit', label: 'adminUsers.edit', run: () => this.edit(user) },
      ...(member && user.expiresAt
        ? [{ icon: 'more_time', label: 'adminUsers.extend', run: () => this.extend(user) }]
        : []),
      ...(self
        ? []
        : [
            {
              icon: user.isActive ? 'block' : 'login',
              label: user.isActive ? 'adminUsers.deactivate' : 'adminUsers.activate',
              testId: 'action-active',
              run: () => this.toggleActive(user),
            },
          ]),
      ...(member && user.media.linked
        ? [
            {
              icon: user.mediaAccessDisabled ? 'play_circle' : 'pause_circle',
              label: user.mediaAccessDisabled ? 'adminUsers.mediaOn' : 'adminUsers.mediaOff',
              testId: 'action-media',
              run: () => this.toggleMedia(user),
            },
            { icon: 'sync', label: 'adminUsers.syncMedia', run: () => this.syncMedia(user) },
          ]
        : []),
      {
        icon: 'lock_reset',
        label: 'adminUsers.resetPassword',
        run: () => this.resetPassword(user),
      },
      ...(self
        ? []
        : [{ icon: 'delete', label: 'adminUsers.delete', run: () => this.remove(user) }]),
    ];
  }

  /** Runs one row action; refusals show above the list, success reloads it. */
  private async run(work: (actions: UserActions) => Promise<boolean>): Promise<void> {
    let changed = false;
    const ok = await this.userAction.run(async () => {
      changed = await work(this.actions);
    });
    if (changed || !ok) this.list.reload();
  }

  protected async bulk(action: BulkAction): Promise<void> {
    const ids = [...this.selected()];
    if (ids.length === 0 || this.userAction.busy()) return;
    let days: number | undefined;
    if (action === 'extend') {
      days = await this.actions.askDays({
        titleKey: 'adminUsers.bulkExtendTitle',
        params: { count: ids.length },
      });
      if (!days) return;
    } else if (action === 'delete' || action === 'deactivate' || action === 'media_disable') {
      const confirmed = await confirmAction(this.dialog, {
        titleKey: `adminUsers.bulkConfirm.${action}`,
        consequenceKeys: [`adminUsers.bulkConsequence.${action}`],
        params: { count: ids.length },
        confirmKey: `adminUsers.bulk.${action}`,
        destructive: true,
        ...(action === 'delete' ? { typeToConfirm: String(ids.length) } : {}),
      });
      if (!confirmed) return;
    }
    await this.userAction.run(async () => {
      const { results } = await this.api.bulk(ids, action, days);
      const names = new Map((this.users() ?? []).map((u) => [u.id, u.username]));
      const rows: BulkResultRow[] = results.map((r) => ({
        username: names.get(r.id) ?? r.id,
        ok: r.ok,
        ...(r.code ? { code: r.code } : {}),
      }));
      this.dialog.open(BulkResultDialog, {
        data: rows,
        maxWidth: '560px',
        width: 'calc(100vw - 32px)',
      });
      this.selected.set(new Set());
    });
    this.list.reload();
  }
}
