import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { MyStreams, SharingEvent, SharingMember } from '@usher/contracts';
import type {
  Page,
  SharingActionName,
  SharingEventStatusName,
  SharingRuleName,
} from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../query-params';

/** `GET /admin/sharing/events` filters (docs/sharing.md); empty strings are left out. */
export interface SharingEventQuery {
  status: '' | SharingEventStatusName;
  rule: '' | SharingRuleName;
  userId: string;
  page: number;
  pageSize: number;
}

const BASE = '/api/v1/admin/sharing';

/** Account sharing: events, a member's timeline and trust, and the member's own streams. */
@Injectable({ providedIn: 'root' })
export class SharingApi {
  private readonly http = inject(HttpClient);

  async events(query: SharingEventQuery, abort?: AbortSignal): Promise<Page<SharingEvent>> {
    const params = filterParams(query);
    const reply = await firstValueFrom(
      this.http.get<Page<SharingEvent>>(`${BASE}/events`, { params, ...abortWith(abort) }),
    );
    return checkPage('sharingEventSchema', reply);
  }

  async act(id: string, action: SharingActionName): Promise<SharingEvent> {
    const reply = await firstValueFrom(
      this.http.post<SharingEvent>(`${BASE}/events/${id}/act`, { action }),
    );
    return checkReply('sharingEventSchema', reply);
  }

  async dismiss(id: string, note: string): Promise<SharingEvent> {
    const reply = await firstValueFrom(
      this.http.post<SharingEvent>(`${BASE}/events/${id}/dismiss`, { note }),
    );
    return checkReply('sharingEventSchema', reply);
  }

  async member(userId: string): Promise<SharingMember> {
    const reply = await firstValueFrom(this.http.get<SharingMember>(`${BASE}/members/${userId}`));
    return checkReply('sharingMemberSchema', reply);
  }

  async setExempt(userId: string, exempt: boolean): Promise<SharingMember> {
    const reply = await firstValueFrom(
      this.http.put<SharingMember>(`${BASE}/members/${userId}/exempt`, { exempt }),
    );
    return checkReply('sharingMemberSchema', reply);
  }

  async myStreams(): Promise<MyStreams> {
    const reply = await firstValueFrom(this.http.get<MyStreams>('/api/v1/me/streams'));
    return checkReply('myStreamsSchema', reply);
  }
}
