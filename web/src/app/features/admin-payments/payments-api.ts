import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { AdminPaymentDetail, AdminPaymentList, Plan } from '@usher/contracts';
import type { Page, PaymentStatus } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../../shared/query-params';

export interface PaymentQuery {
  status: '' | PaymentStatus;
  userId: string;
  planId: string;
  /** Calendar days `YYYY-MM-DD` (inclusive, business timezone), or ''. */
  from: string;
  to: string;
  page: number;
  pageSize: number;
}

/** The admin's payment routes (20-api.md §6 "Plans and payments"). */
@Injectable({ providedIn: 'root' })
export class AdminPaymentsApi {
  private readonly http = inject(HttpClient);

  async list(query: PaymentQuery, abort?: AbortSignal): Promise<AdminPaymentList> {
    const reply = await firstValueFrom(
      this.http.get<AdminPaymentList>('/api/v1/admin/payments', {
        params: filterParams(query),
        ...abortWith(abort),
      }),
    );
    return checkReply('adminPaymentListSchema', reply);
  }

  async detail(id: string): Promise<AdminPaymentDetail> {
    const reply = await firstValueFrom(
      this.http.get<AdminPaymentDetail>(`/api/v1/admin/payments/${id}`),
    );
    return checkReply('adminPaymentDetailSchema', reply);
  }

  /** Every plan, for the plan filter (withdrawn ones too: old payments point at them). */
  async plans(): Promise<Page<Plan>> {
    const reply = await firstValueFrom(
      this.http.get<Page<Plan>>('/api/v1/admin/plans', {
        params: new HttpParams().set('includeInactive', 'true').set('pageSize', 100),
      }),
    );
    return checkPage('planSchema', reply);
  }
}
