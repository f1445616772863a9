import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { SessionList } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

/** `GET /admin/sessions` (20-api.md "Playback, sessions"): live, not paginated. */
@Injectable({ providedIn: 'root' })
export class SessionsApi {
  private readonly http = inject(HttpClient);

  async list(): Promise<SessionList> {
    const reply = await firstValueFrom(this.http.get<SessionList>('/api/v1/admin/sessions'));
    return checkReply('sessionListSchema', reply);
  }
}
