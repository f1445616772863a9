import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  CheckExistingReply,
  CreateRequestBody,
  DiscoverReply,
  MediaRequest,
  MetadataSearchReply,
  RequestStatus,
  RequestType,
  TitleDetails,
} from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

export type SearchType = 'multi' | 'movie' | 'tv';

export interface CreateReply {
  outcome: 'created' | 'auto_approved';
  request: MediaRequest;
}

/** The member's request routes and the metadata search (20-api.md §4, §5). */
@Injectable({ providedIn: 'root' })
export class RequestsApi {
  private readonly http = inject(HttpClient);

  async list(
    status: RequestStatus | null,
    page: number,
    pageSize: number,
  ): Promise<Page<MediaRequest>> {
    let params = new HttpParams().set('page', page).set('pageSize', pageSize);
    if (status) params = params.set('status', status);
    const reply = await firstValueFrom(
      this.http.get<Page<MediaRequest>>('/api/v1/media-requests', { params }),
    );
    for (const item of reply.data) await checkReply('mediaRequestSchema', item);
    return reply;
  }

  async cancel(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/v1/media-requests/${id}`));
  }

  async resubmit(id: string, note: string, confirmExisting: boolean): Promise<CreateReply> {
    const body = confirmExisting ? { note, confirmExisting } : { note };
    const reply = await firstValueFrom(
      this.http.post<CreateReply>(`/api/v1/media-requests/${id}/resubmit`, body),
    );
    return checkReply('createRequestReplySchema', reply);
  }

  async search(query: string, type: SearchType, page = 1): Promise<MetadataSearchReply> {
    const params = new HttpParams().set('query', query).set('type', type).set('page', page);
    const reply = await firstValueFrom(
      this.http.get<MetadataSearchReply>('/api/v1/metadata/search', { params }),
    );
    return checkReply('metadataSearchReplySchema', reply);
  }

  /** The rails the page opens on before any typing (issue 36), each title badged. */
  async discover(): Promise<DiscoverReply> {
    const reply = await firstValueFrom(this.http.get<DiscoverReply>('/api/v1/metadata/discover'));
    return checkReply('discoverReplySchema', reply);
  }

  /** The title sheet: details, cast and each season's availability. */
  async title(mediaType: 'movie' | 'tv', tmdbId: number): Promise<TitleDetails> {
    const reply = await firstValueFrom(
      this.http.get<TitleDetails>(`/api/v1/metadata/titles/${mediaType}/${tmdbId}`),
    );
    return checkReply('titleDetailsSchema', reply);
  }

  async checkExisting(
    type: RequestType,
    tmdbId: number,
    season: number,
  ): Promise<CheckExistingReply> {
    const reply = await firstValueFrom(
      this.http.post<CheckExistingReply>('/api/v1/media-requests/check-existing', {
        type,
        tmdbId,
        season,
      }),
    );
    return checkReply('checkExistingReplySchema', reply);
  }

  async create(body: CreateRequestBody): Promise<CreateReply> {
    const reply = await firstValueFrom(this.http.post<CreateReply>('/api/v1/media-requests', body));
    return checkReply('createRequestReplySchema', reply);
  }
}
