import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { AuditEntry } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../../shared/query-params';

export interface AuditListQuery {
  actorId: string;
  /** Prefix match: `settings.` finds every settings change. */
  action: string;
  targetType: string;
  targetId: string;
  /** Calendar days `YYYY-MM-DD` (inclusive, business timezone), or ''. */
  from: string;
  to: string;
  page: number;
  pageSize: number;
}

@Injectable({ providedIn: 'root' })
export class AuditApi {
  private readonly http = inject(HttpClient);

  async list(query: AuditListQuery, abort?: AbortSignal): Promise<Page<AuditEntry>> {
    const params = filterParams(query);
    const reply = await firstValueFrom(
      this.http.get<Page<AuditEntry>>('/api/v1/admin/audit-log', { params, ...abortWith(abort) }),
    );
    return checkPage('auditEntrySchema', reply);
  }
}
