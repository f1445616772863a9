import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { RedeemCode, Redemption } from '@usher/contracts';
import type { CodeStatusFilter, Page, RedemptionKind } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../../shared/query-params';

export type { CodeStatusFilter };

export interface CodeQuery {
  status: CodeStatusFilter;
  search: string;
  page: number;
  pageSize: number;
}

export interface RedemptionQuery {
  username: string;
  code: string;
  kind: '' | RedemptionKind;
  /** Calendar days `YYYY-MM-DD` (inclusive, business timezone), or ''. */
  from: string;
  to: string;
  page: number;
  pageSize: number;
}

/** The fields a code is created or edited with (20-api.md §6 "Redeem codes"). */
export interface CodeFields {
  days: number;
  maxUses: number;
  expiresAt: string | null;
  notes: string;
}

@Injectable({ providedIn: 'root' })
export class RedeemCodesApi {
  private readonly http = inject(HttpClient);

  async list(query: CodeQuery, abort?: AbortSignal): Promise<Page<RedeemCode>> {
    const reply = await firstValueFrom(
      this.http.get<Page<RedeemCode>>('/api/v1/admin/redeem-codes', {
        params: filterParams(query),
        ...abortWith(abort),
      }),
    );
    return checkPage('redeemCodeSchema', reply);
  }

  async create(fields: CodeFields): Promise<RedeemCode> {
    const reply = await firstValueFrom(
      this.http.post<RedeemCode>('/api/v1/admin/redeem-codes', fields),
    );
    return checkReply('redeemCodeSchema', reply);
  }

  /** `POST /admin/redeem-codes/batch`: 1–100 codes in one transaction. */
  async batch(count: number, fields: CodeFields): Promise<RedeemCode[]> {
    const reply = await firstValueFrom(
      this.http.post<{ data: RedeemCode[]; count: number }>('/api/v1/admin/redeem-codes/batch', {
        count,
        ...fields,
      }),
    );
    return (await checkPage('redeemCodeSchema', reply)).data;
  }

  async update(id: string, fields: Partial<CodeFields>): Promise<RedeemCode> {
    const reply = await firstValueFrom(
      this.http.patch<RedeemCode>(`/api/v1/admin/redeem-codes/${id}`, fields),
    );
    return checkReply('redeemCodeSchema', reply);
  }

  async remove(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/v1/admin/redeem-codes/${id}`));
  }

  async redemptions(query: RedemptionQuery, abort?: AbortSignal): Promise<Page<Redemption>> {
    const reply = await firstValueFrom(
      this.http.get<Page<Redemption>>('/api/v1/admin/redemptions', {
        params: filterParams(query),
        ...abortWith(abort),
      }),
    );
    return checkPage('redemptionSchema', reply);
  }
}

/** The CSV of created codes (built in the browser, 60-web.md §4.3). */
export function codesCsvRows(codes: readonly RedeemCode[]): (string | number | null)[][] {
  return [
    ['code', 'days', 'maxUses', 'expiresAt', 'notes'],
    ...codes.map((c) => [c.code, c.days, c.maxUses, c.expiresAt, c.notes]),
  ];
}
