import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CheckoutResponse, MemberPlans, Payment } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';

/** Where the page keeps the payment it sent to Stripe, to find it again on the way back. */
export const CHECKOUT_STORAGE_KEY = 'usher.checkout.paymentId';

/** The member's plans and payments (20-api.md §5 "Plans and checkout", "Account"). */
@Injectable({ providedIn: 'root' })
export class PaymentsApi {
  private readonly http = inject(HttpClient);

  async plans(): Promise<MemberPlans> {
    const reply = await firstValueFrom(this.http.get<MemberPlans>('/api/v1/plans'));
    return checkReply('memberPlansSchema', reply);
  }

  async checkout(planId: string): Promise<CheckoutResponse> {
    const reply = await firstValueFrom(
      this.http.post<CheckoutResponse>('/api/v1/payments/checkout', { planId }),
    );
    return checkReply('checkoutResponseSchema', reply);
  }

  async payments(page: number, pageSize: number): Promise<Page<Payment>> {
    const params = new HttpParams().set('page', page).set('pageSize', pageSize);
    const reply = await firstValueFrom(
      this.http.get<Page<Payment>>('/api/v1/me/payments', { params }),
    );
    return checkPage('paymentSchema', reply);
  }

  async payment(id: string): Promise<Payment> {
    const reply = await firstValueFrom(this.http.get<Payment>(`/api/v1/me/payments/${id}`));
    return checkReply('paymentSchema', reply);
  }
}

/** Leaving for Stripe's page; a service so specs can watch it instead of navigating away. */
@Injectable({ providedIn: 'root' })
export class BrowserLocation {
  assign(url: string): void {
    location.assign(url);
  }
}
