import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import { PAGE_SIZES, localListPage } from '../../shared/list-page';
import { ListView } from '../../shared/list-view';
import { LocalDatePipe } from '../../shared/local-date';
import { MoneyPipe } from '../../shared/money';
import { StatusChip } from '../../shared/status-chip';
import { PAYMENT_CHIPS } from '../../shared/payment-chips';
import { PaymentsApi } from './payments-api';

/** The member's payments in the History tab: date, plan, amount, status (60-web.md §4.2). */
@Component({
  selector: 'app-payment-history',
  imports: [TranslocoDirective, ListView, LocalDatePipe, MoneyPipe, StatusChip],
  template: `
    <ng-container *transloco="let t">
      <h2>{{ t('payments.history.heading') }}</h2>
      <app-list-view
        [list]="payments"
        emptyIcon="payments"
        [emptyMessage]="t('payments.history.empty')"
      >
        <table class="list" data-testid="payment-history">
          <thead>
            <tr>
              <th scope="col">{{ t('payments.history.date') }}</th>
              <th scope="col">{{ t('payments.history.plan') }}</th>
              <th scope="col">{{ t('payments.history.amount') }}</th>
              <th scope="col">{{ t('payments.history.status') }}</th>
            </tr>
          </thead>
          <tbody>
            @for (row of payments.rows(); track row.id) {
              <tr [attr.data-payment]="row.id">
                <td [attr.data-label]="t('payments.history.date')">
                  {{ row.createdAt | localDate: 'dateTime' }}
                </td>
                <td [attr.data-label]="t('payments.history.plan')">{{ row.planName }}</td>
                <td [attr.data-label]="t('payments.history.amount')">
                  {{ row.amount | money: row.currency }}
                </td>
                <td [attr.data-label]="t('payments.history.status')">
                  <app-status-chip
                    [tone]="chips[row.status].tone"
                    [icon]="chips[row.status].icon"
                    [label]="t('payments.status.' + row.status)"
                  />
                </td>
              </tr>
            }
          </tbody>
        </table>
      </app-list-view>
    </ng-container>
  `,
  styleUrl: './payment-history.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PaymentHistory {
  private readonly api = inject(PaymentsApi);
  protected readonly chips = PAYMENT_CHIPS;
  protected readonly payments = localListPage({
    params: () => true,
    load: (_, page, pageSize) => this.api.payments(page, pageSize),
    pageSize: 10,
    pageSizes: PAGE_SIZES,
  });
}
