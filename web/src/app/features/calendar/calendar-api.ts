import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { CalendarSyncRequest, CalendarWeek, JobRun } from '@usher/contracts';
import type { CalendarScope, CalendarStatus } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

/** What the page asks for: a scope, any day of the week (or this week), a status filter. */
export interface WeekQuery {
  scope: CalendarScope;
  /** `YYYY-MM-DD` in the business timezone, or '' for this week. */
  week: string;
  status: CalendarStatus | '';
}

/** The watch calendar (20-api.md "Watch calendar", `POST /admin/calendar/sync`). */
@Injectable({ providedIn: 'root' })
export class CalendarApi {
  private readonly http = inject(HttpClient);

  async week(query: WeekQuery): Promise<CalendarWeek> {
    let params = new HttpParams();
    if (query.week) params = params.set('week', query.week);
    if (query.status) params = params.set('status', query.status);
    const reply = await firstValueFrom(
      this.http.get<CalendarWeek>(`/api/v1/calendar/${query.scope}`, { params }),
    );
    return checkReply('calendarWeekSchema', reply);
  }

  /** `PUT /calendar/follows/:tmdbId` (idempotent). */
  async follow(tmdbId: number): Promise<void> {
    const reply = await firstValueFrom(this.http.put(`/api/v1/calendar/follows/${tmdbId}`, null));
    await checkReply('calendarFollowReplySchema', reply);
  }

  /** `DELETE /calendar/follows/:tmdbId` → 204 (idempotent). */
  async unfollow(tmdbId: number): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/v1/calendar/follows/${tmdbId}`));
  }

  /** Admins: `POST /admin/calendar/sync` → 202 `{runId}`; 409 `JOB_RUNNING` while one runs. */
  async sync(body: Partial<CalendarSyncRequest> = {}): Promise<string> {
    const reply = await firstValueFrom(
      this.http.post<{ runId: string }>('/api/v1/admin/calendar/sync', body),
    );
    return (await checkReply('runJobResponseSchema', reply)).runId;
  }

  /** The sync's run, polled for its progress and end (60-web.md §5). */
  async run(runId: string): Promise<JobRun> {
    const reply = await firstValueFrom(this.http.get<JobRun>(`/api/v1/admin/job-runs/${runId}`));
    return checkReply('jobRunSchema', reply);
  }
}
