import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CreatePlan, MemberPlans, Plan, PlanOrder, UpdatePlan } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';

/** The admin's plan routes (20-api.md §6 "Plans and payments"). */
@Injectable({ providedIn: 'root' })
export class AdminPlansApi {
  private readonly http = inject(HttpClient);

  async list(page: number, pageSize: number): Promise<Page<Plan>> {
    const params = new HttpParams()
      .set('includeInactive', 'true')
      .set('page', page)
      .set('pageSize', pageSize);
    const reply = await firstValueFrom(
      this.http.get<Page<Plan>>('/api/v1/admin/plans', { params }),
    );
    return checkPage('planSchema', reply);
  }

  /** Whether members can buy now (the page's banner says why not). */
  async paymentsEnabled(): Promise<boolean> {
    const reply = await firstValueFrom(this.http.get<MemberPlans>('/api/v1/plans'));
    return (await checkReply('memberPlansSchema', reply)).paymentsEnabled;
  }

  /** The ids of the plans on sale, in the order members see them. */
  async onSale(): Promise<string[]> {
    const reply = await firstValueFrom(this.http.get<MemberPlans>('/api/v1/plans'));
    return (await checkReply('memberPlansSchema', reply)).data.map((plan) => plan.id);
  }

  /** Puts the plans on sale in this order: every one of them, once (one request, one write). */
  async reorder(ids: readonly string[]): Promise<PlanOrder> {
    const reply = await firstValueFrom(
      this.http.put<PlanOrder>('/api/v1/admin/plans/order', { ids }),
    );
    return checkReply('planOrderSchema', reply);
  }

  async create(fields: CreatePlan): Promise<Plan> {
    const reply = await firstValueFrom(this.http.post<Plan>('/api/v1/admin/plans', fields));
    return checkReply('planSchema', reply);
  }

  async update(id: string, patch: UpdatePlan): Promise<Plan> {
    const reply = await firstValueFrom(this.http.patch<Plan>(`/api/v1/admin/plans/${id}`, patch));
    return checkReply('planSchema', reply);
  }

  async withdraw(id: string): Promise<Plan> {
    const reply = await firstValueFrom(this.http.delete<Plan>(`/api/v1/admin/plans/${id}`));
    return checkReply('planSchema', reply);
  }
}
