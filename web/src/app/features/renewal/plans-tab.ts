import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCard, MatCardActions, MatCardContent } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Plan } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { FormError } from '../../shared/form-error';
import { SessionStore } from '../../core/session/session-store';
import { LocalDatePipe } from '../../shared/local-date';
import { MoneyPipe } from '../../shared/money';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { SubmitButton } from '../../shared/submit-button';
import { BrowserLocation, CHECKOUT_STORAGE_KEY, PaymentsApi } from './payments-api';
import { planOffers } from './pricing';

/**
 * The plans of `/console/renewal` (60-web.md §4.2), first on the page: a card per plan with its
 * price in the active language, the price a month, the best value marked and the expiry the plan
 * would give (issue 36); Buy opens Stripe Checkout, Continue payment resumes a pending one.
 */
@Component({
  selector: 'app-plans-tab',
  imports: [
    MatButton,
    MatCard,
    MatCardActions,
    MatCardContent,
    MatIcon,
    TranslocoDirective,
    FormError,
    LocalDatePipe,
    MoneyPipe,
    EmptyState,
    ErrorState,
    SubmitButton,
  ],
  templateUrl: './plans-tab.html',
  styleUrl: './plans-tab.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PlansTab {
  private readonly api = inject(PaymentsApi);
  private readonly browser = inject(BrowserLocation);
  private readonly errors = inject(ErrorTexts);

  protected readonly plans = apiResource({ params: () => true, load: () => this.api.plans() });
  private readonly me = inject(SessionStore).me;
  /** The plans as offers: per-month price, best value, and the expiry each would give. */
  protected readonly offers = computed(() =>
    planOffers(this.plans.value()?.data ?? [], this.me()?.expiresAt ?? null, new Date()),
  );
  /** The plan whose checkout is being opened. */
  protected readonly buying = signal<string | null>(null);
  protected readonly error = signal<ErrorText | null>(null);
  /** Stripe answered 503 at checkout: the page says payments are unavailable. */
  protected readonly unavailable = signal(false);

  protected pendingOf(plan: Plan): string | null {
    return this.plans.value()?.pending.find((p) => p.planId === plan.id)?.checkoutUrl ?? null;
  }

  protected async buy(plan: Plan): Promise<void> {
    if (this.buying()) return;
    this.buying.set(plan.id);
    this.error.set(null);
    try {
      const started = await this.api.checkout(plan.id);
      sessionStorage.setItem(CHECKOUT_STORAGE_KEY, started.paymentId);
      this.browser.assign(started.url);
      // The button keeps spinning ("Redirecting…") until the browser leaves.
    } catch (error) {
      this.buying.set(null);
      if (error instanceof ApiError && error.status === 503) this.unavailable.set(true);
      else this.error.set(this.errors.describe(error));
    }
  }

  protected resume(plan: Plan): void {
    const url = this.pendingOf(plan);
    const pending = this.plans.value()?.pending.find((p) => p.planId === plan.id);
    if (!url || !pending) return;
    sessionStorage.setItem(CHECKOUT_STORAGE_KEY, pending.paymentId);
    this.browser.assign(url);
  }
}
