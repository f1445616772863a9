import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatDialog } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminPaymentList, Payment } from '@usher/contracts';
import { PAYMENT_STATUSES } from '@usher/contracts/values';
import { apiResource } from '../../core/api/api-resource';
import { FilterBar, type FilterSpec, optionsOf } from '../../shared/filter-field';
import { dayParam, listPage, oneOfParam } from '../../shared/list-page';
import { DATA_TABLE, type TableSpec } from '../../shared/data-table';
import { MoneyPipe } from '../../shared/money';
import { PAYMENT_CHIPS, paymentChip } from '../../shared/payment-chips';
import { PaymentDetail } from './payment-detail';
import { AdminPaymentsApi, type PaymentQuery } from './payments-api';
import { chipColumn, whenColumn } from '../../shared/data-table-columns';
import { paging } from '../../shared/list-paging';

const FILTERS = ['status', 'userId', 'planId', 'from', 'to'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidParam = (value: string | undefined) => (value && UUID.test(value) ? value : '');

/**
 * `/admin/payments?status=&userId=&planId=&from=&to=` (60-web.md §4.3): every payment with its
 * filters in the URL, the completed totals per currency underneath, and a row's full record
 * with its Stripe events.
 */
@Component({
  selector: 'app-payments-page',
  imports: [TranslocoDirective, FilterBar, DATA_TABLE, MoneyPipe],
  templateUrl: './payments-page.html',
  styleUrl: './payments-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class PaymentsPage {
  private readonly api = inject(AdminPaymentsApi);
  private readonly dialog = inject(MatDialog);

  readonly status = input<string | undefined>();
  readonly userId = input<string | undefined>();
  readonly planId = input<string | undefined>();
  readonly from = input<string | undefined>();
  readonly to = input<string | undefined>();
  readonly page = input<unknown>();
  readonly pageSize = input<unknown>();

  /** `summary.completedAmountByCurrency` of the last loaded list. */
  private readonly summary = signal<AdminPaymentList['summary'] | null>(null);
  protected readonly payments = listPage({
    query: (): PaymentQuery => ({
      status: oneOfParam(this.status(), PAYMENT_STATUSES),
      userId: uuidParam(this.userId()),
      planId: uuidParam(this.planId()),
      from: dayParam(this.from()),
      to: dayParam(this.to()),
      ...paging(this.page(), this.pageSize()),
    }),
    load: async (query, abort) => {
      const reply = await this.api.list(query, abort);
      this.summary.set(reply.summary);
      return reply;
    },
    filters: FILTERS,
    filtered: (q) => !!(q.status || q.userId || q.planId || q.from || q.to),
  });
  /** `summary.completedAmountByCurrency` of the current list, as [currency, amount] pairs. */
  protected readonly totals = computed(() =>
    Object.entries(this.summary()?.completedAmountByCurrency ?? {}),
  );
  private readonly plans = apiResource({ params: () => true, load: () => this.api.plans() });
  protected readonly filters = computed<FilterSpec[]>(() => [
    {
      param: 'status',
      label: 'adminPayments.col.status',
      options: optionsOf(PAYMENT_STATUSES, 'payments.status.'),
      any: 'adminPayments.any',
      testId: 'payments-status',
    },
    {
      param: 'planId',
      label: 'adminPayments.col.plan',
      options: (this.plans.value()?.data ?? []).map((p) => ({
        value: p.id,
        key: '',
        label: p.name,
      })),
      any: 'adminPayments.any',
    },
    { param: 'userId', label: 'adminPayments.userId' },
    { param: 'from', label: 'adminPayments.from', type: 'date' },
    { param: 'to', label: 'adminPayments.to', type: 'date' },
  ]);
  protected readonly chips = PAYMENT_CHIPS;
  protected readonly table: TableSpec<Payment> = {
    columns: [
      whenColumn('created', 'adminPayments.col.created', (p) => p.createdAt),
      { id: 'user', header: 'adminPayments.col.user', text: (p) => p.user?.username },
      { id: 'plan', header: 'adminPayments.col.plan', text: (p) => p.planName },
      { id: 'amount', header: 'adminPayments.col.amount', width: 'num' },
      chipColumn('status', 'adminPayments.col.status', paymentChip),
      { id: 'reason', header: 'adminPayments.col.reason', text: (p) => p.statusReason },
      whenColumn('completed', 'adminPayments.col.completed', (p) => p.completedAt),
    ],
    rowAttrs: (payment: Payment) => ({ 'data-payment': payment.id }),
    emptyIcon: 'payments',
    empty: 'adminPayments.empty',
    tableTestId: 'payments-table',
  };

  protected navigate(params: Record<string, string | number | null>): void {
    this.payments.navigate(params);
  }

  protected open(payment: Payment): void {
    this.dialog.open(PaymentDetail, {
      data: { id: payment.id },
      maxWidth: '640px',
      width: 'calc(100vw - 32px)',
    });
  }
}
