import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  RankingBatch,
  RankingHistoryPage,
  RankingLatest,
  RankingPeriod,
} from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';

/**
 * The contract's `RANKING_PERIODS`, repeated here because a value import from
 * `@usher/contracts` would bring zod into the bundle; the check keeps the two equal.
 */
export const RANKING_PERIODS = ['daily', 'weekly'] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const samePeriods: Same<(typeof RANKING_PERIODS)[number], RankingPeriod> = true;
void samePeriods;

/** Rankings (20-api.md "Rankings", `/admin/rankings/*`; docs/rankings-calendar.md). */
@Injectable({ providedIn: 'root' })
export class RankingsApi {
  private readonly http = inject(HttpClient);

  async latest(period: RankingPeriod): Promise<RankingBatch | null> {
    const reply = await firstValueFrom(
      this.http.get<RankingLatest>('/api/v1/rankings/latest', { params: { period } }),
    );
    return (await checkReply('rankingLatestSchema', reply)).batch;
  }

  async batch(id: string): Promise<RankingBatch> {
    const reply = await firstValueFrom(
      this.http.get<RankingBatch>(`/api/v1/rankings/${encodeURIComponent(id)}`),
    );
    return checkReply('rankingBatchSchema', reply);
  }

  async history(
    period: RankingPeriod,
    page: number,
    pageSize: number,
  ): Promise<RankingHistoryPage> {
    const params = new HttpParams()
      .set('period', period)
      .set('page', page)
      .set('pageSize', pageSize);
    const reply = await firstValueFrom(
      this.http.get<RankingHistoryPage>('/api/v1/rankings/history', { params }),
    );
    return checkPage('rankingBatchSummarySchema', reply);
  }

  /** The running period computed now: not stored, not pushed. */
  async preview(period: RankingPeriod): Promise<RankingBatch> {
    const reply = await firstValueFrom(
      this.http.post<RankingBatch>('/api/v1/admin/rankings/preview', { period }),
    );
    return checkReply('rankingBatchSchema', reply);
  }

  /** Computes and stores the running period (replacing its batch), pushed when `push`. */
  async generate(period: RankingPeriod, push: boolean): Promise<RankingBatch> {
    const reply = await firstValueFrom(
      this.http.post<RankingBatch>('/api/v1/admin/rankings/generate', { period, push }),
    );
    return checkReply('rankingBatchSchema', reply);
  }
}
