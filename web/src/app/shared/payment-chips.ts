import type { Payment } from '@usher/contracts';
import type { Tone } from './status-chip';

/** Payment status chips (60-web.md §6.6 "payment"). */
export const PAYMENT_CHIPS: Record<Payment['status'], { tone: Tone; icon: string }> = {
  pending: { tone: 'warning', icon: 'schedule' },
  completed: { tone: 'success', icon: 'check_circle' },
  expired: { tone: 'neutral', icon: 'event_busy' },
  failed: { tone: 'error', icon: 'error' },
};
