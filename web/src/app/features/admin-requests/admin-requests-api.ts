import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  AdminMediaRequest,
  AutomationCandidate,
  IngestProgress,
  RequestStatus,
  RequestType,
} from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';

export interface AdminRequestFilters {
  status: RequestStatus | null;
  type: RequestType | null;
  search: string;
  userId: string | null;
  automationError: boolean;
  page: number;
  pageSize: number;
}

export type AdminRequestPage = Page<AdminMediaRequest>;

/** The admin request routes (20-api.md §6 "Media requests"). */
@Injectable({ providedIn: 'root' })
export class AdminRequestsApi {
  private readonly http = inject(HttpClient);

  async list(filters: AdminRequestFilters, abort?: AbortSignal): Promise<AdminRequestPage> {
    let params = new HttpParams().set('page', filters.page).set('pageSize', filters.pageSize);
    if (filters.status) params = params.set('status', filters.status);
    if (filters.type) params = params.set('type', filters.type);
    if (filters.search.trim()) params = params.set('search', filters.search.trim());
    if (filters.userId) params = params.set('userId', filters.userId);
    if (filters.automationError) params = params.set('hasAutomationError', 'true');
    const reply = await firstValueFrom(
      this.http.get<AdminRequestPage>('/api/v1/admin/media-requests', {
        params,
        ...abortWith(abort),
      }),
    );
    for (const item of reply.data) await checkReply('adminMediaRequestSchema', item);
    return reply;
  }

  approve(id: string): Promise<AdminMediaRequest> {
    return this.review(`${id}/approve`, {});
  }

  reject(id: string, reason: string): Promise<AdminMediaRequest> {
    return this.review(`${id}/reject`, { reason });
  }

  redispatch(id: string): Promise<AdminMediaRequest> {
    return this.review(`${id}/redispatch`, {});
  }

  async verifyIngest(
    id: string,
  ): Promise<{ request: AdminMediaRequest; progress: IngestProgress | null }> {
    const reply = await firstValueFrom(
      this.http.post<{ request: AdminMediaRequest; progress: IngestProgress | null }>(
        `/api/v1/admin/media-requests/${id}/verify-ingest`,
        {},
      ),
    );
    return checkReply('verifyIngestReplySchema', reply);
  }

  /** MoviePilot manual search; `season` is required for a whole-series request. */
  async searchCandidates(
    id: string,
    season: number | null,
  ): Promise<{ candidates: AutomationCandidate[]; searchedAt: string }> {
    const reply = await firstValueFrom(
      this.http.post<{ candidates: AutomationCandidate[]; searchedAt: string }>(
        `/api/v1/admin/media-requests/${id}/search`,
        season === null ? {} : { season },
      ),
    );
    return checkReply('manualSearchReplySchema', reply);
  }

  /** Sends one searched candidate to MoviePilot as it was received. */
  async dispatchCandidate(id: string, candidateIndex: number): Promise<AdminMediaRequest> {
    const reply = await firstValueFrom(
      this.http.post<{ request: AdminMediaRequest; accepted: true }>(
        `/api/v1/admin/media-requests/${id}/dispatch`,
        { candidateIndex },
      ),
    );
    return (await checkReply('manualDispatchReplySchema', reply)).request;
  }

  async remove(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/v1/admin/media-requests/${id}`));
  }

  private async review(path: string, body: object): Promise<AdminMediaRequest> {
    const reply = await firstValueFrom(
      this.http.post<{ request: AdminMediaRequest }>(`/api/v1/admin/media-requests/${path}`, body),
    );
    return (await checkReply('adminRequestReplySchema', reply)).request;
  }
}
