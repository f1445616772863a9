import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatDialog } from '@angular/material/dialog';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { SharingEvent } from '@usher/contracts';
import {
  SHARING_EVENT_STATUSES,
  SHARING_RULES,
  type SharingEventStatusName,
} from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { Notifier } from '../../core/notifier';
import { type ChipSpec, DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { FilterBar, type FilterSpec } from '../../shared/filter-field';
import { listPage, oneOfParam } from '../../shared/list-page';
import { SharingEvidenceView } from '../../shared/sharing/sharing-evidence';
import { SharingApi } from '../../shared/sharing/sharing-api';
import { ExpandToggle, RowExpansion } from '../../shared/row-expansion';
import { SharingActDialog } from './act-dialog';
import { SharingDismissDialog } from './dismiss-dialog';
import { chipColumn, menuColumn, whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

const FILTERS = ['status', 'rule'];

/** The chip of an event's status. */
export function statusChip(status: SharingEventStatusName): ChipSpec {
  switch (status) {
    case 'open':
      return { tone: 'warning', icon: 'error', label: 'sharing.status.open' };
    case 'actioned':
      return { tone: 'success', icon: 'check_circle', label: 'sharing.status.actioned' };
    case 'dismissed':
      return { tone: 'neutral', icon: 'do_not_disturb_on', label: 'sharing.status.dismissed' };
  }
}

/**
 * `/admin/sharing` (docs/sharing.md): account-sharing events, open first, filtered by status and
 * rule in the query string. Each row opens its evidence (places, networks, devices, the streams'
 * timeline); an open event is confirmed with an action or dismissed, each in its dialog.
 */
@Component({
  selector: 'app-sharing-page',
  imports: [
    RouterLink,
    TranslocoDirective,
    FilterBar,
    DATA_TABLE,
    ExpandToggle,
    SharingEvidenceView,
  ],
  templateUrl: './sharing-page.html',
  styleUrl: './sharing-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class SharingPage {
  private readonly api = inject(SharingApi);
  private readonly dialog = inject(MatDialog);
  private readonly notifier = inject(Notifier);

  // Query params (bound by the router).
  readonly status = input<string | undefined>();
  readonly rule = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly events = listPage({
    query: () => ({
      status: oneOfParam(this.status(), SHARING_EVENT_STATUSES),
      rule: oneOfParam(this.rule(), SHARING_RULES),
      ...paging(this.page(), this.pageSize()),
    }),
    load: (q, abort) => this.api.events({ ...q, userId: '' }, abort),
    filters: FILTERS,
    filtered: (q) => !!(q.status || q.rule),
  });

  protected readonly filters: FilterSpec[] = [
    {
      param: 'status',
      label: 'sharing.filter.status',
      options: SHARING_EVENT_STATUSES.map((s) => ({ value: s, key: `sharing.status.${s}` })),
      any: 'sharing.filter.anyStatus',
      testId: 'sharing-status',
    },
    {
      param: 'rule',
      label: 'sharing.filter.rule',
      options: SHARING_RULES.map((r) => ({ value: r, key: `sharing.rules.${r}` })),
      any: 'sharing.filter.anyRule',
      testId: 'sharing-rule',
    },
  ];

  protected readonly table: TableSpec<SharingEvent> = {
    columns: [
      whenColumn('at', 'sharing.col.detected', (e) => e.detectedAt),
      { id: 'member', header: 'sharing.col.member' },
      { id: 'rule', header: 'sharing.col.rule', key: (e) => `sharing.rules.${e.rule}` },
      { id: 'count', header: 'sharing.col.found', key: (e) => this.found(e) },
      chipColumn('status', 'sharing.col.status', (e) => statusChip(e.status)),
      menuColumn(
        (e) => ({
          label: 'sharing.rowMenu',
          params: { user: e.user.username },
          testId: 'sharing-row-menu',
          actions:
            e.status === 'open'
              ? [
                  {
                    icon: 'gavel',
                    label: 'sharing.confirm',
                    testId: 'sharing-confirm',
                    run: () => void this.act(e),
                  },
                  {
                    icon: 'do_not_disturb_on',
                    label: 'sharing.dismissAction',
                    testId: 'sharing-dismiss',
                    run: () => void this.dismiss(e),
                  },
                ]
              : [],
        }),
        { header: 'sharing.col.actions' },
      ),
      { id: 'details', header: 'sharing.col.details', hideHeader: true, width: 'menu' },
    ],
    rowAttrs: (e: SharingEvent) => ({
      'data-event': e.id,
      'data-rule': e.rule,
      'data-status': e.status,
    }),
    emptyIcon: 'shield_person',
    empty: 'sharing.empty',
    testId: 'sharing',
    tableTestId: 'sharing-table',
  };

  /** The event whose evidence is open. */
  protected readonly expansion = new RowExpansion<SharingEvent>();
  protected readonly openCount = computed(
    () => (this.events.rows() ?? []).filter((e) => e.status === 'open').length,
  );

  protected navigate(params: Record<string, string | null>): void {
    this.events.navigate(params);
  }

  /** "3 streams, limit 2", "4 networks, limit 3", "16 100 km in 0 min". */
  protected found(e: SharingEvent): [string, Record<string, unknown>] {
    const { count, limit, travel } = e.evidence;
    if (e.rule === 'travel' && travel) {
      return [
        'sharing.found.travel',
        { km: travel.distanceKm, minutes: Math.round(travel.hours * 60) },
      ];
    }
    return [`sharing.found.${e.rule}`, { count, limit }];
  }

  protected async act(e: SharingEvent): Promise<void> {
    const ref = this.dialog.open(SharingActDialog, { data: e, width: '520px', maxWidth: '95vw' });
    const done = await firstValueFrom(ref.afterClosed());
    if (!done) return;
    this.notifier.show(`sharing.acted.${done.actionTaken ?? 'notify'}`);
    this.events.reload();
  }

  protected async dismiss(e: SharingEvent): Promise<void> {
    const ref = this.dialog.open(SharingDismissDialog, {
      data: e,
      width: '480px',
      maxWidth: '95vw',
    });
    const done = await firstValueFrom(ref.afterClosed());
    if (!done) return;
    this.notifier.show('sharing.dismissedNotice');
    this.events.reload();
  }
}
