import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { MediaLatest, MediaResume, MediaStats, SystemInfo } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

export type LatestType = 'movie' | 'series';

/** The overview's media reads (20-api.md "Media"; docs/media.md). */
@Injectable({ providedIn: 'root' })
export class MediaHomeApi {
  private readonly http = inject(HttpClient);

  async stats(): Promise<MediaStats> {
    const reply = await firstValueFrom(this.http.get<MediaStats>('/api/v1/media/stats'));
    return checkReply('mediaStatsSchema', reply);
  }

  /**
   * "Recently added". On the member overview public/boot.js starts both reads before the app
   * loads (scripts/route-preload.mjs lists their exact URLs: keep `type` before `limit`).
   */
  async latest(type: LatestType, limit = 20): Promise<MediaLatest> {
    const reply = await firstValueFrom(
      this.http.get<MediaLatest>('/api/v1/media/latest', { params: { type, limit } }),
    );
    return checkReply('mediaLatestSchema', reply);
  }

  /**
   * "Continue watching" (issue 36): the member's resume points. Started by public/boot.js with
   * the latest rails (scripts/route-preload.mjs lists this exact URL).
   */
  async resume(limit = 12): Promise<MediaResume> {
    const reply = await firstValueFrom(
      this.http.get<MediaResume>('/api/v1/media/resume', { params: { limit } }),
    );
    return checkReply('mediaResumeSchema', reply);
  }

  /** Admins: which integrations are configured (the setup checklist). */
  async systemInfo(): Promise<SystemInfo> {
    const reply = await firstValueFrom(this.http.get<SystemInfo>('/api/v1/admin/system/info'));
    return checkReply('systemInfoSchema', reply);
  }
}
