import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { AuditEntry } from '@usher/contracts';
import { FilterBar, type FilterSpec } from '../../shared/filter-field';
import { dayParam, emptyPage, listPage } from '../../shared/list-page';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { ExpandToggle, RowExpansion } from '../../shared/row-expansion';
import { ShortId } from '../../shared/short-id';
import { AuditApi } from './audit-api';
import { auditDetails } from './audit-details';
import { auditSentence } from './audit-summary';
import { formatMoney } from '../../shared/money';
import { LanguageSwitch } from '../../core/i18n/language';
import { UsersApi } from '../admin-users';
import { whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

const FILTERS = ['actor', 'actorId', 'action', 'targetType', 'targetId', 'from', 'to'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/admin/audit` (60-web.md §4 "Audit log"): who did what to what, filtered by actor, action
 * prefix, target and day range in the query string; each row opens its before/after details.
 */
@Component({
  selector: 'app-audit-page',
  imports: [RouterLink, TranslocoDirective, FilterBar, DATA_TABLE, ShortId, ExpandToggle],
  templateUrl: './audit-page.html',
  styleUrl: './audit-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class AuditPage {
  private readonly api = inject(AuditApi);
  private readonly users = inject(UsersApi);
  private readonly transloco = inject(TranslocoService);
  private readonly lang = inject(LanguageSwitch).active;

  // Query params (bound by the router).
  /** An actor by username (the picker); `actorId` stays for links made by id. */
  readonly actor = input<string | undefined>();
  readonly actorId = input<string | undefined>();
  readonly action = input<string | undefined>();
  readonly targetType = input<string | undefined>();
  readonly targetId = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  protected readonly entries = listPage({
    query: () => ({
      actor: (this.actor() ?? '').trim().slice(0, 64),
      // A malformed actor id would be a 400: it simply does not filter.
      actorId: UUID.test(this.actorId() ?? '') ? this.actorId()! : '',
      action: (this.action() ?? '').trim().slice(0, 64),
      targetType: (this.targetType() ?? '').trim().slice(0, 64),
      targetId: (this.targetId() ?? '').trim().slice(0, 255),
      from: dayParam(this.from()),
      to: dayParam(this.to()),
      ...paging(this.page(), this.pageSize()),
    }),
    load: async ({ actor, ...query }, abort) => {
      if (actor) {
        // The actor picked by name (issue 36); nobody by that name has done anything.
        const id = await this.users.idByName(actor);
        if (!id) return emptyPage<AuditEntry>(query.page, query.pageSize);
        query.actorId = id;
      }
      return this.api.list(query, abort);
    },
    filters: FILTERS,
    filtered: (q) =>
      !!(q.actor || q.actorId || q.action || q.targetType || q.targetId || q.from || q.to),
  });
  protected readonly filters: FilterSpec[] = [
    { param: 'actor', label: 'audit.filter.actor', testId: 'audit-actor' },
    { param: 'action', label: 'audit.filter.action', testId: 'audit-action' },
    { param: 'targetType', label: 'audit.filter.targetType', testId: 'audit-target-type' },
    { param: 'targetId', label: 'audit.filter.targetId', testId: 'audit-target-id' },
    { param: 'from', label: 'audit.filter.from', type: 'date', testId: 'audit-from' },
    { param: 'to', label: 'audit.filter.to', type: 'date', testId: 'audit-to' },
  ];
  protected readonly table: TableSpec<AuditEntry> = {
    columns: [
      whenColumn('at', 'audit.col.at', (e) => e.at),
      { id: 'actor', header: 'audit.col.actor' },
      { id: 'action', header: 'audit.col.action', cellClass: 'mono', text: (e) => e.action },
      { id: 'target', header: 'audit.col.target', width: '18%' },
      { id: 'summary', header: 'audit.col.summary', width: 'wide' },
      {
        id: 'requestId',
        header: 'audit.col.requestId',
        width: '15%',
        shortId: (e) => e.requestId,
      },
      { id: 'details', header: 'audit.col.details', hideHeader: true, width: 'menu' },
    ],
    rowAttrs: (entry: AuditEntry) => ({ 'data-action': entry.action }),
    emptyIcon: 'receipt_long',
    empty: 'audit.empty',
    testId: 'audit',
  };
  /** The entry whose details are open. */
  protected readonly expansion = new RowExpansion<AuditEntry>();
  protected readonly openDetails = computed(() => {
    const entry = this.expansion.openIn(this.entries.rows());
    return entry ? auditDetails(entry.details) : null;
  });

  protected navigate(params: Record<string, string | null>): void {
    this.entries.navigate(params);
  }

  /** A short line for the row: a sentence when the action has one, else the changed fields or the first facts. */
  protected summary(entry: AuditEntry): string {
    const sentence = auditSentence(
      entry,
      (key, params) => this.transloco.translate(key, params),
      (amount, currency) => formatMoney(amount, currency, this.lang()),
    );
    if (sentence) return sentence;
    const { changes, facts } = auditDetails(entry.details);
    if (changes.length) return changes.map((c) => `${c.path}: ${c.before} → ${c.after}`).join('; ');
    return facts
      .slice(0, 3)
      .map((f) => (f.path ? `${f.path}: ${f.value}` : f.value))
      .join('; ');
  }

  /** Where a target links to: users open their detail page. */
  protected targetLink(entry: AuditEntry): string | null {
    if (entry.targetType === 'user' && entry.targetId) return `/admin/users/${entry.targetId}`;
    if (entry.targetType === 'setting' && entry.targetId) return '/admin/settings';
    if (entry.targetType === 'job') return '/admin/jobs';
    return null;
  }

  protected targetQuery(entry: AuditEntry): Record<string, string> | null {
    return entry.targetType === 'setting' && entry.targetId ? { group: entry.targetId } : null;
  }
}
