import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { Notice, NoticesPage } from '@usher/contracts';
import type { LifecycleChannel, NoticeKind, NoticeStatus } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../query-params';

/** A query of the notices log; '' leaves a filter out. */
export interface NoticeQuery {
  userId: string;
  kind: '' | NoticeKind;
  channel: '' | LifecycleChannel;
  status: '' | NoticeStatus;
  page: number;
  pageSize: number;
}

/**
 * `GET /admin/notices` (docs/lifecycle.md): what the lifecycle jobs sent, skipped or failed.
 * Shared by the lifecycle page's log and the user detail's Notices tab.
 */
@Injectable({ providedIn: 'root' })
export class NoticesApi {
  private readonly http = inject(HttpClient);

  async list(query: Partial<NoticeQuery>, abort?: AbortSignal): Promise<NoticesPage> {
    const params = filterParams(query);
    const reply = await firstValueFrom(
      this.http.get<NoticesPage>('/api/v1/admin/notices', { params, ...abortWith(abort) }),
    );
    return checkPage('noticeSchema', reply);
  }
}

export type { Notice };
