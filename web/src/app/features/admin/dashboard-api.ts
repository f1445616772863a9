import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { AdminDashboard } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';

/** `GET /admin/dashboard` (issue 36): membership and revenue figures for the admin landing. */
@Injectable({ providedIn: 'root' })
export class DashboardApi {
  private readonly http = inject(HttpClient);

  async load(abort?: AbortSignal): Promise<AdminDashboard> {
    const reply = await firstValueFrom(
      this.http.get<AdminDashboard>('/api/v1/admin/dashboard', abortWith(abort)),
    );
    return checkReply('adminDashboardSchema', reply);
  }
}
