import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MAT_DIALOG_DATA } from '@angular/material/dialog';
import { TranslocoDirective } from '@jsverse/transloco';
import { apiResource } from '../../core/api/api-resource';
import { LocalDatePipe } from '../../shared/local-date';
import { MoneyPipe } from '../../shared/money';
import { ErrorState } from '../../shared/page-state';
import { StatusChip } from '../../shared/status-chip';
import { PAYMENT_CHIPS } from '../../shared/payment-chips';
import { AdminPaymentsApi } from './payments-api';
import { DIALOG_PARTS } from '../../shared/dialog-parts';

/** Every field of one payment and the Stripe events received for it (60-web.md §4.3). */
@Component({
  selector: 'app-payment-detail',
  imports: [
    MatButton,
    TranslocoDirective,
    ErrorState,
    LocalDatePipe,
    MoneyPipe,
    StatusChip,
    ...DIALOG_PARTS,
  ],
  templateUrl: './payment-detail.html',
  styleUrl: './payment-detail.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PaymentDetail {
  private readonly api = inject(AdminPaymentsApi);
  protected readonly id = inject<{ id: string }>(MAT_DIALOG_DATA).id;
  protected readonly chips = PAYMENT_CHIPS;
  protected readonly detail = apiResource({
    params: () => this.id,
    load: (id) => this.api.detail(id),
  });
}
