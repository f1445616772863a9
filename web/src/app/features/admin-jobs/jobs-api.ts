import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { JobList, JobRun } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';

/** The scheduled jobs (20-api.md §6 "Jobs"). */
@Injectable({ providedIn: 'root' })
export class JobsApi {
  private readonly http = inject(HttpClient);

  async list(): Promise<JobList> {
    const reply = await firstValueFrom(this.http.get<JobList>('/api/v1/admin/jobs'));
    return checkReply('jobListSchema', reply);
  }

  async runs(name: string, page: number, pageSize: number): Promise<Page<JobRun>> {
    const params = new HttpParams().set('page', page).set('pageSize', pageSize);
    const reply = await firstValueFrom(
      this.http.get<Page<JobRun>>(`/api/v1/admin/jobs/${encodeURIComponent(name)}/runs`, {
        params,
      }),
    );
    return checkPage('jobRunSchema', reply);
  }

  /** `POST /admin/jobs/:name/run` → 202 `{runId}`; 409 `JOB_RUNNING` while one runs. */
  async run(name: string): Promise<string> {
    const reply = await firstValueFrom(
      this.http.post<{ runId: string }>(`/api/v1/admin/jobs/${encodeURIComponent(name)}/run`, {}),
    );
    return (await checkReply('runJobResponseSchema', reply)).runId;
  }

  async getRun(runId: string): Promise<JobRun> {
    const reply = await firstValueFrom(this.http.get<JobRun>(`/api/v1/admin/job-runs/${runId}`));
    return checkReply('jobRunSchema', reply);
  }
}
