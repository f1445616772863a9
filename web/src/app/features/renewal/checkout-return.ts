import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  afterNextRender,
  inject,
  input,
  signal,
} from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Payment } from '@usher/contracts';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { LocalDatePipe } from '../../shared/local-date';
import { CHECKOUT_STORAGE_KEY, PaymentsApi } from './payments-api';

/** Polling after the return from Stripe (60-web.md §4.2): every 2 s for the first minute… */
export const POLL_FAST_MS = 2_000;
export const FAST_WINDOW_MS = 60_000;
/** …then, while Stripe's confirmation is still on its way, every 10 s. */
export const POLL_SLOW_MS = 10_000;

type ReturnState = 'confirming' | 'waiting' | 'completed' | 'closed' | 'unknown';

/**
 * The panel shown on `?checkout=success` (polls the stored payment until the webhook has
 * completed it, then shows the new expiry) and the snackbar of `?checkout=cancelled`.
 */
@Component({
  selector: 'app-checkout-return',
  imports: [MatIcon, TranslocoDirective, LocalDatePipe],
  template: `
    <ng-container *transloco="let t">
      @switch (state()) {
        @case ('completed') {
          <div class="success" role="status" data-testid="checkout-completed">
            <mat-icon aria-hidden="true" svgIcon="check_circle" />
            <p>
              {{ t('payments.completed', { date: payment()?.newExpiresAt | localDate }) }}
            </p>
          </div>
        }
        @case ('confirming') {
          <p class="note" role="status" data-testid="checkout-confirming">
            <mat-icon aria-hidden="true" svgIcon="hourglass_top" />
            <span>{{ t('payments.confirming') }}</span>
          </p>
        }
        @case ('waiting') {
          <p class="note" role="status" data-testid="checkout-waiting">
            <mat-icon aria-hidden="true" svgIcon="hourglass_top" />
            <span>{{ t('payments.waiting') }}</span>
          </p>
        }
        @case ('closed') {
          <p class="note" role="status" data-testid="checkout-closed">
            <mat-icon aria-hidden="true" svgIcon="error" />
            <span>{{ t('payments.closed.' + payment()?.status) }}</span>
          </p>
        }
      }
    </ng-container>
  `,
  styles: `
    .success,
    .note {
      display: flex;
      align-items: center;
      gap: 8px;
    }
    .success mat-icon {
      color: var(--usher-success, var(--mat-sys-primary));
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class CheckoutReturn {
  private readonly api = inject(PaymentsApi);
  private readonly session = inject(SessionStore);
  private readonly notifier = inject(Notifier);

  /** Query param `checkout`: `success` or `cancelled` (Stripe's return, 30-settings.md §4.6). */
  readonly checkout = input<string | undefined>();

  protected readonly state = signal<ReturnState>('unknown');
  protected readonly payment = signal<Payment | null>(null);
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor() {
    inject(DestroyRef).onDestroy(() => {
      this.stopped = true;
      clearTimeout(this.timer);
    });
    afterNextRender(() => this.start());
  }

  private start(): void {
    if (this.checkout() === 'cancelled') {
      this.notifier.show('payments.cancelled');
      return;
    }
    const id = this.checkout() === 'success' ? sessionStorage.getItem(CHECKOUT_STORAGE_KEY) : null;
    if (!id) return;
    this.state.set('confirming');
    void this.poll(id, Date.now());
  }

  private async poll(id: string, startedAt: number): Promise<void> {
    if (this.stopped) return;
    try {
      const payment = await this.api.payment(id);
      this.payment.set(payment);
      if (payment.status === 'completed') {
        this.state.set('completed');
        sessionStorage.removeItem(CHECKOUT_STORAGE_KEY);
        await this.session.refreshMe().catch(() => undefined);
        return;
      }
      if (payment.status !== 'pending') {
        this.state.set('closed');
        sessionStorage.removeItem(CHECKOUT_STORAGE_KEY);
        return;
      }
    } catch (_error) {
      // A failed poll (network blip) is simply tried again at the next tick.
    }
    if (this.stopped) return;
    const fast = Date.now() - startedAt < FAST_WINDOW_MS;
    if (!fast) this.state.set('waiting');
    this.timer = setTimeout(
      () => void this.poll(id, startedAt),
      fast ? POLL_FAST_MS : POLL_SLOW_MS,
    );
  }
}
