import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Payment } from '@usher/contracts';
import { PAGE_SIZES, localListPage } from '../../shared/list-page';
import { type Column, DATA_TABLE } from '../../shared/data-table';
import { MoneyPipe } from '../../shared/money';
import { paymentChip } from '../../shared/payment-chips';
import { PaymentsApi } from './payments-api';

/** The member's payments in the History tab: date, plan, amount, status (60-web.md §4.2). */
@Component({
  selector: 'app-payment-history',
  imports: [TranslocoDirective, DATA_TABLE, MoneyPipe],
  template: `
    <ng-container *transloco="let t">
      <h2>{{ t('payments.history.heading') }}</h2>
      <app-data-table
        [list]="payments"
        [columns]="columns"
        [rowAttrs]="attrs"
        emptyIcon="payments"
        [emptyMessage]="t('payments.history.empty')"
        tableTestId="payment-history"
      >
        <ng-template appCell="amount" [appCellOf]="payments" let-row>
          {{ row.amount | money: row.currency }}
        </ng-template>
      </app-data-table>
    </ng-container>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PaymentHistory {
  private readonly api = inject(PaymentsApi);
  protected readonly columns: Column<Payment>[] = [
    { id: 'date', header: 'payments.history.date', date: (p) => p.createdAt, time: true },
    { id: 'plan', header: 'payments.history.plan', text: (p) => p.planName },
    { id: 'amount', header: 'payments.history.amount' },
    { id: 'status', header: 'payments.history.status', chip: paymentChip },
  ];
  protected readonly attrs = (payment: Payment) => ({ 'data-payment': payment.id });
  protected readonly payments = localListPage({
    params: () => true,
    load: (_, page, pageSize) => this.api.payments(page, pageSize),
    pageSize: 10,
    pageSizes: PAGE_SIZES,
  });
}
