import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatCard, MatCardActions, MatCardContent } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Plan } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { FormError } from '../../shared/form-error';
import { MoneyPipe } from '../../shared/money';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { SubmitButton } from '../../shared/submit-button';
import { BrowserLocation, CHECKOUT_STORAGE_KEY, PaymentsApi } from './payments-api';

/**
 * The Plans tab of `/console/renewal` (60-web.md §4.2): a card per plan with its price in the
 * active language; Buy opens Stripe Checkout, Continue payment resumes a pending one.
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
