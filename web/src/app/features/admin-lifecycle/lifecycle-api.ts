import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  AnnouncementCreate,
  AnnouncementCreated,
  AnnouncementsPage,
  LifecyclePreview,
  LifecyclePreviewRequest,
  LifecycleTestReply,
  LifecycleTestRequest,
  LifecycleUpcomingPage,
} from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';

/** The admin's lifecycle routes (docs/lifecycle.md "Admin tools", "Announcements"). */
@Injectable({ providedIn: 'root' })
export class LifecycleApi {
  private readonly http = inject(HttpClient);

  /** Who gets which reminder, when and on which channel within `days`, soonest first. */
  async upcoming(days: number, abort?: AbortSignal): Promise<LifecycleUpcomingPage> {
    const reply = await firstValueFrom(
      this.http.get<LifecycleUpcomingPage>('/api/v1/admin/lifecycle/preview', {
        params: new HttpParams().set('days', days).set('pageSize', 100),
        ...abortWith(abort),
      }),
    );
    return checkPage('upcomingReminderSchema', reply);
  }

  /** The reminder rendered with a draft subject and text over the saved ones. */
  async preview(draft: LifecyclePreviewRequest, abort?: AbortSignal): Promise<LifecyclePreview> {
    const reply = await firstValueFrom(
      this.http.post<LifecyclePreview>('/api/v1/admin/lifecycle/preview', draft, {
        ...abortWith(abort),
      }),
    );
    return checkReply('lifecyclePreviewReplySchema', reply);
  }

  /** Sends the saved reminder to the calling admin on one channel. */
  async test(body: LifecycleTestRequest): Promise<LifecycleTestReply> {
    const reply = await firstValueFrom(
      this.http.post<LifecycleTestReply>('/api/v1/admin/lifecycle/test', body),
    );
    return checkReply('lifecycleTestReplySchema', reply);
  }

  async announcements(
    page: number,
    pageSize: number,
    abort?: AbortSignal,
  ): Promise<AnnouncementsPage> {
    const reply = await firstValueFrom(
      this.http.get<AnnouncementsPage>('/api/v1/admin/announcements', {
        params: new HttpParams().set('page', page).set('pageSize', pageSize),
        ...abortWith(abort),
      }),
    );
    return checkPage('announcementSchema', reply);
  }

  /** Posts an announcement: 202 with the number of members it goes to. */
  async announce(body: AnnouncementCreate): Promise<AnnouncementCreated> {
    const reply = await firstValueFrom(
      this.http.post<AnnouncementCreated>('/api/v1/admin/announcements', body),
    );
    return checkReply('announcementCreatedSchema', reply);
  }
}
