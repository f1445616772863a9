import type { Payment } from '@usher/contracts';
import type { ChipSpec } from './data-table';
import type { Tone } from './status-chip';

/** Payment status chips (60-web.md §6.6 "payment"). */
export const PAYMENT_CHIPS: Record<Payment['status'], { tone: Tone; icon: string }> = {
  pending: { tone: 'warning', icon: 'schedule' },
  completed: { tone: 'success', icon: 'check_circle' },
  expired: { tone: 'neutral', icon: 'event_busy' },
  failed: { tone: 'error', icon: 'error' },
};

/** A payment's status as a table cell's chip. */
export const paymentChip = (payment: Pick<Payment, 'status'>): ChipSpec => ({
  ...PAYMENT_CHIPS[payment.status],
  label: `payments.status.${payment.status}`,
});
